"""Trambahn's settings as a typed model (Setup): checked once, written back as every record
stores them."""

from __future__ import annotations

import pytest

from tramways.core import RecordError
from tramways.trambahn.game import GAME, TrambahnSettings


def test_setup_two_players_named_p1_and_p2_unless_named() -> None:
    assert TrambahnSettings.from_json({}) == TrambahnSettings(names=("P1", "P2"))
    assert GAME.normalize_settings({}) == {"players": 2, "names": ["P1", "P2"]}


def test_setup_names_are_trimmed_and_written_as_the_record_stores_them() -> None:
    typed = TrambahnSettings.from_json({"players": 2, "names": [" Anna ", "Ben"]})
    assert typed.to_json() == {"players": 2, "names": ["Anna", "Ben"]}
    assert TrambahnSettings.from_json(typed.to_json()) == typed


@pytest.mark.parametrize(("settings", "message"), [
    ({"players": 3}, "a game for exactly 2 players"),
    ({"names": ["Anna"]}, "names must be 2 non-empty strings"),
    ({"names": ["Anna", " "]}, "names must be 2 non-empty strings"),
    ({"seed": 4}, "unknown settings"),
])
def test_setup_bad_settings_are_refused_in_one_line(settings: dict, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        TrambahnSettings.from_json(settings)
