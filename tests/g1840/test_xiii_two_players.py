"""XIII Two players: the 2-player map, lines 8-14, 16, 17, V, Prater and Schoenbrunn removed."""

from __future__ import annotations

from .test_game_support import make


def test_xiii_two_player_removals_and_figures() -> None:
    s = make(2)
    assert s.layout_name == "two_player"
    assert set(s.line_display) | set(s.line_deck) == {1, 2, 3, 4, 5, 6, 7, 15, 18}
    assert len(s.line_display) == 3 and 2 not in s.line_display  # R-SETUP-2
    assert set(s.stadtbahn) == {"W", "G", "D"}
    assert list(s.private_owner) == ["KK", "SB", "HB", "SD"]
    assert s.players[0].cash == 350 and s.players[0].pre_emptive == 350  # III.3
    assert s.cert_limit() == 18  # Table 5
    assert s.tram_counts == {"yellow": 2, "orange": 3, "red": 3, "pink": 3, "purple": 3}
