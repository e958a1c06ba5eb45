"""The ruleset as one frozen object of named switches (RULINGS.md X-1..X-9, R-VERSION-1)."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

import tramways.g1840 as g1840
from tramways.g1840 import ruleset as ruleset_module
from tramways.g1840.ruleset import RULES, SITE, Ruleset

from .test_game_support import make


def _switches() -> list[str]:
    return [f.name for f in dataclasses.fields(Ruleset) if f.name != "name"]


def test_x_rules_switch_nothing_and_the_site_switches_x1_to_x8() -> None:
    assert not any(getattr(RULES, name) for name in _switches())
    on = {name for name in _switches() if getattr(SITE, name)}
    assert on == set(_switches()) - {"climb_at_row_end"}  # no longer a difference


def test_r_version_1_first_edition_climbs_at_row_end_under_the_rules_only() -> None:
    assert Ruleset.of({"edition": 1}).climb_at_row_end
    assert not Ruleset.of({"edition": 2}).climb_at_row_end
    assert Ruleset.of({"ruleset": "18xx.games", "edition": 1}) is SITE
    assert Ruleset.named("rules") == RULES and Ruleset.named(SITE) is SITE
    with pytest.raises(ValueError):
        Ruleset.of({"ruleset": "house rules"})


def test_x_every_rulings_switch_has_its_field_with_its_id() -> None:
    source = inspect.getsource(ruleset_module)
    for n in range(1, 10):
        assert re.search(rf"#.*\bX-{n}\b", source), f"X-{n}"


def test_x_a_game_reads_its_ruleset_once() -> None:
    assert make(2).rules.name == "rules" and make(2, ruleset="18xx.games").rules is SITE
    with pytest.raises(dataclasses.FrozenInstanceError):
        RULES.dividends_first = True  # type: ignore[misc]


def test_x_rules_code_never_compares_ruleset_names() -> None:
    """Only the settings schema, the tile-chart data, the board's chart choice, the ruleset
    object itself and the importer know the names."""
    root = Path(g1840.__file__).parent
    allowed = {"ruleset.py", "game.py", "board.py", "data/__init__.py"}
    offenders = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel in allowed or rel.startswith(("interop/", "render/")):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if re.search(r"[=!]=\s*[\"']18xx\.games[\"']|[\"']18xx\.games[\"']\s*[=!]=", code):
                offenders.append(f"{rel}:{number}")
            if re.search(r"\bx18\b", code):
                offenders.append(f"{rel}:{number}")
    assert offenders == []
