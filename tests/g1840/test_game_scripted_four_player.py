"""A whole 4-player game from the Pre-Share Round to the end of CR6, scripted, with the final
wealth computed by hand.  Nobody builds track, so lines earn nothing; on the full map the
Stadtbahn companies D and V earn 70 before any tile (x1, 1, 1, 2, 3, 10).  The game shows a
bidding war for a line, a mandatory tram purchase paid with two loans (R-CR-5), a sale moving
a price down (X.3), a sold-out rise each Share Round (X.3), a new order with a tie (VII.2) and
a company with three lines (VIII.6: no more auctions for it)."""

from __future__ import annotations

from .test_game_support import make, play

PRE = [
    "P1 bid PR 10", "P2 bid PR 15", "P3 pass", "P4 pass", "P1 bid PR 20", "P2 pass",
    "P2 bid KK 20", "P3 pass", "P4 pass", "P1 pass",
    "P3 bid SB 30", "P4 pass", "P1 pass", "P2 pass",
    "P4 bid SSB 60", "P1 pass", "P2 pass", "P3 pass",
    "P1 pass", "P2 bid HB 40", "P3 pass", "P4 pass", "P1 pass",
    "P3 pass", "P4 bid SD 50", "P1 pass", "P2 pass", "P3 pass",
    "P4 order 1", "P2 order 3", "P3 order 2",
]
SR1 = ["P4 par GW 70", "P3 par BBG 80", "P2 par DT 90", "P1 par WT 100",
       "P4 buy V", "P3 buy D", "P2 buy D", "P1 buy D", "P4 buy D",
       "P3 pass", "P2 pass", "P1 pass", "P4 pass"]
CR1 = ["WT buy yellow", "WT done", "DT buy yellow", "DT done", "BBG buy yellow", "BBG done",
       "GW done",
       "WT auction L1 20", "DT bid 25", "BBG pass", "GW bid 30", "WT bid 35", "DT pass",
       "GW bid 600", "WT pass", "GW done",
       "WT auction L3 20", "DT pass", "BBG pass", "WT done",
       "DT auction L4 20", "BBG pass", "DT done",
       "BBG auction L5 20", "BBG done",
       "GW buy orange"]
LR1 = ["L1 run", "L3 run", "L4 run", "L5 run"]
CR2 = ["WT done", "DT done", "BBG done",
       "WT auction L7 20", "DT pass", "BBG pass", "WT done", "DT pass", "BBG pass",
       "DT done", "BBG done"]
SR2 = ["P3 buy GW", "P2 buy GW", "P1 pass", "P4 sell V 1", "P4 buy GW", "P3 buy GW",
       "P2 pass", "P1 pass", "P4 pass", "P3 sell D 1", "P3 buy GW",
       "P2 pass", "P1 pass", "P4 pass", "P3 pass"]
LR2 = ["L1 run", "L3 run", "L4 run", "L5 run", "L7 run"]
CR3 = ["WT done", "DT done", "BBG done",
       "WT auction L2 20", "DT pass", "BBG pass", "WT done", "DT pass", "BBG pass",
       "DT done", "BBG done"]
SR_ALL_PASS = ["P4 pass", "P2 pass", "P1 pass", "P3 pass"]
LR3 = ["L1 run", "L2 run", "L3 run", "L4 run", "L5 run", "L7 run"]
CR4 = ["WT done", "DT done", "BBG done", "DT pass", "BBG pass", "WT done", "DT done",
       "BBG done"]
CR5 = ["WT done", "BBG done", "DT done", "BBG pass", "DT pass", "WT done", "BBG done",
       "DT done"]


def test_game_four_player_scripted_to_the_end() -> None:
    # scripted under the first edition of the rulings (R-CR-2 before its amendment); it
    # replays as it was played (R-VERSION-1)
    s = make(4, edition=1, order=[0, 1, 2, 3], display=[1, 3, 4, 5, 7],
             deck=[2, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    play(s, *PRE)
    # least money chooses first: P4 150, P2 200, P3 230, P1 240
    assert [p.cash for p in s.players] == [240, 200, 230, 150]
    assert s.order == [3, 2, 1, 0]
    play(s, *SR1)
    # SR1 leaves 25, 35, 115, 0; CR1 begins at once and CRa pays 5, 30, 15, 55
    assert [p.cash for p in s.players] == [30, 65, 130, 55]
    assert s.order == [2, 1, 0, 3]
    play(s, *CR1)
    gw = s.companies["GW"]
    # GW paid 600 for line 1, declined trams, then had to buy: 100 treasury + 200 from P4,
    # who had 69: two loans of 100 (R-CR-5: no more than needed)
    assert gw.lines == [1] and gw.trams == ["orange"] and gw.treasury == 0
    assert s.players[3].loans == 2 and s.players[3].cash == 69
    play(s, *LR1, *LR1, *CR2)
    assert s.round.name == "SR2"
    play(s, *SR2)
    # X.3: V fell one row when P4 sold (85 -> 75); GW sold out and rose (60 -> 70);
    # new order by cash: P4 163, P2 49, P1 49 (tie: P2 was earlier), P3 44
    assert s.price("V") == 75 and s.price("GW") == 70
    assert [p.cash for p in s.players] == [49, 49, 44, 163]
    assert s.order == [3, 1, 0, 2]
    play(s, *LR2, *LR2, *CR3)
    assert s.companies["WT"].lines == [3, 7, 2]
    play(s, *SR_ALL_PASS, *LR3, *LR3, *CR4, *SR_ALL_PASS, *LR3, *LR3, *CR5, *SR_ALL_PASS,
         *LR3, *LR3, *LR3)
    assert s.is_over()
    # Hand computation of the cash (privates each CR: P1 5, P2 30, P3 15, P4 55;
    # D pays 7, 7, 7, 14, 21, 70 per share; V pays 7 twice to P4 before P4 sold it):
    assert [p.cash for p in s.players] == [181, 281, 104, 495]
    # prices: every tram company paid 0 six times: WT 60, DT 60, BBG 60; GW 60 after its last
    # CR6 drop; D 65 -> 70 (CR4) -> 81 (CR5) -> up four rows from the row end: 121
    assert [s.price(c) for c in ("WT", "DT", "BBG", "GW", "D", "V")] == [60, 60, 60, 60, 121, 125]
    wealth = [
        181 + 5 * 60 + 121 + 10,  # P1: WT 50%, D 10%, Prater
        281 + 5 * 60 + 60 + 121 + 20 + 40,  # P2: DT 50%, GW 10%, D 10%, KK, HB
        104 + 5 * 60 + 3 * 60 + 30,  # P3: BBG 50%, GW 30%, SB
        495 + 6 * 60 + 121 + 60 + 50 - 2 * 200,  # P4: GW 60%, D 10%, SSB, SD, two loans
    ]
    assert wealth == [612, 822, 614, 686]
    assert s.result() == {"wealth": wealth, "rank": [4, 1, 3, 2], "winners": [1]}
