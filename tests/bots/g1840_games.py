"""Games of bots for the 1840 bot tests: every position of a rule bots' game, kept once per
process; every decision of a game of one level."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from tramways.bots import make_bot
from tramways.bots.base import Bot
from tramways.core import Action, Session
from tramways.core.actions import moves
from tramways.g1840.game import GAME
from tramways.g1840.view_types import View1840


@functools.cache
def rule_game_positions(players: int, seed: int, rng_seed: int, track_weight: float = 0.0
                        ) -> list:
    """Every position (before each action) of one game of ``players`` rule bots from ``seed``,
    the bots drawing from ``random.Random(rng_seed)`` (``track_weight``: as ``RuleBot1840``'s)."""
    bots = [make_bot("rule", GAME, track_weight=track_weight) for _ in range(players)]
    s = Session.new("1840", {"players": players}, seed)
    rng = random.Random(rng_seed)
    out = []
    while not s.state.is_over():
        state = s.state
        p = state.current_players()[0]
        out.append(state.clone())
        s.play(bots[p].choose(state.view(p), state.legal_actions(p), rng), seat=p)
    return out


@dataclass(frozen=True)
class Decision:
    """One decision of :func:`bot_decisions`: the seat, its view and legal actions, the
    action its bot chose and the bot (its ``explanation`` is this decision's)."""

    seat: int
    view: View1840
    legal: list[Action]
    action: Action
    bot: Bot


def bot_decisions(level: str, players: int, seed: int, until: str | None = None
                  ) -> Iterator[Decision]:
    """Every decision of one game of ``players`` bots of ``level`` from ``seed`` (the bot of
    seat ``i`` drawing from ``random.Random(seed + i)``), each yielded after its bot chose and
    played once the caller has looked at it; up to the round named ``until`` if given."""
    session = Session.new("1840", {"players": players}, seed)
    bots = [make_bot(level, GAME) for _ in range(players)]
    rngs = [random.Random(seed + i) for i in range(players)]
    while not session.state.is_over() and (
            until is None or session.state.view(None).round != until):
        seat = session.state.current_players()[0]
        legal = moves(session.state.legal_actions(seat))
        view = session.state.view(seat)
        action = bots[seat].choose(view, legal, rngs[seat])
        yield Decision(seat, view, legal, action, bots[seat])
        session.play(action, seat=seat)
