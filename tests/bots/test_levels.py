"""Difficulty levels (issue 26): easy / normal / strong for both games, by name."""

from __future__ import annotations

import random

import pytest

from tramways.bots import make_bot
from tramways.bots.levels import LEVELS, Slipping
from tramways.bots.match import give_position, play_match
from tramways.core import Session
from tramways.core.actions import moves
from tramways.g1840.game import GAME as G1840
from tramways.trambahn.game import GAME as TRAMBAHN


@pytest.mark.parametrize("game", [G1840, TRAMBAHN], ids=["1840", "trambahn"])
def test_every_level_is_a_named_bot_of_both_games(game):
    for level in LEVELS:
        assert make_bot(level, game).name == level


def test_trambahn_easy_slips_only_to_an_action_of_the_same_kind():
    bot = make_bot("easy", TRAMBAHN)
    assert isinstance(bot, Slipping)
    bot.slip = 1.0  # every decision a slip, to see what a slip may be
    session = Session.new("trambahn", {}, 3)
    rng = random.Random(3)
    for _ in range(40):
        if session.state.is_over():
            break
        seat = session.state.current_players()[0]
        legal = session.state.legal_actions(seat)
        meant = bot.inner.choose(session.state.view(seat), legal, random.Random(0))
        played = bot.choose(session.state.view(seat), legal, rng)
        assert played in legal and type(played) is type(meant)
        session.play(played, seat=seat)


def test_trambahn_levels_play_whole_games():
    for bots in (["easy", "normal"], ["normal", "easy"]):
        session = play_match("trambahn", [make_bot(b, TRAMBAHN) for b in bots], 11)
        assert session.state.is_over()


def test_1840_strong_searches_the_cr5_tram_purchases():
    """The strong bot searches its CR5 tram purchases (play-outs to the end of the game) and
    plays `normal`'s choices elsewhere. Its decision time (goal: under 2 s) is a figure of
    ``benchmarks/bots.py --only levels``, never asserted in a test."""
    bot = make_bot("strong", G1840)
    session = Session.new("1840", {"players": 3}, 8)
    others = [make_bot("normal", G1840) for _ in range(3)]
    rng = random.Random(8)
    searched = 0
    while not session.state.is_over() and session.state.view(None).round != "LR5a":
        seat = session.state.current_players()[0]
        legal = moves(session.state.legal_actions(seat))
        view = session.state.view(seat)
        if seat == 0:
            give_position(bot, session.state, rng)
            action = bot.choose(view, legal, rng)
            searched += "samples" in bot.explanation
        else:
            action = others[seat].choose(view, legal, rng)
        session.play(action, seat=seat)
    assert searched >= 1
