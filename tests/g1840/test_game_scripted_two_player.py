"""A whole 2-player game from the Pre-Share Round to the end of CR6, scripted, with every
figure computed by hand below (nobody builds track, so the lines earn nothing and only the
Stadtbahn D pays: 70 x 1, 1, 1, 2, 3, 10)."""

from __future__ import annotations

from .test_game_support import make, play

PRE = ["P1 bid KK 20", "P2 pass", "P2 bid SB 30", "P1 pass", "P1 bid HB 40", "P2 pass",
       "P2 bid SD 50", "P1 pass", "P2 order 1"]
SR1 = ["P2 par WT 100", "P1 par SJE 70", "P2 buy D", "P1 buy D", "P2 pass", "P1 pass"]
CR1 = ["WT buy yellow", "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20", "SJE pass",
       "WT done", "SJE auction L3 20", "SJE done"]
LR = ["L1 run", "L3 run"]
CR_LATER = ["WT done", "SJE done", "WT pass", "SJE pass", "WT done", "SJE done"]
SR = ["P1 pass", "P2 pass"]

SCRIPT = (PRE + SR1 + CR1 + LR * 2 + CR_LATER + SR + LR * 2 + CR_LATER + SR + LR * 2
          + CR_LATER + SR + LR * 2 + CR_LATER + SR + LR * 3)


def test_game_two_player_scripted_to_the_end() -> None:
    # scripted under the first edition of the rulings (R-CR-2 before its amendment); it
    # replays as it was played (R-VERSION-1)
    s = make(2, edition=1, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18])
    rounds = []
    for text in SCRIPT:
        if not rounds or rounds[-1] != s.round.name:
            rounds.append(s.round.name)
        play(s, text)
    assert rounds == ["PRE", "SR1", "CR1", "LR1a", "LR1b", "CR2", "SR2", "LR2a", "LR2b", "CR3",
                      "SR3", "LR3a", "LR3b", "CR4", "SR4", "LR4a", "LR4b", "CR5", "SR5", "LR5a",
                      "LR5b", "LR5c"]
    # CR6 plays itself: zero dividends (no revenue), Stadtbahn runs, then the end (R-CR-4)
    assert s.is_over()
    # Hand computation.
    # Pre: P1 pays 20 + 40 -> 290; P2 pays 30 + 50 -> 270, chooses card 1.
    # SR1: P2 pars WT 100 (150 over the card) -> 120, buys D 65 -> 55;
    #      P1 pars SJE 70 (card covers it) -> 290, buys D -> 225.
    # CRa x6: P1 +30 (KK 10 + HB 20), P2 +40 (SB 15 + SD 25).
    # D pays 7, 7, 7, 14, 21, 70 per share = 126.
    p1 = 225 + 6 * 30 + 126
    p2 = 55 + 6 * 40 + 126
    assert (s.players[0].cash, s.players[1].cash) == (p1, p2) == (531, 421)
    # Prices: WT 100 -> 95, 90, 80 (row start: down), 70, 60, 60 (bottom-left stays);
    # SJE 70 -> 65, 60 and stays; D 65 stays (70), stays, stays, +1 (140) 70,
    # +2 (210) 81, +4 (700) at the row end goes up 4 rows: 121.
    assert (s.price("WT"), s.price("SJE"), s.price("D")) == (60, 60, 121)
    assert s.price("W") == 60 and s.price("G") == 60
    wealth = [p1 + 5 * 60 + 121 + 20 + 40, p2 + 5 * 60 + 121 + 30 + 50]
    assert s.result() == {"wealth": wealth, "rank": [1, 2], "winners": [0]}
    assert wealth == [1012, 922]
