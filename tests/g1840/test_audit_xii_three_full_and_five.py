"""R-SETUP-3: a scripted 3-player game on the full map (nothing removed) through CR1 into the
Line Rounds; and the 5-player set-up (III.3, III.5, VII.3, Table 1)."""

from __future__ import annotations

from tramways.g1840.game import GAME

from .test_game_support import make, play

PRE = ("P1 bid PR 10", "P2 pass", "P3 pass", "P2 bid KK 20", "P3 pass", "P1 pass",
       "P3 bid SB 30", "P1 pass", "P2 pass", "P1 bid HB 40", "P2 pass", "P3 pass",
       "P2 bid SD 50", "P3 bid SD 55", "P1 pass", "P2 pass", "P3 bid SSB 60", "P1 pass",
       "P2 pass", "P3 order 3", "P1 order 1")
SR1 = ("P1 par DT 100", "P2 par WKB 80", "P3 par GW 70", "P1 buy V", "P2 buy D", "P3 pass",
       "P1 pass", "P2 pass")
CR1 = ("DT buy yellow", "DT done", "WKB buy yellow", "WKB done", "GW buy yellow", "GW done",
       "DT auction L1 20", "WKB pass", "GW pass", "DT done", "WKB auction L3 20", "GW pass",
       "WKB done", "GW auction L5 20", "GW done")


def _three_full():
    return make(3, order=[0, 1, 2], display=[1, 3, 5, 12],
                deck=[2, 4, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18])


def test_r_setup_3_three_player_full_map_pre_share_round() -> None:
    s = _three_full()
    assert s.layout_name == "full" and len(s.private_owner) == 6  # Prater stays
    play(s, *PRE)
    # VI: least money chooses first (P3 155, P1 250, P2 280); P2 gets the card left over
    assert [p.cash for p in s.players] == [250, 280, 155]
    assert s.round.name == "SR1" and s.order == [0, 1, 2]
    assert s.players[0].privates == ["PR", "HB"] and s.players[2].privates == ["SB", "SD", "SSB"]


def test_r_setup_3_three_player_full_map_sr1_and_cr1() -> None:
    s = _three_full()
    play(s, *PRE, *SR1)
    # VII.2: most cash first: P2 165, P3 155, P1 15
    assert s.order == [1, 2, 0] and s.round.name == "CR1"
    play(s, *CR1)
    # CRa dividends (PR 5, HB 20 / KK 10 / SB 15, SD 25, SSB 30) and V, D pay 70 (VIII.5.2)
    assert [p.cash for p in s.players] == [15 + 25 + 7, 165 + 10 + 7, 155 + 70]
    assert {c: s.price(c) for c in ("DT", "WKB", "GW", "W", "V", "G", "D")} == {
        "DT": 95, "WKB": 75, "GW": 65, "W": 90, "V": 85, "G": 70, "D": 65}
    assert {c: (x.treasury, x.lines, x.trams) for c, x in s.companies.items()} == {
        "DT": (880, [1], ["yellow"]), "WKB": (680, [3], ["yellow"]),
        "GW": (580, [5], ["yellow"])}
    # CRf: players + 1 = 4 new lines (VIII.7)
    assert s.line_display == [12, 2, 4, 6, 7] and s.round.name == "LR1a"
    assert dict(s.board.markers("D18")) == {0: (1,)}


def test_r_setup_3_three_player_full_map_line_rounds() -> None:
    s = _three_full()
    play(s, *PRE, *SR1, *CR1, "L1 run", "L3 run", "L5 run")
    assert s.round.name == "LR1b" and s.sub.turn.line == 1
    for line, home in ((1, "D18"), (3, "E17"), (5, "G15")):
        assert any(coord == home for coord, _ in s.board.line_markers(line))
    play(s, "L1 run", "L3 run", "L5 run")
    assert s.round.name == "CR2"


def test_iii3_five_players_set_up() -> None:
    settings = GAME.normalize_settings({"players": 5})
    setup = GAME.setup(settings, 3)
    assert setup["layout"] == "full" and len(setup["line_display"]) == 6  # players + 1
    assert 2 not in setup["line_display"]  # R-SETUP-2
    s = GAME.new_state(settings, setup, 3)
    assert all(p.cash == 230 and p.pre_emptive == 350 for p in s.players)  # III.3
    assert s.cert_limit() == 13  # Table 5
    assert s.trams.spaces[0] == ("yellow", 8)  # Table 1
    assert s.tram_counts == {"yellow": 8, "orange": 6, "red": 6, "pink": 6, "purple": 6}
    assert set(s.stadtbahn) == {"W", "V", "G", "D"} and len(s.private_owner) == 6
    assert len(s.line_display) + len(s.line_deck) == 18
