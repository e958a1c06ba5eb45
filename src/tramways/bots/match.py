"""Bots against each other: one game, or a series with alternating seats."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from tramways.bots.base import Bot
from tramways.core import Action, GameState, Session, derive_rng
from tramways.core.actions import moves


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
        legal = moves(state.legal_actions(player))
        give_position(bots[player], state, rngs[player])
        action = bots[player].choose(state.view(player), legal, rngs[player])
        session.play(action, seat=player)
        state = session.state
    return session


def win_rate(game_name: str, bot: Bot, other: Bot, games: int, seed: int) -> dict[str, Any]:
    """``bot`` against ``other`` over ``games`` two-player games, alternating seats; a shared
    first place (a draw) counts half; the margin is in the game's ranking score."""
    master = random.Random(seed)
    wins = draws = 0
    margin = 0
    for g in range(games):
        s = master.randrange(2**53)
        seat = g % 2
        bots = [bot, other] if seat == 0 else [other, bot]
        outcome = play_match(game_name, bots, s).state.outcome()
        wins += outcome.winners == (seat,)
        draws += len(outcome.winners) > 1
        margin += outcome.scores[seat] - outcome.scores[1 - seat]
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": (wins + draws / 2) / games if games else 0.0,
        "mean_margin": margin / games if games else 0.0,
    }


def give_position(bot: Bot, state: GameState, rng: random.Random) -> None:
    """Hand a copy of the position to a bot that searches it (``see_position``), before its
    ``choose``.  Only for games where the position holds nothing hidden from that player
    beyond what the bot re-samples itself (1840: the line deck's order)."""
    bot.see_position(state.clone(), rng)


def explanation(bot: Bot) -> str:
    """The one-line reason of the bot's last decision (``""`` for a bot that gives none)."""
    return bot.explanation


def bot_policy(
    game: Any, bots: Sequence[Bot], seed: int, explain: Callable[[str], None] | None = None
) -> Callable[[GameState, int, random.Random], Action]:
    """A self-play policy where seat ``i`` is played by ``bots[i]`` from its view only; with
    ``explain``, each decision is reported in one line ("P2 rule: L7 lay F22 57 r1 -- ...")."""
    rngs = [derive_rng(seed, "bot", i) for i in range(len(bots))]

    def policy(state: GameState, player: int, rng: random.Random) -> Action:
        bot = bots[player]
        give_position(bot, state, rngs[player])
        action = bot.choose(state.view(player), state.legal_actions(player), rngs[player])
        if explain is not None:
            why = explanation(bot)
            text = game.format_action(action)
            explain(f"P{player + 1} {bot.name}: {text}" + (f" -- {why}" if why else ""))
        return action

    return policy
