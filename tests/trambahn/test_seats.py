"""Trambahn seats ("Course of Play": you take your turn): a player's actions only from that
player; ``legal_actions(seat)`` lists exactly what that seat may do, and the engine accepts an
action from exactly the seats that list it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import refused
from tramways.cli import main
from tramways.core import IllegalAction, Session
from tramways.trambahn.engine import TrambahnState


def test_course_of_play_an_action_only_from_its_player():
    s = Session.new("trambahn", {}, seed=3)
    action = s.state.legal_actions(None)[0]
    other = 1 - action.player
    assert s.state.seats_for(action) == [action.player]
    assert s.state.legal_actions(other) == []
    before = s.state.view(None)
    refused("Course of Play", s.play, action, seat=other)
    assert s.state.view(None) == before
    s.play(action, seat=action.player)


@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6))
def test_course_of_play_property_listed_per_seat_is_accepted_per_seat(seed):
    state = Session.new("trambahn", {}, seed=seed).state
    assert isinstance(state, TrambahnState)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over() and steps < 400:
        listed = {seat: state.legal_actions(seat) for seat in (0, 1)}
        union = {a for acts in listed.values() for a in acts}
        for action in rng.sample(sorted(union, key=repr), min(3, len(union))):
            for seat in (0, 1):
                expected = action in listed[seat]
                trial = state.clone()
                try:
                    trial.apply(action, seat)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == expected
        actor = state.current_players()[0]
        state.apply(rng.choice(listed[actor]), actor)
        steps += 1


def test_cli_play_as_for_trambahn(tmp_path, capsys):
    path = tmp_path / "t.json"
    assert main(["new", "trambahn", "--seed", "7", "-o", str(path)]) == 0
    s = Session.new("trambahn", {}, seed=7)
    action = s.game.format_action(s.state.legal_actions(None)[0])
    other = 2 - s.state.current_players()[0]  # the other seat, 1-based
    capsys.readouterr()
    assert main(["play", str(path), action, "--as", str(other)]) == 2
    assert "illegal: Course of Play:" in capsys.readouterr().err
    assert main(["play", str(path), action]) == 0
