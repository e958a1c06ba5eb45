"""Malformed records at the command line: one line on stderr and exit 2, never a traceback.

A Hypothesis property corrupts real records at random (any field, at any depth: replaced by
any JSON value, deleted, or given an extra key or item; an action's text edited) and runs every
command that reads a record on the result.  Each command either works (exit 0) or refuses
with exactly one line on stderr and exit 2; no exception escapes ``tramways.cli.main``.
``TRAMWAYS_FUZZ_EXAMPLES`` sets the number of corrupted records (default 40).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tramways.cli import main
from tramways.core.selfplay import play_game

ORACLE = Path(__file__).parents[1] / "g1840" / "test_game_oracle_2player.record.json"


@cache
def base_records() -> tuple[dict[str, Any], ...]:
    """Real records: 1840 (2 players into the first Line Round, the small 3-player map, the
    imported 18xx.games game cut in its CR2) and Trambahn."""
    out = []
    for game, setting, seed, n in (("1840", {"players": 2}, 5, 120),
                                   ("1840", {"players": 3, "small_map": True}, 6, 60),
                                   ("trambahn", {}, 3, 40)):
        record = play_game(game, setting, seed, max_actions=n).session.record
        out.append(json.loads(record.to_json()))
    oracle = json.loads(ORACLE.read_text(encoding="utf-8"))
    oracle["actions"] = oracle["actions"][:60]
    out.append(oracle)
    return tuple(out)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*here, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.extend(_paths(value, (*here, index)))
    return out


NEAR = st.sampled_from([0, 1, 2, 3, 7, -1, 10**20, "", "P1 pass", "full", "two_player", "KK",
                        "18xx.games", "rules", "1840", "trambahn", [], {}, [0, 1], None, True])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.integers()
    | st.floats(allow_nan=False) | st.text(max_size=6) | NEAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=6,
)


def _like(draw: st.DrawFn, value: Any) -> Any:
    """A value of the same JSON type, often near the original (a plausible mistake)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return draw(st.integers(-2, 25) | st.sampled_from([value + 1, value - 1, -value]))
    if isinstance(value, str):
        return draw(st.sampled_from(["", "x", value[:-1], value + value, value.upper()])
                    | NEAR.filter(lambda v: isinstance(v, str)))
    if isinstance(value, list) and value:
        how = draw(st.sampled_from(["drop", "twice", "reverse", "empty"]))
        i = draw(st.integers(0, len(value) - 1))
        if how == "drop":
            return value[:i] + value[i + 1:]
        if how == "twice":
            return [*value[:i], value[i], *value[i:]]
        return [] if how == "empty" else list(reversed(value))
    return draw(JSON)


@st.composite
def corrupted(draw: st.DrawFn) -> dict[str, Any] | Any:
    data = copy.deepcopy(draw(st.sampled_from(base_records())))
    for _ in range(draw(st.integers(1, 3))):
        # choose the part first, so that the long action list does not drown the rest
        part = draw(st.sampled_from(["settings", "setup", "setup", "actions", "meta", "seed",
                                     "game", "version", "anywhere"]))
        paths = [p for p in _paths(data)
                 if part == "anywhere" or (p and p[0] == part)] or [()]
        path = draw(st.sampled_from(paths))
        if not path:
            return draw(JSON)  # the whole record is something else
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        how = draw(st.sampled_from(["like", "like", "replace", "delete", "extra", "edit"]))
        if how == "like":
            parent[last] = _like(draw, parent[last])
        elif how == "replace":
            parent[last] = draw(JSON)
        elif how == "delete":
            del parent[last]
        elif how == "extra":
            target = parent[last]
            if isinstance(target, dict):
                target[draw(st.text(max_size=6))] = draw(JSON)
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(JSON))
            else:
                parent[last] = [target, draw(JSON)]
        elif isinstance(parent[last], str):  # edit a word of a text (an action, a name, ...)
            words = parent[last].split(" ")
            i = draw(st.integers(0, len(words) - 1))
            words[i] = draw(st.sampled_from(["", "P3", "P9", "999", "-5", "x", "r7", "L99",
                                             "A13.0", "WT", "SJE", "yellow", "pass", "10b"]))
            parent[last] = " ".join(words)
        else:
            parent[last] = draw(JSON)
    return data


