"""A resignation that ends the game (``P2 resign``; the site's ``on_resign: "end"``,
docs/async.md): no rulebook section covers it, so the result follows XI / R-END-1 with the
resigner placed last.  The action is the one no ``legal_actions`` lists (``Action.resigns``):
no bot or environment ever chooses it."""

from __future__ import annotations

import random
from pathlib import Path

from tests.g1840.test_game_support import make, play, two_player_after_sr1
from tests.support import refused
from tramways.core import GameRecord, Session
from tramways.g1840.actions import Pass, Resign
from tramways.g1840.game import GAME

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _midgame() -> Session:
    """The 4-player golden game at its 300th action (LR4a, Player 1 to act)."""
    return Session.from_record(GameRecord.load(GOLDEN / "1840-4p-resigned.json"), upto=300)


def test_resign_notation_round_trips() -> None:
    assert GAME.format_action(Resign(1)) == "P2 resign"
    assert GAME.parse_action("P2 resign") == Resign(1)
    assert GAME.parse_action(GAME.format_action(Resign(5))) == Resign(5)
    assert GAME.resignation(2) == Resign(2)
    assert Resign(0).resigns and not Pass(0).resigns


def test_resign_ends_the_game_at_once_out_of_turn() -> None:
    session = _midgame()
    state = session.state
    assert state.current_players() == [0] and state.round.name == "LR4a"
    lines = session.play("P3 resign", seat=2)
    assert lines == ["Player 3 resigns: the game ends"]
    assert state.is_over() and state.current_players() == []
    assert state.legal_actions(0) == [] and state.view(None).turn is None
    assert state.round.name == "LR4a"  # nothing else moved: no round ended, nothing paid


def test_resign_outcome_places_the_resigner_last_others_by_r_end_1_wealth() -> None:
    session = _midgame()
    wealth = [session.state.wealth(s) for s in range(4)]
    assert wealth == [730, 410, 625, 536]
    session.play("P3 resign", seat=2)  # second by wealth, placed last
    result = session.state.outcome()
    assert result.wealth == (730, 410, 625, 536) and result.scores == result.wealth
    assert result.places == (1, 3, 4, 2)
    assert result.winners == (0,) and result.resigned == 2
    assert result.to_json() == {"wealth": [730, 410, 625, 536], "rank": [1, 3, 4, 2],
                                "winners": [0], "resigned": 2}
    assert session.state.view(None).result == result


def test_resign_outcome_ties_share_a_place_as_r_end_1_says() -> None:
    state = make(3)  # the Pre-Share Round: every player 300 cash, nothing else
    play(state, "P2 resign")
    assert state.outcome().places == (1, 3, 1)
    assert state.outcome().winners == (0, 2)


def test_resign_the_player_to_act_may_resign_too() -> None:
    state = two_player_after_sr1()
    actor = state.current_players()[0]
    state.apply(Resign(actor), actor)
    assert state.outcome().places[actor] == 2 and state.outcome().resigned == actor


def test_resign_iii1_another_seat_cannot_resign_someone_else() -> None:
    state = _midgame().state
    error = refused("III.1", state.apply, Resign(2), 0)
    assert error.message == "seat 1 may not act for Player 3"
    refused("III.1", state.apply, Resign(2), 3)
    assert not state.is_over()


def test_resign_xi_an_ended_game_cannot_be_resigned() -> None:
    state = Session.from_record(GameRecord.load(GOLDEN / "1840-4p.json")).state
    assert state.is_over()
    before = state.outcome()
    error = refused("XI", state.apply, Resign(1), 1)
    assert error.message == "the game is over"
    assert state.outcome() == before and state.outcome().resigned is None
    resigned = Session.from_record(GameRecord.load(GOLDEN / "1840-4p-resigned.json")).state
    refused("XI", resigned.apply, Resign(0), 0)
    assert resigned.outcome().resigned == 2


def test_resign_record_replays_to_the_same_result() -> None:
    session = _midgame()
    session.play("P3 resign", seat=2)
    again = Session.from_record(GameRecord.from_json(session.record.to_json()))
    assert again.record.actions[-1] == "P3 resign"
    assert again.state.outcome() == session.state.outcome()
    assert again.log == session.log
    assert again.state.view(None) == session.state.view(None)


def test_resign_is_never_listed_so_no_bot_or_environment_chooses_it() -> None:
    """Random play through a whole game: no seat's legal actions ever hold a resignation,
    and every seat may still resign at each position checked."""
    session = Session.new("1840", {"players": 3}, seed=11)
    rng = random.Random(11)
    state = session.state
    for step in range(2000):
        if state.is_over():
            break
        assert not any(a.resigns for seat in range(3) for a in state.legal_actions(seat))
        if step % 97 == 0:
            for seat in range(3):
                probe = state.clone()
                probe.apply(Resign(seat), seat)
                assert probe.is_over() and probe.outcome().places[seat] == 3
        session.play(GAME.selfplay_policy(state, state.current_players()[0], rng))
    assert state.is_over()
