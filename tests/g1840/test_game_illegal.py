"""Every refusal raises IllegalAction naming a rule and leaves the state exactly as it was;
every listed action is accepted."""

from __future__ import annotations

import dataclasses
import random

from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Pass, Run
from tramways.g1840.game import GAME
from tramways.g1840.policy import policy

from .test_game_support import make


def _variants(action, rng: random.Random):
    """Nearby actions: other amounts, other seats, other verbs."""
    fields = {f.name for f in dataclasses.fields(action)}
    for name in ("amount", "price", "count", "rotation", "location", "card"):
        if name in fields:
            value = getattr(action, name)
            if value is None:  # an optional figure (a sale's recorded price, X-19)
                yield dataclasses.replace(action, **{name: 1})
                continue
            for delta in (1, 3, -5, 1000):
                yield dataclasses.replace(action, **{name: value + delta})
    if "player" in fields:
        yield dataclasses.replace(action, player=(action.player + 1) % 7)
    yield Pass(rng.randrange(6))


def test_refusals_leave_the_state_untouched() -> None:
    for players, seed in ((2, 21), (5, 22)):  # about 150 positions each
        s = make(players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_over() and steps < 150:
            legal = s.legal_actions()
            listed = set(legal)
            before = s.view(None)
            for action in rng.sample(legal, min(3, len(legal))):
                for variant in _variants(action, rng):
                    if variant in listed or isinstance(variant, Run):
                        continue
                    try:
                        s.clone().apply(variant)
                    except IllegalAction as exc:
                        assert exc.rule, GAME.format_action(variant)
                        try:
                            s.apply(variant)
                        except IllegalAction:
                            pass
                        assert s.view(None) == before, GAME.format_action(variant)
                    # a variant accepted by a clone was legal but not listed: a bug
                    else:
                        raise AssertionError(f"unlisted legal action {variant}")
            s.apply(policy(s, s.current_players()[0], rng))
            steps += 1