def _commands(path: str, out: str) -> list[list[str]]:
    return [
        ["show", path], ["show", path, "--json"], ["show", path, "--as", "1"],
        ["moves", path], ["moves", path, "--as", "2", "--json"],
        ["log", path], ["log", path, "--as-of", "7"],
        ["routes", path], ["routes", path, "--json", "--line", "3"],
        ["routes", path, "--check", "D18.0-E17.0", "--line", "1"],
        ["render", path, "-o", out, "--routes"],
        ["play", path, "P1 pass"], ["undo", path],
        ["import-18xx", path, "-o", out],
    ]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def check_every_command(data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "record.json")
        for argv in _commands(path, os.path.join(tmp, "out.svg")):
            Path(path).write_text(json.dumps(data), encoding="utf-8")
            code, _, err = run(argv)
            assert code in (0, 2), (argv, code, err)
            if code == 2:
                lines = err.strip("\n").splitlines()
                assert len(lines) == 1 and lines[0].strip(), (argv, err)
                assert "Traceback" not in err


EXAMPLES = int(os.environ.get("TRAMWAYS_FUZZ_EXAMPLES", "40"))


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 40,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(corrupted())
def test_every_command_on_a_corrupted_record_is_one_line_and_exit_2(data: Any) -> None:
    check_every_command(data)


@pytest.mark.parametrize("index", range(4))
def test_every_command_works_on_the_base_records(index: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "record.json")
        Path(path).write_text(json.dumps(base_records()[index]), encoding="utf-8")
        assert run(["show", path])[0] == 0
        assert run(["log", path])[0] == 0


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(settings={}), "setup.layout 'two_player' does not fit 4 players"),
    (lambda d: d["setup"].update(playing_order=5), "setup.playing_order: Input should be a valid list"),
    (lambda d: d["setup"].update(playing_order=[0, "1"]), "setup.playing_order.1"),
    (lambda d: d["setup"].update(playing_order=[0, 0]), "setup.playing_order must hold"),
    (lambda d: d["setup"].update(line_deck=[2, 2]), "line_display and line_deck"),
    (lambda d: d["setup"].update(privates=["KK", "XX"]), "'XX' is not in this layout's game"),
    (lambda d: d["setup"].update(tram_companies=["GW"]), "tram_companies must name 2"),
    (lambda d: d["setup"].pop("stadtbahn"), "setup.stadtbahn: Field required"),
    (lambda d: d["setup"].update(extra=1), "setup.extra: Extra inputs are not permitted"),
])
def test_a_malformed_1840_setup_is_refused_at_load(change: Any, message: str) -> None:
    """Issue cases: ``"settings": {}`` (the 2-player set-up read as the default 4 players) and
    a ``setup.playing_order`` that is no list of seats; each command says so in one line."""
    data = json.loads(ORACLE.read_text(encoding="utf-8"))
    change(data)
    for argv in (["show"], ["routes"], ["moves"], ["log"]):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "record.json")
            Path(path).write_text(json.dumps(data), encoding="utf-8")
            code, out, err = run([argv[0], path])
        assert code == 2 and out == ""
        assert len(err.splitlines()) == 1 and message in err, err


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["setup"].update(extra=1), "setup: unknown entries ['extra']"),
    (lambda d: d["setup"]["money"].append([]), "expected money, hands (2 each)"),
    (lambda d: d["setup"]["hands"].pop(), "expected money, hands (2 each)"),
    (lambda d: d["setup"]["hands"][0].append("7r"), "too many 7r cards"),
    (lambda d: d["settings"].update(players=3), "exactly 2 players"),
])
def test_a_malformed_trambahn_setup_is_refused_at_load(change: Any, message: str) -> None:
    data = copy.deepcopy(base_records()[2])
    change(data)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "record.json")
        Path(path).write_text(json.dumps(data), encoding="utf-8")
        code, out, err = run(["show", path, "--as", "1"])
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err, err
