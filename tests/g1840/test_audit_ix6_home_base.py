"""IX.6: the free home marker; D18 (the OO home of lines 1 and 2, R-LR-13) and the home-circle
reservation for lines that can no longer enter the game (IX.6 with VIII.6/VIII.7, R-LR-12)."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import PlaceStation, ReturnPrivate, ScrapTram
from tramways.g1840.rounds.company import (
    AfterAuctions,
    CompanyRound,
    Dividends,
    FinalRearrangement,
    LineAuctions,
    MandatoryPurchase,
    Over,
)

from .test_game_support import CR1_SCRIPT, make, play, two_player_after_sr1


def test_ix6_home_marker_on_d18_without_tile_is_automatic() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    assert s.round.name == "LR1a" and s.sub.turn.line == 1
    assert dict(s.board.markers("D18")) == {0: (1,)}
    assert s.has_operated(1) and not s.sub.turn.home


def test_r_lr_13_ix6_home_marker_on_d18_choice_of_circle_once_a_tile_is_there() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT[:-1])
    s.board.lay("D18", "235", 0)  # the OO tile, as if another line had laid it
    play(s, CR1_SCRIPT[-1])
    assert s.round.name == "LR1a" and s.sub.turn.line == 1 and s.sub.turn.home
    assert not s.has_operated(1) and s.view(None).to_json()["round_info"]["line_turn"]["home_choice"]
    stations = [a for a in s.legal_actions() if isinstance(a, PlaceStation)]
    assert stations == [PlaceStation(line=1, hex="D18", location=0, player=1),
                        PlaceStation(line=1, hex="D18", location=1, player=1)]
    assert all(isinstance(a, PlaceStation | ReturnPrivate | ScrapTram)
               for a in s.legal_actions())
    refused("IX.6", play, s, "L1 run")
    treasury = s.companies["WT"].treasury
    play(s, "L1 station D18.1")
    assert dict(s.board.markers("D18")) == {1: (1,)}
    assert s.has_operated(1) and not s.sub.turn.home
    assert s.companies["WT"].treasury == treasury  # free (IX.6)
    # the home marker is in addition to the turn's station placement (IX.6)
    assert not s.sub.turn.station


def test_r_lr_12_ix6_reservation_ends_for_lines_that_cannot_be_bought() -> None:
    s = make(2, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18])
    # 2 players: the lines removed for the small map are in neither display nor deck
    removed = [n for n in range(1, 19) if n not in s.line_display + s.line_deck]
    assert removed and not any(s.may_still_operate(n) for n in removed)
    assert s.may_still_operate(2) and s.may_still_operate(1)
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    assert s.may_still_operate(1) and s.may_still_operate(5)
    # once every company holds three lines no auction is held again (VIII.6, VIII.7)
    for c, lines in (("WT", [1, 4, 6]), ("SJE", [3, 7, 15])):
        for n in lines:
            if n not in s.companies[c].lines:
                s.companies[c].lines.append(n)
                s.line_owner[n] = c
    unsold = [n for n in s.line_display + s.line_deck if n not in s.line_owner]
    assert unsold and not any(s.may_still_operate(n) for n in unsold)
    assert all(s.may_still_operate(n) for n in s.line_owner)


def test_r_lr_12_ix6_reservation_ends_after_the_last_auction_of_cr5() -> None:
    s = two_player_after_sr1()
    play(s, *CR1_SCRIPT)
    unsold = [n for n in s.line_display + s.line_deck if n not in s.line_owner]
    saved = (s.round_index, s.sub)
    cr5 = next(i for i, r in enumerate(s.ent.round_bar) if r.name == "CR5")
    try:
        s.round_index = cr5
        for step, expected in ((Dividends(), True), (LineAuctions(), True),
                               (AfterAuctions([]), False), (MandatoryPurchase([]), False),
                               (FinalRearrangement([]), False), (Over(), False)):
            s.sub = CompanyRound(number=5, order=list(s.companies), step=step)
            assert [s.may_still_operate(n) for n in unsold] == [expected] * len(unsold), step
        s.round_index = cr5 + 2  # LR5a: CR6 holds no auction (VIII.6, R-CR-4)
        assert not any(s.may_still_operate(n) for n in unsold)
        assert s.may_still_operate(1)  # owned lines keep their home circle
    finally:
        s.round_index, s.sub = saved
