"""Views: everything in 1840 is public; the JSON view and the text view of ``tramways show``."""

from __future__ import annotations

import json

from tramways.g1840.game import GAME

from .test_game_support import CR1_SCRIPT, make, play, two_player_after_sr1, two_player_sr2


def test_view_is_public_json_with_the_figures() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT, "L1 lay D18 235 r1")
    v = s.view(0).to_json()
    assert v == s.view(None).to_json() | {"viewer": 0}
    json.dumps(v)
    assert v["round"] == "LR1a" and not v["finished"]
    assert v["turn"] == {"player": 1, "name": "Player 2", "line": 1}
    p2 = v["players"][1]
    assert p2["cash"] == 160 and p2["loans"] == 0 and p2["shares"] == {"WT": 50}
    assert p2["value"] == 160 + 5 * 95 + 80 and p2["certificates"] == 3
    wt = v["companies"]["WT"]
    assert wt["treasury"] == 880 and wt["revenue"] == 0 and wt["price"] == 95
    assert wt["lines"] == [1] and wt["trams"] == ["yellow"] and wt["markers"] == {"1": ["D18.0"]}
    assert v["market"]["WT"] == [1, 1] and v["tiles"] == {"D18": ["235", 1]}
    assert sorted(v["stadtbahn"]["D"]["markers"]) == ["A17.2", "D22.0", "E23.0", "F24.2"]
    assert v["trams"]["newest"] == "yellow"


def test_text_view_summarises_the_position() -> None:
    s = two_player_after_sr1()
    text = GAME.text_view(s.view(None))
    assert "CR1" in text and "To act: Player 2 for WT" in text
    assert "WT   price  95  treasury  1000" in text  # after its 0 dividend (VIII.5.1)
    assert "Trams on sale: orange 300 x3, yellow 100 x2; to come: red, pink, purple" in text


def test_text_view_shows_orders_unsold_and_pool_shares_company_privates_and_the_chart() -> None:
    """What ``tramways show`` prints besides ``--json``: the Share Round order (VII.2), each
    company's unsold and pool shares, privates owned by companies (IV.2), tram prices (VIII.3)
    and the chart positions (X.1: a marker arriving on an occupied space goes under)."""
    s = two_player_after_sr1()
    text = GAME.text_view(s.view(None))
    assert "Playing order: Player 1, Player 2" in text
    assert ("Share chart: 95 (row 2, space 2): W WT; 75 (row 4, space 2): G; "
            "70 (row 5, space 3): SJE; 65 (row 5, space 2): D") in text
    assert "Shares unsold/in the pool: WT 5/0  SJE 5/0  W 10/0  G 10/0  D 10/0" in text
    s.players[1].privates.remove("SB")  # as if WT had bought Schloss Belvedere (IV.2)
    s.companies["WT"].privates.append("SB")
    s.private_owner["SB"] = "WT"
    s.companies["SJE"].pool, s.companies["SJE"].ipo = 10, 40
    text = GAME.text_view(s.view(None))
    assert "director P2  privates SB" in text
    assert "SJE 4/1" in text
    sr = two_player_sr2()
    text = GAME.text_view(sr.view(None))
    names = [sr.players[seat].name for seat in sr.order]
    assert f"Share Round order (VII.2): {', '.join(names)}" in text


def test_r_pre_1_the_spectator_view_shows_the_private_auction() -> None:
    """R-PRE-1: while a private is auctioned, the public view names it, the high bid, its
    bidder and whose turn it is to bid or pass; ``tramways show`` prints it."""
    s = make(2, order=[0, 1])
    assert "auction" not in s.view(None).to_json()["round_info"]  # nothing opened yet
    play(s, "P1 bid KK 20")
    auction = s.view(None).to_json()["round_info"]["auction"]
    assert auction == {"private": "KK", "high": 20, "high_bidder": 0, "opener_pos": 0,
                       "turn": 1}
    play(s, "P2 bid KK 25")
    assert s.view(None).to_json()["round_info"]["auction"]["high_bidder"] == 1
    assert "Auction: KK, high bid 25 by Player 2" in GAME.text_view(s.view(None))
    play(s, "P1 pass")  # P2 buys KK: the auction is over
    assert "auction" not in s.view(None).to_json()["round_info"]
    assert "Auction:" not in GAME.text_view(s.view(None))
