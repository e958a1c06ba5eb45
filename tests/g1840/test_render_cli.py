"""``tramways render``: records, traces, empty maps; errors are one line and exit code 2."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tramways.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def hex_count(path: Path) -> int:
    root = ET.parse(path).getroot()
    return sum(1 for el in root.iter(f"{SVG}polygon") if el.get("class") == "hex")


def test_render_empty_map_to_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.svg"
    assert main(["render", "--map", "two_player", "-o", str(out)]) == 0
    assert hex_count(out) == 89
    assert "wrote" in capsys.readouterr().out


def test_render_record_to_svg(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert main(["new", "1840", "--players", "3", "--seed", "5", "-o", str(record)]) == 0
    out = tmp_path / "game.svg"
    assert main(["render", str(record), "-o", str(out), "--as-of", "0", "--routes"]) == 0
    assert hex_count(out) == 148


def test_render_record_to_png(tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("cairosvg / libcairo not installed")
    record = tmp_path / "game.json"
    assert main(["new", "1840", "--players", "2", "--seed", "3", "-o", str(record)]) == 0
    out = tmp_path / "game.png"
    assert main(["render", str(record), "-o", str(out), "--scale", "0.4"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_trace_position(
    tmp_path: Path, oracle_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "trace.svg"
    trace = oracle_dir / "2player.trace.jsonl"
    assert main(["render", "--trace", str(trace), "--index", "120", "-o", str(out)]) == 0
    assert hex_count(out) == 89
    shown = re.search(r"after action (\d+)", out.read_text(encoding="utf-8"))
    assert shown is not None
    assert 100 <= int(shown.group(1)) <= 120  # the last processed action up to 120
    assert "wrote" in capsys.readouterr().out


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_bad_output_suffix_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", "--map", "full", "-o", str(tmp_path / "map.pdf")]) == 2
    assert ".svg or .png" in one_error_line(capsys)
    assert not (tmp_path / "map.pdf").exists()


def test_missing_record_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothere.json"
    assert main(["render", str(missing), "-o", str(tmp_path / "x.svg")]) == 2
    assert "no such file" in one_error_line(capsys)


def test_missing_trace_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothere.jsonl"
    assert main(["render", "--trace", str(missing), "-o", str(tmp_path / "x.svg")]) == 2
    assert "no such file" in one_error_line(capsys)


def test_as_of_beyond_the_record_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert main(["new", "1840", "--players", "3", "--seed", "5", "-o", str(record)]) == 0
    capsys.readouterr()
    assert main(["render", str(record), "--as-of", "99", "-o", str(tmp_path / "x.svg")]) == 2
    assert "--as-of 99" in one_error_line(capsys)


def test_needs_exactly_one_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "-o", str(tmp_path / "x.svg")]) == 2
    assert "exactly one" in one_error_line(capsys)


def test_record_of_another_game_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "tb.json"
    if main(["new", "trambahn", "--seed", "1", "-o", str(record)]) != 0:
        pytest.skip("trambahn is not available")
    capsys.readouterr()
    assert main(["render", str(record), "-o", str(tmp_path / "x.svg")]) == 2
    assert "1840" in one_error_line(capsys)
