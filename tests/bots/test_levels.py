"""Difficulty levels (issue 26): easy / normal / strong for both games, by name."""

from __future__ import annotations

import random

import pytest

from tests.bots.g1840_games import bot_decisions
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
    ``benchmarks/strong_paired.py``, never asserted in a test: here its budget is generous, so
    the play-outs finish on a loaded machine too (one cut short counts for nothing)."""
    bot = make_bot("strong", G1840, budget=60.0, max_samples=2)
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


def test_r_cr_4_strong_keeps_no_cash_for_trams_once_none_are_sold():
    """After CR5 no Company Round sells trams (R-CR-4), so ``strong`` keeps no director's
    cash for the tram of a line without one: ``normal`` does, and passes in the last Share
    Round where a share would pay CR6's dividend and keep its price (XI). Before, the two
    count the same need."""
    from tramways.bots.g1840_economy import Economy1840
    from tramways.bots.g1840_strong import StrongPolicy1840

    kept_before = kept_after = 0
    for d in bot_decisions("normal", 2, 4):
        view, legal = d.view, d.legal
        if view.round_info.type == "SR" and len(legal) > 1:
            tastes = d.bot.tastes
            normal = Economy1840(view, legal, random.Random(0), tastes)
            strong = StrongPolicy1840(view, legal, random.Random(0), tastes)
            for cid in view.companies:
                if view.round == "SR5":
                    assert strong.tram_need(cid) == 0
                    kept_after += normal.tram_need(cid) > 0
                else:
                    assert strong.tram_need(cid) == normal.tram_need(cid)
                    kept_before += 1
    assert kept_before > 0 and kept_after > 0
