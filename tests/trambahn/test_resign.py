"""A resignation that ends the game (``P1 resign``; the site's ``on_resign: "end"``,
docs/async.md): the other player wins whatever the score (Game End's ranking with the
resigner second), in either player's turn, and the end shows no more than any end does.
Never listed by ``legal_actions`` (``Action.resigns``): no bot or environment chooses it."""

from __future__ import annotations

import random
from pathlib import Path

from tests.support import refused
from tests.trambahn.helpers import position
from tramways.core import GameRecord, Session
from tramways.trambahn.actions import EndTurn, Resign
from tramways.trambahn.game import GAME
from tramways.trambahn.rules import RESIGNATION
from tramways.trambahn.views import build_view

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _midgame() -> Session:
    """The golden game at its 100th action: P2 to act, P1 leading 16 to 0."""
    return Session.from_record(GameRecord.load(GOLDEN / "trambahn-resigned.json"), upto=100)


def test_resign_notation_round_trips() -> None:
    assert GAME.format_action(Resign(0)) == "P1 resign"
    assert GAME.parse_action("P2 resign") == Resign(1)
    assert GAME.parse_action(" p1  resign ") == Resign(0)
    assert GAME.resignation(1) == Resign(1)
    assert Resign(0).resigns and not EndTurn(0).resigns


def test_resign_game_end_the_leader_resigns_out_of_turn_and_loses() -> None:
    session = _midgame()
    state = session.state
    assert state.turn == 1 and state.scores == [16, 0]
    lines = session.play("P1 resign", seat=0)
    assert lines == ["P1 resigns: the game ends",
                     "Game over (resignation): P1 16, P2 0 - P2 wins"]
    assert state.is_over() and state.current_players() == [] and state.legal_actions() == []
    result = state.outcome()
    assert result.winner == 1 and result.places == (2, 1) and result.winners == (1,)
    assert result.scores == (16, 0) and result.reason == RESIGNATION == "resignation"
    assert result.resigned == 0 and result.to_json()["resigned"] == 0


def test_resign_the_player_in_turn_may_resign() -> None:
    state = position(hands=("3r", "4b"), turn=0)
    state.apply(Resign(0), 0)
    assert state.outcome().places == (2, 1) and state.outcome().resigned == 0


def test_resign_course_of_play_another_seat_cannot_resign_someone_else() -> None:
    state = _midgame().state
    error = refused("Course of Play", state.apply, Resign(0), 1)
    assert error.message == "seat 2 may not play P1's action"
    assert not state.is_over()


def test_resign_game_end_an_ended_game_cannot_be_resigned() -> None:
    state = Session.from_record(GameRecord.load(GOLDEN / "trambahn.json")).state
    assert state.is_over()
    before = state.outcome()
    error = refused("Game End", state.apply, Resign(1), 1)
    assert error.message == "the game is over"
    assert state.outcome() == before and "resigned" not in before.to_json()


def test_resign_record_replays_to_the_same_result() -> None:
    stored = GameRecord.load(GOLDEN / "trambahn-resigned.json")
    assert stored.actions[-1] == "P1 resign"
    replayed = Session.from_record(stored)
    session = _midgame()
    session.play("P1 resign", seat=0)
    assert replayed.state.outcome() == session.state.outcome()
    assert replayed.log == session.log
    assert replayed.state.view(None) == session.state.view(None)


def test_resign_end_view_reveals_what_any_end_reveals_and_nothing_more() -> None:
    """The hidden piles stay hidden at the end: the other hand, the draw and discard piles and
    the money faces appear as sizes only, in every seat's view, as in any view."""
    session = _midgame()
    state = session.state
    before = {seat: build_view(state, seat) for seat in (0, 1, None)}
    session.play("P1 resign", seat=0)
    for seat in (0, 1, None):
        after = build_view(state, seat)
        assert after.hand == before[seat].hand
        assert after.hand_sizes == before[seat].hand_sizes
        assert after.deck_size == before[seat].deck_size
        assert after.money_sizes == before[seat].money_sizes
        unique = build_view(state, seat, label=lambda card: f"#{card}")
        seen = {c for row in unique.rows.values() for c in row}
        seen |= {c for cols in unique.columns for col in cols for c in col.stations}
        seen |= set(unique.hand or ())
        hidden = {f"#{c}" for c in state.deck + state.discard + state.money[0]
                  + state.money[1]}
        if seat != 0:
            hidden |= {f"#{c}" for c in state.hands[0]}
        if seat != 1:
            hidden |= {f"#{c}" for c in state.hands[1]}
        assert not seen & hidden
    assert build_view(state, None).result == state.outcome()


def test_resign_is_never_listed_so_no_bot_or_environment_chooses_it() -> None:
    session = Session.new("trambahn", {}, seed=21)
    rng = random.Random(21)
    state = session.state
    while not state.is_over():
        assert not any(a.resigns for seat in (0, 1) for a in state.legal_actions(seat))
        if state.turn_number % 9 == 0:
            probe = state.clone()
            probe.apply(Resign(1 - state.turn), 1 - state.turn)
            assert probe.outcome().winner == state.turn
        session.play(GAME.selfplay_policy(state, state.turn, rng))
