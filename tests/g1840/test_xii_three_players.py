"""XII Three players: the small map removes lines, V and Prater; the full map nothing
(R-SETUP-3)."""

from __future__ import annotations

import pytest

from tramways.core.errors import RecordError
from tramways.g1840.game import GAME

from .test_game_support import make


def test_xii_small_map_removals() -> None:
    s = make(3, small_map=True)
    assert s.layout_name == "small3" and s.board.layout.name in ("small3", "three_player_small")
    lines = set(s.line_display) | set(s.line_deck)
    assert lines == {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 18}
    assert "V" not in s.stadtbahn and set(s.stadtbahn) == {"W", "G", "D"}
    assert "PR" not in s.private_owner and len(s.private_owner) == 5
    assert s.players[0].cash == 300 and s.cert_limit() == 16
    assert s.trams.spaces[0] == ("yellow", 4)


def test_r_setup_3_three_players_full_map_removes_nothing() -> None:
    s = make(3)
    assert s.layout_name == "full"
    assert len(set(s.line_display) | set(s.line_deck)) == 18
    assert set(s.stadtbahn) == {"W", "V", "G", "D"} and len(s.private_owner) == 6


def test_xii_small_map_only_for_three() -> None:
    with pytest.raises(RecordError):
        GAME.normalize_settings({"players": 4, "small_map": True})
