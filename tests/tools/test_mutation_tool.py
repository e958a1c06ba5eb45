"""tools/mutation.py (issue 16): which mutants change only a message text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "mutation.py"
_spec = importlib.util.spec_from_file_location("tramways_mutation_tool", _PATH)
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)


@pytest.mark.parametrize(("before", "after"), [
    ('    raise IllegalAction("4", f"no {a.kind} tram on display")',
     '    raise IllegalAction("4", f"XXno {a.kind} tram on displayXX")'),
    ('        log = [f"P{p + 1} adds {a.card}"]', '        log = [f"XXP{p + 1} adds {a.card}XX"]'),
    ("    msg = 'no tram' 'here'", "    msg = 'XXno tramXX' 'here'"),
])
def test_a_mutant_changing_only_a_string_text_is_text_only(before: str, after: str) -> None:
    assert tool.text_only(before, after)


@pytest.mark.parametrize(("before", "after"), [
    ('    raise IllegalAction("4", "no tram")', '    raise IllegalAction("XX4XX", "no tram")'),
    ('    raise IllegalAction("Course of Play", "x y")',
     '    raise IllegalAction("XXCourse of PlayXX", "x y")'),
    ('    if h["kind"] == "extra":', '    if h["kind"] == "XXextraXX":'),
    ("    if len(money) < cost:", "    if len(money) <= cost:"),
    ("    return (row - 1, col) if row > 0 else cell",
     "    return (row - 1, col) if row > 1 else cell"),
    ("    n = len(money) // 2", "    n = len(money) / 2"),
])
def test_a_mutant_changing_code_a_rule_id_or_a_key_is_behaviour(before: str, after: str) -> None:
    assert not tool.text_only(before, after)


def test_the_same_line_is_no_mutant_and_a_partial_line_still_compares() -> None:
    assert not tool.text_only("    x = 1", "    x = 1")
    assert tool.text_only('        "no tram on sale",', '        "XXno tram on saleXX",')
    assert not tool.text_only("    foo(a,", "    foo(b,")


def test_every_module_with_own_tests_exists() -> None:
    root = _PATH.parent.parent
    for module, tests in tool.OWN_TESTS.items():
        assert (root / module).is_file(), module
        for test in tests:
            assert (root / test).exists(), test


_SHOW_MIDDLE = "\n".join([
    "--- src/tramways/trambahn/rules.py",
    "+++ src/tramways/trambahn/rules.py",
    "@@ -31,7 +31,7 @@",
    " )",
    " from tramways.trambahn.state import Column, TrambahnState",
    " ",
    "-_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}",
    "+_COLOUR_INDEX = None",
    " ",
    " ",
    " def legal_actions(state: TrambahnState, player: int | None = None) -> list[Action]:",
])
"""``mutmut show`` of a mutant on line 34 (its hunk starts with three lines of context)."""

_SHOW_FIRST_LINE = """--- src/m.py
+++ src/m.py
@@ -1,4 +1,4 @@
-X = 1
+X = 2
 Y = 3
 Z = 4
 W = 5
"""


def test_a_survivor_is_reported_at_the_line_of_its_change_not_at_its_hunks_context() -> None:
    """mutmut's hunk header names the first context line (31 here): the change is on 34."""
    assert tool._diff_lines(_SHOW_MIDDLE) == (
        "_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}", "_COLOUR_INDEX = None", 34)
    assert tool._diff_lines(_SHOW_FIRST_LINE) == ("X = 1", "X = 2", 1)
    assert tool._diff_lines("no diff") == ("", "", None)


_MODULE = "\n".join([
    "def check(edge, stop):",
    "    if stop is None:",
    '        raise IllegalAction("IX.2", f"no track from {edge}"',
    '                            + (" by edge" if edge is not None else "")',
    '                            + "location")',
    '    return {"kind": "extra"}',
])


@pytest.mark.parametrize(("number", "before", "after"), [
    (4, '                            + (" by edge" if edge is not None else "")',
     '                            + (" by edge" if edge is None else "")'),
    (4, '                            + (" by edge" if edge is not None else "")',
     '                            + (" by edge" if edge is not None else "XXXX")'),
    (5, '                            + "location")', '                            + "XXlocationXX")'),
])
def test_the_message_of_an_illegal_action_split_over_lines_is_text_only(
        number: int, before: str, after: str) -> None:
    assert not tool.text_only(before, after)  # the line alone cannot tell
    assert tool.text_only_in(_MODULE, number, before, after)


@pytest.mark.parametrize(("number", "before", "after"), [
    (3, '        raise IllegalAction("IX.2", f"no track from {edge}"',
     '        raise IllegalAction("XXIX.2XX", f"no track from {edge}"'),
    (2, "    if stop is None:", "    if stop is not None:"),
    (6, '    return {"kind": "extra"}', '    return {"kind": "XXextraXX"}'),
])
def test_a_rule_id_a_condition_or_a_key_stays_behaviour_in_the_module(
        number: int, before: str, after: str) -> None:
    assert not tool.text_only_in(_MODULE, number, before, after)


def test_a_mutant_whose_lines_do_not_match_the_module_is_judged_on_its_line() -> None:
    assert tool.text_only_in(_MODULE, 1, 'x = "a b"', 'x = "XXa bXX"')
    assert not tool.text_only_in(_MODULE, None, "x = 1", "x = 2")
