"""Hidden information: a view holds the player's own hand, the table, and pile sizes only."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from tramways.core import Session
from tramways.trambahn.cards import CARD_FACE
from tramways.trambahn.determinize import determinize
from tramways.trambahn.invariants import check_invariants
from tramways.trambahn.views import build_view


def tag(card: int) -> str:
    return f"<card{card}>"


def visible_ids(state, player):
    ids = set()
    if player is not None:
        ids |= set(state.hands[player])
    for row in state.rows:
        ids |= set(row)
    for cols in state.columns:
        for col in cols:
            ids |= set(col.stations) | set(col.conductors)
    return ids


def _random_positions(games: int, seed: int):
    rng = random.Random(seed)
    for g in range(games):
        s = Session.new("trambahn", {}, seed=seed * 1000 + g)
        while not s.state.is_over():
            if rng.random() < 0.15:
                yield s.state
            s.play(rng.choice(s.state.legal_actions()))
        yield s.state


def test_views_leak_no_hidden_card():
    """With every card tagged by its unique id, no hidden card's tag appears in a view."""
    checked = 0
    for state in _random_positions(12, 1):
        for player in (0, 1, None):
            text = json.dumps(build_view(state, player, label=tag).to_json())
            shown = {int(m) for m in re.findall(r"<card(\d+)>", text)}
            assert shown == visible_ids(state, player)
            checked += 1
    assert checked > 100


def test_views_show_no_money_faces_and_not_the_other_hand():
    for state in _random_positions(6, 2):
        for player in (0, 1):
            view = state.view(player).to_json()
            assert view["hand"] == sorted(view["hand"], key=lambda f: ("brgyC".index(f[-1]),
                                          int(f[:-1]) if f != "C" else 0))
            assert Counter(view["hand"]) == Counter(CARD_FACE[c] for c in state.hands[player])
            assert view["money_sizes"] == [len(m) for m in state.money]
            assert view["hand_sizes"] == [len(h) for h in state.hands]
            assert view["deck_size"] == len(state.deck)
            assert view["discard_size"] == len(state.discard)
            assert set(view) >= {"rows", "columns", "display", "stack", "scores"}
            assert not any(k in view for k in ("deck", "money", "hands", "discard", "seed"))
        spectator = state.view(None)
        assert spectator.hand is None


def test_determinize_is_consistent_with_the_view_and_never_the_truth_by_construction():
    rng = random.Random(5)
    for state in _random_positions(5, 3):
        if state.is_over():
            continue
        player = state.turn
        view = state.view(player)
        sample = determinize(view, rng)
        assert sample.view(player) == view
        assert sorted(sample.hands[player]) != [] or not state.hands[player]
        assert sample.seed != state.seed
        check_invariants(sample)
        # the sample is playable: every legal action of the real state is legal there
        assert set(state.legal_actions()) == set(sample.legal_actions())
