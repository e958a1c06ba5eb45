"""Golden records (``tests/golden/``): stored finished games replay to their stored figures.

Every 1840 player count (2-6), the small 3-player map and the 2-player map, a game imported
from 18xx.games and a Trambahn game.  A change that alters how any of them comes out fails
here; if the change is deliberate, ``python tools/golden.py --write`` stores the new figures,
committed on their own with the reason (R-VERSION-1: a ruling change keeps old records as
played, so only a fix or a new edition should ever need it).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from tramways.g1840.edition import LATEST

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_tool", ROOT / "tools" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLDEN = _tool()
STORED = json.loads(GOLDEN.FIGURES.read_text(encoding="utf-8"))
RECORDS = GOLDEN.golden_records()


def test_the_golden_set_covers_every_player_count_both_small_maps_and_an_import() -> None:
    assert set(RECORDS) == set(STORED)
    games = [r for r in RECORDS.values() if r.game == "1840"]
    assert sorted({r.settings["players"] for r in games}) == [2, 3, 4, 5, 6]
    assert {r.setup["layout"] for r in games} == {"full", "small3", "two_player"}
    assert any(r.settings.get("ruleset") == "18xx.games" for r in games)
    assert any(r.game == "trambahn" for r in RECORDS.values())
    for record in games:  # made after the amended R-CR-2: the newest edition
        assert record.settings["edition"] == int(LATEST)


@pytest.mark.parametrize("name", sorted(STORED))
def test_golden_record_replays_to_its_figures(name: str) -> None:
    figures = GOLDEN.figures(RECORDS[name])
    assert figures["finished"]
    assert figures == STORED[name]
