"""The other player's habit of filling a row at 3 that favours it
(:mod:`tramways.bots.trambahn_habit`), and the race search that weighs its danger by it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.bots.hidden_cards import hidden_swapped
from tramways.bots import make_bot
from tramways.bots.base import Bot
from tramways.bots.trambahn_habit import PRIOR, STRENGTH, FillRate
from tramways.bots.trambahn_race import RaceBot
from tramways.bots.trambahn_whole_turn import WholeTurnBot
from tramways.core import Session
from tramways.trambahn.game import GAME

ROOT = Path(__file__).resolve().parents[2]


def _rate_after_a_game(seed: int, other: Bot) -> FillRate:
    """The fill rate the race search (seat ``seed % 2``, unchecked turns) read in one game."""
    state = Session.new("trambahn", {}, seed=seed).state
    me = seed % 2
    bot = RaceBot(GAME, habit=1.7, start=99)
    rng = random.Random(seed)
    while not state.is_over():
        chooser = bot if state.turn == me else other
        state.apply(chooser.choose(state.view(state.turn), state.legal_actions(), rng))
    assert bot.habit is not None
    return bot.habit


def test_t_r_2_before_any_row_at_3_the_rate_is_the_prior():
    assert FillRate().rate() == PRIOR
    rate = FillRate()
    rate.expected, rate.filled = 3.0, 3
    assert rate.rate() == (3 + PRIOR * STRENGTH) / (3 + STRENGTH)


def test_t_r_2_the_rule_bot_fills_the_rows_at_3_the_yardstick_leaves_open():
    """The rule bot places any fitting card on a row at 3 whose scoring favours it; the
    yardstick often keeps its cards for its columns (seeds 2 and 4 of the test: it filled 2
    of 6.2 and 2 of 4.4 expected, the rule bot 2 of 1.8 and 4 of 5.8)."""
    rates = {}
    for name, seed, filled, expected in (("yardstick", 2, 2, 6.157), ("yardstick", 4, 2, 4.355),
                                         ("rule", 2, 2, 1.778), ("rule", 4, 4, 5.797)):
        other = WholeTurnBot(GAME) if name == "yardstick" else make_bot("rule", GAME)
        rate = _rate_after_a_game(seed, other)
        assert (rate.filled, round(rate.expected, 3)) == (filled, expected)
        rates[name, seed] = round(rate.rate(), 3)
    assert rates == {("yardstick", 2): 0.356, ("yardstick", 4): 0.456,
                     ("rule", 2): 0.768, ("rule", 4): 0.628}


def test_the_habit_is_read_from_its_view_alone_not_the_hidden_cards():
    """A twin fed the same game with the other hand and the draw pile swapped at every one of
    its decisions makes the same choices and reads the same rate."""
    state = Session.new("trambahn", {}, seed=5).state
    bot, twin = RaceBot(GAME, habit=1.7, start=99), RaceBot(GAME, habit=1.7, start=99)
    rule = make_bot("rule", GAME)
    rng = random.Random(5)
    while not state.is_over():
        if state.turn == 1:
            state.apply(rule.choose(state.view(1), state.legal_actions(), rng))
            continue
        other = hidden_swapped(state)
        action = bot.choose(state.view(0), state.legal_actions(), random.Random(8))
        assert twin.choose(other.view(0), other.legal_actions(), random.Random(8)) == action
        state.apply(action)
    assert bot.habit is not None and twin.habit is not None
    assert bot.habit.rate() == twin.habit.rate()
    assert (bot.habit.filled, round(bot.habit.expected, 3)) == (2, 1.788)


def test_t_r_2_the_habit_benchmark_counts_the_rows_the_rule_bot_could_fill():
    """Two games against ``rule`` on seed 1001: 5 rows at 3 it could fill, all 5 filled, 1
    it could not."""
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/trambahn_habit.py"),
                          "--games", "2", "--opponent", "rule", "--seed", "1001"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    line = json.loads(out)
    assert (line["could_fill"], line["filled"], line["could_not"]) == (5, 5, 1)
