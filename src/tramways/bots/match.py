"""Bots against each other: one game, or a series with alternating seats."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import Bot
from tramways.core import Session, derive_rng


def play_match(
    game_name: str, bots: Sequence[Bot], seed: int, settings: dict[str, Any] | None = None
) -> Session:
    """Play one whole game, seat ``i`` played by ``bots[i]``; return the finished session.

    Each bot only receives its player's view and the legal actions; its randomness comes from
    ``derive_rng(seed, "bot", seat)``.
    """
    session = Session.new(game_name, settings or {}, seed)
    rngs = [derive_rng(seed, "bot", i) for i in range(len(bots))]
    state = session.state
    while not state.is_over():
        player = state.current_players()[0]
        legal = state.legal_actions(player)
        action = bots[player].choose(state.view(player), legal, rngs[player])
        session.play(action)
        state = session.state
    return session


def win_rate(game_name: str, bot: Bot, other: Bot, games: int, seed: int) -> dict[str, Any]:
    """``bot`` against ``other`` over ``games`` games, alternating seats; draws count half."""
    master = random.Random(seed)
    wins = draws = 0
    margin = 0
    for g in range(games):
        s = master.randrange(2**53)
        seat = g % 2
        bots = [bot, other] if seat == 0 else [other, bot]
        result = play_match(game_name, bots, s).state.result()
        w = result["winner"]
        wins += w == seat
        draws += w is None
        margin += result["scores"][seat] - result["scores"][1 - seat]
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": (wins + draws / 2) / games if games else 0.0,
        "mean_margin": margin / games if games else 0.0,
    }
