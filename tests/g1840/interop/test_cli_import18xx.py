"""``tramways import-18xx``: argument handling and every bad input (one line, exit 2)."""

from __future__ import annotations

import json

import pytest

from tramways.cli import main
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.interop.importer import missing_engine_support
from tramways.g1840.interop.log18xx import load_export

from .helpers import action, export


def _run(capsys, *argv):
    code = main(["import-18xx", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def _cli_refusal(capsys, out_path, *argv) -> str:
    code, _, err = _run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out_path.exists()
    return err.strip()


def test_oracle_import_refuses_until_the_engine_can_replay_it(capsys, tmp_path, oracle_dir):
    out = tmp_path / "game.json"
    exp = load_export(oracle_dir / "2player.json")
    missing = missing_engine_support(exp)
    code, stdout, err = _run(capsys, oracle_dir / "2player.json", "-o", out, "--check",
                             oracle_dir / "2player.trace.jsonl")
    if missing:
        assert code == 2 and not out.exists()
        assert err.startswith("error: import-18xx is not available yet: ")
        assert err.count("\n") == 1
        for item in missing:
            assert item in err
    else:  # the engine can: the record must replay to the site's result
        assert code == 0, err
        record = GameRecord.load(out)
        assert record.settings["ruleset"] == "18xx.games"
        assert Session.from_record(record).state.result()["wealth"] == [8351, 7618]
        assert stdout == (f"wrote {out} (1840, 2 players, {len(record.actions)} actions, "
                          f"every figure checked against {oracle_dir / '2player.trace.jsonl'})\n")


def test_bad_export_files(capsys, tmp_path):
    out = tmp_path / "out.json"
    assert _cli_refusal(capsys, out, tmp_path / "none.json", "-o", out) == (
        f"error: {tmp_path / 'none.json'}: no such file")
    bad = tmp_path / "bad.json"
    bad.write_text("[1,", encoding="utf-8")
    assert "not JSON" in _cli_refusal(capsys, out, bad, "-o", out)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(export(title="18Chesapeake")), encoding="utf-8")
    assert _cli_refusal(capsys, out, other, "-o", out) == (
        "error: export: title is '18Chesapeake', not an 18xx.games game of 1840")
    weird = tmp_path / "weird.json"
    weird.write_text(json.dumps(export([action(1, "pass"), action(2, "fly")])), "utf-8")
    assert _cli_refusal(capsys, out, weird, "-o", out) == (
        "error: action 1: unknown action type 'fly'")
    undo = tmp_path / "undo.json"
    undo.write_text(json.dumps(export([action(1, "undo")])), "utf-8")
    assert _cli_refusal(capsys, out, undo, "-o", out) == (
        "error: action 0: undo with nothing to undo")


def test_bad_output_and_trace_arguments(capsys, tmp_path, oracle_dir):
    src = oracle_dir / "2player.json"
    out = tmp_path / "missing-dir" / "out.json"
    assert "does not exist" in _cli_refusal(capsys, out, src, "-o", out)
    out = tmp_path / "out.json"
    assert _cli_refusal(capsys, out, src, "-o", tmp_path) == f"error: -o {tmp_path}: is a directory"
    assert "no such file" in _cli_refusal(capsys, out, src, "-o", out, "--check", tmp_path / "t")
    lines = (oracle_dir / "2player.trace.jsonl").read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["game_id"] = 1
    other = tmp_path / "other.trace.jsonl"
    other.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", "utf-8")
    assert _cli_refusal(capsys, out, src, "-o", out, "--check", other) == (
        "error: trace: it is of game 1, the export is game 133875")


def test_usage_errors(capsys, tmp_path):
    code, _, err = _run(capsys, tmp_path / "x.json")
    assert code == 2 and "-o/--output" in err and "Traceback" not in err


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help(capsys, flag):
    with pytest.raises(SystemExit) as info:
        main(["import-18xx", flag])
    assert info.value.code == 0
    assert "--check TRACE.jsonl" in capsys.readouterr().out
