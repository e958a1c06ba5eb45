"""Bots: one interface, a registry by name, legal choices from views only."""

from __future__ import annotations

import random

import pytest

from tests.bots.hidden_cards import hidden_swapped
from tramways.bots import Bot, bot_names, make_bot
from tramways.bots.match import play_match, win_rate
from tramways.bots.search import evaluate
from tramways.core import Session, TramwaysError
from tramways.trambahn.game import GAME
from tramways.trambahn.invariants import check_invariants


def _positions(n_games: int, seed: int):
    rng = random.Random(seed)
    for g in range(n_games):
        s = Session.new("trambahn", {}, seed=seed + g)
        while not s.state.is_over():
            if rng.random() < 0.1:
                yield s.state
            s.play(rng.choice(s.state.legal_actions()))


def test_registry_names_and_unknown_bot():
    # issue 26: the difficulty levels easy / normal / strong beside the bots they are made of
    assert bot_names("trambahn") == ["easy", "normal", "random", "rule", "search", "strong"]
    assert bot_names("1840") == ["easy", "normal", "random", "rule", "search", "strong"]
    for name in bot_names("trambahn"):
        bot = make_bot(name, GAME)
        assert isinstance(bot, Bot) and bot.name == name
    with pytest.raises(TramwaysError, match="no bot 'genius'"):
        make_bot("genius", GAME)


@pytest.mark.parametrize("name", ["random", "rule", "search"])
def test_bots_choose_a_legal_action_from_the_view(name):
    bot = make_bot(name, GAME, **({"determinizations": 2, "seconds": 60, "flat": True} if name == "search" else {}))
    rng = random.Random(3)
    for state in _positions(3, 10):
        legal = state.legal_actions()
        assert bot.choose(state.view(state.turn), legal, rng) in legal


PEEK_OPTIONS = {
    "rule": {},
    "search": {"determinizations": 3, "seconds": 60, "flat": True},
    "search-race": {"race": {"samples": 2, "top": 3, "start": 0}},
    "search-all": {"determinizations": 3, "seconds": 60, "searched": ("all",), "flat": True},
}


@pytest.mark.parametrize("name", list(PEEK_OPTIONS))
def test_bots_cannot_peek_hidden_cards(name):
    """Changing only hidden cards (the other hand vs the draw pile) changes no choice."""
    bot = make_bot(name.split("-")[0], GAME, **PEEK_OPTIONS[name])
    for state in _positions(2, 20):
        other = hidden_swapped(state)
        legal = state.legal_actions()
        a = bot.choose(state.view(state.turn), legal, random.Random(5))
        b = bot.choose(other.view(other.turn), other.legal_actions(), random.Random(5))
        assert a == b


def test_rule_bot_beats_random_bot():
    stats = win_rate("trambahn", make_bot("rule", GAME), make_bot("random", GAME), 20, seed=1)
    assert stats["games"] == 20 and stats["wins"] >= 18


def test_search_bot_finishes_a_game_with_a_small_budget():
    bots = [make_bot("search", GAME, determinizations=2, seconds=60, flat=True), make_bot("rule", GAME)]
    session = play_match("trambahn", bots, seed=8)
    assert session.state.is_over()
    again = Session.from_record(session.record)
    assert again.state == session.state


def test_search_evaluation_of_a_finished_game_is_the_outcome():
    session = play_match("trambahn", [make_bot("rule", GAME), make_bot("random", GAME)], 3)
    state = session.state
    diff = state.scores[0] - state.scores[1]
    assert evaluate(state, 0) == diff + (1000 if diff > 0 else -1000 if diff < 0 else 0)
    assert evaluate(state, 1) == -evaluate(state, 0)


