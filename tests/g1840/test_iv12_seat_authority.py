"""IV.1.2 "Only the director decides what a company does or does not do": a seat behind every
action.  A tram company's actions and its lines' actions are played only by the seat that
directs that company at that moment; a player's own actions only by that player; the "at any
time" actions (IV.2 returns, VIII.5.3 scrapping) by their owner or director on anyone's turn.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from tests.support import refused
from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.core.replay import Session
from tramways.g1840.actions import CompanyAction, LineAction, ScrapTram
from tramways.g1840.engine import State1840
from tramways.g1840.game import GAME
from tramways.g1840.policy import policy

from .test_game_support import play, two_player_after_pre, two_player_after_sr1, two_player_sr2


def test_iv12_company_action_from_a_non_director_is_refused() -> None:
    s = two_player_after_sr1()  # CR1: WT (P2 directs) buys first
    assert s.current_players() == [1]
    buy = GAME.parse_action("WT buy yellow")
    assert s.seats_for(buy) == [1]
    exc = refused("IV.1.2", s.apply, buy, 0)
    assert "directed by Player 2" in exc.message
    s.apply(buy, 1)
    assert s.companies["WT"].owned() == ["yellow"]


def test_iv12_line_action_from_a_non_director_is_refused() -> None:
    s = two_player_sr2()
    play(s, "P1 pass", "P2 pass")  # LR2a: line 1 of WT (P2) runs first
    run = GAME.parse_action("L1 run")
    assert s.seats_for(run) == [1]
    refused("IV.1.2", s.apply, run, 0)
    s.apply(run, 1)
    assert s.sub.turn.line == 3


def test_iv12_anytime_actions_by_the_director_on_anyone_s_turn() -> None:
    s = two_player_sr2()  # SR2: P1's turn; P2 directs WT, P1 directs SJE
    scrap = GAME.parse_action("WT scrap yellow")
    refused("IV.1.2", s.apply, scrap, 0)
    assert scrap in s.legal_actions(1) and scrap not in s.legal_actions(0)
    s.apply(scrap, 1)
    assert s.companies["WT"].owned() == [] and s.current_players() == [0]


def test_iii1_a_player_s_action_only_from_that_player() -> None:
    s = two_player_after_pre()
    assert s.current_players() == [1]  # P2 holds card 1
    par = GAME.parse_action("P2 par WT 100")
    assert s.seats_for(par) == [1]
    refused("III.1", s.apply, par, 0)
    ret = GAME.parse_action("P2 return SD")  # IV.2: at any time, but only by its owner
    refused("III.1", s.apply, ret, 0)
    s.apply(par, 1)


def test_iv12_no_seat_decides_a_company_not_in_the_game_or_an_unowned_line() -> None:
    s = two_player_after_pre()
    assert s.seats_for(GAME.parse_action("GW done")) == []
    refused("IV.1.2", s.apply, GAME.parse_action("GW done"), 0)
    assert s.seats_for(GAME.parse_action("L9 run")) == []
    refused("IV.3", s.apply, GAME.parse_action("L9 run"))


def test_iv12_authority_follows_the_director_at_once() -> None:
    """Authority is read from who directs the company at that moment: the par in SR1 gives it
    at once, and a director change (which 1840's own rules never make: VII.4, the director's
    share is never sold, VII.3 caps a holding at 60%) would move it at once too."""
    s = two_player_after_pre()
    scrap = ScrapTram(company="WT", colour="yellow")
    assert s.seats_for(scrap) == []
    play(s, "P2 par WT 100")
    assert s.seats_for(scrap) == [1]
    s = two_player_sr2()
    s.companies["WT"].director = 0  # the one place a change would write
    assert s.seats_for(scrap) == [0]
    assert any(isinstance(a, ScrapTram) and a.company == "WT" for a in s.legal_actions(0))
    assert not any(isinstance(a, ScrapTram) and a.company == "WT" for a in s.legal_actions(1))
    refused("IV.1.2", s.apply, scrap, 1)
    s.apply(scrap, 0)
    assert s.companies["WT"].owned() == []


def test_session_play_infers_the_single_seat_or_takes_the_named_one() -> None:
    session = Session.new("1840", {"players": 2}, seed=7)
    refused("III.1", session.play, "P2 bid KK 20", seat=0)
    assert session.record.actions == []
    session.play("P2 bid KK 20", seat=1)
    session.play("P1 pass")  # inferred: seat 0
    assert session.record.actions == ["P2 bid KK 20", "P1 pass"]


def _accepts(state: State1840, action: Action, seat: int, expected: bool) -> bool:
    """Whether ``state`` accepts ``action`` from ``seat`` (tried on a clone when expected)."""
    target = state.clone() if expected else state
    try:
        target.apply(action, seat)
    except IllegalAction:
        return False
    return True


@settings(max_examples=8, deadline=None, derandomize=True,
          phases=[Phase.explicit, Phase.generate],  # a whole game per example: no shrinking
          suppress_health_check=[HealthCheck.too_slow])
@example(players=4, seed=2344, ruleset="rules")  # a no-op arrangement was accepted unlisted
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6),
       ruleset=st.sampled_from(["rules", "18xx.games"]))
def test_iv12_property_legal_actions_per_seat_are_what_the_engine_accepts(
        players: int, seed: int, ruleset: str) -> None:
    """For every position of a random game: every action any seat lists is accepted from
    exactly the seats that list it (and ``seats_for`` names them); actions listed one position
    earlier and no longer listed by a seat are refused from it."""
    state = Session.new("1840", {"players": players, "ruleset": ruleset}, seed).state
    assert isinstance(state, State1840)
    rng = random.Random(seed)
    previous: list[Action] = []
    steps = 0
    while not state.is_over() and steps < 2000:
        listed = {seat: state.legal_actions(seat) for seat in range(players)}
        union = {a for acts in listed.values() for a in acts}
        assert set(state.legal_actions(None)) <= union
        for seat, acts in listed.items():
            for a in acts:
                assert state.seats_for(a) == [seat]
        candidates = rng.sample(sorted(union, key=repr), min(3, len(union)))
        candidates += rng.sample(previous, min(2, len(previous)))
        for action in candidates:
            for seat in range(players):
                expected = action in listed[seat]
                assert _accepts(state, action, seat, expected) == expected, (
                    state.round.name, GAME.format_action(action), seat, expected)
                if expected and isinstance(action, CompanyAction | LineAction):
                    for other in range(players):
                        if other != seat:
                            refused("IV.1.2", state.apply, action, other)
        previous = sorted(union, key=repr)
        actor = state.current_players()[0]
        state.apply(policy(state, actor, rng), actor)
        steps += 1
    assert state.is_over()


def test_cli_play_infers_the_director_or_takes_as(tmp_path, capsys) -> None:
    from tramways.cli import main

    session = Session.new("1840", {"players": 2}, seed=7)
    rng = random.Random(7)
    while True:  # random play up to the first company action (CR1)
        actor = session.state.current_players()[0]
        company = [a for a in session.state.legal_actions(actor) if isinstance(a, CompanyAction)]
        if company:
            break
        session.play(policy(session.state, actor, rng), actor)
    path = tmp_path / "g.json"
    session.record.save(str(path))
    text = GAME.format_action(company[0])
    before = path.read_bytes()
    capsys.readouterr()
    assert main(["play", str(path), text, "--as", str(2 - actor)]) == 2
    assert "illegal: IV.1.2:" in capsys.readouterr().err and path.read_bytes() == before
    assert main(["play", str(path), text]) == 0  # inferred: the director
    assert main(["play", str(path), "P1 pass", "--as", "2"]) == 2
    assert "illegal: III.1:" in capsys.readouterr().err


def test_iii1_a_seat_outside_the_game_may_do_nothing() -> None:
    s = two_player_sr2()
    assert s.legal_actions(5) == [] and s.legal_actions(-1) == []
    refused("III.1", s.apply, GAME.parse_action("P1 pass"), 5)
    refused("IV.1.2", s.apply, GAME.parse_action("WT scrap yellow"), 5)
    refused("III.1", s.apply, GAME.parse_action("P7 pass"), 0)