def test_search_memory_remembers_discards_and_own_money():
    """T-R-2 scorings discard a row; what the bot saw go is in every sample's discard pile,
    and its own income cards are in its money pile (it put them there)."""
    from collections import Counter

    from tramways.bots.search import Memory
    from tramways.trambahn.cards import CARD_FACE

    rule = make_bot("rule", GAME)
    s = Session.new("trambahn", {}, seed=11)
    memory = Memory()
    rng = random.Random(4)
    checked = 0
    while not s.state.is_over() and s.state.reshuffles == 0:
        state = s.state
        if state.turn == 0:
            view = state.view(0)
            memory.observe(view)
            real = Counter(CARD_FACE[c] for c in state.discard)
            assert not memory.discard - real  # everything remembered is really there
            sample = memory.sample(GAME.determinize(view, rng), 0)
            assert sample.view(0) == view
            assert not memory.discard - Counter(CARD_FACE[c] for c in sample.discard)
            known = Counter(memory.money)
            assert not known - Counter(CARD_FACE[c] for c in sample.money[0])
            assert not known - Counter(CARD_FACE[c] for c in state.money[0])
            checked += bool(memory.discard) and bool(memory.money)
        legal = state.legal_actions()
        action = rule.choose(state.view(state.turn), legal, rng)
        if state.turn == 0:
            memory.played(state.view(0), action)
        s.play(action)
    assert checked > 5


def test_search_memory_starts_afresh_for_another_game():
    from tramways.bots.search import Memory

    memory = Memory()
    a = Session.new("trambahn", {}, seed=1)
    b = Session.new("trambahn", {}, seed=2)
    rule = make_bot("rule", GAME)
    rng = random.Random(1)
    while len(a.state.history) < 2:
        a.play(rule.choose(a.state.view(a.state.turn), a.state.legal_actions(), rng))
        if a.state.turn == 0:
            memory.observe(a.state.view(0))
    memory.money.append("7r")
    memory.observe(b.state.view(0))  # a fresh game: nothing seen there yet
    assert not memory.discard and not memory.money


def test_search_bot_is_deterministic_under_a_seed():
    """Two bots with the same options and the same rng seed choose the same actions (the
    sample count is fixed by ``determinizations`` when the time budget is generous)."""
    options = {"determinizations": 2, "seconds": 60, "searched": ("all",), "flat": True}
    a, b = make_bot("search", GAME, **options), make_bot("search", GAME, **options)
    for state in _positions(2, 40):
        legal = state.legal_actions()
        view = state.view(state.turn)
        assert a.choose(view, legal, random.Random(9)) == b.choose(view, legal, random.Random(9))



def test_t_r_2_next_scoring_is_the_movers_best_immediate_scoring():
    """The player to move places passengers first: a row at 3 and one card of its colour
    score it at once (``next_scoring``); at the last scoring only a winning end counts."""
    from tramways.bots.search import leaf_value, next_scoring
    from tramways.trambahn.cards import IDS_BY_FACE
    from tramways.trambahn.position import Column

    state = Session.new("trambahn", {}, seed=4).state
    red = [c for c in IDS_BY_FACE["2r"] + IDS_BY_FACE["5r"] + IDS_BY_FACE["8r"]]
    state.columns = [[Column(1, red[:1] + red[3:4] + red[6:7], tram="horse")], []]
    rows = [c for c in IDS_BY_FACE["1r"] + IDS_BY_FACE["3r"]][:3]
    card = IDS_BY_FACE["9r"][0]
    for pile in (state.deck, state.hands[0], state.hands[1], state.money[0], state.money[1]):
        for c in [*red[:1], *red[3:4], *red[6:7], *rows, card]:
            if c in pile:
                pile.remove(c)
    state.rows = [[], rows, [], []]
    state.deck.extend(state.hands[0][5:])
    state.hands[0] = [card, *state.hands[0][:5]]
    state.stack.remove("horse")  # the column's tram
    state.turn, state.passengers, state.step = 0, 0, 1
    check_invariants(state)
    assert next_scoring(state) == (1, 8)  # 1+1+2 points x 2 (horse), the other has none
    assert leaf_value(state, 0) > leaf_value(state, 0, threat=0.0)
    assert leaf_value(state, 1) < leaf_value(state, 1, threat=0.0)
    state.regular, state.scores = 9, [0, 20]  # 0 + 8 against 20: it would end the game behind
    assert next_scoring(state) is None
