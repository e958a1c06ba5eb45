"""Whole games played by a policy (uniformly random by default), for testing and research.

A game may offer ``selfplay_policy(state, player, rng) -> Action`` when uniformly random play
cannot finish (e.g. it bids forever); otherwise every move is ``rng.choice(legal_actions)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from tramways.core.actions import Action
from tramways.core.errors import TramwaysError
from tramways.core.game import JSON, GameState, Outcome
from tramways.core.replay import Session

Policy = Callable[[GameState, int, random.Random], Action]
Check = Callable[[GameState], None]


def uniform_policy(state: GameState, player: int, rng: random.Random) -> Action:
    actions = state.legal_actions(player)
    if not actions:
        raise TramwaysError(f"player {player} is to act but has no legal action")
    return rng.choice(actions)


class SelfplaySummary(TypedDict):
    """One self-played game as ``tramways selfplay --json`` prints it: the game, its seed and
    settings (record data), whether it finished, and its number of actions and result (or the
    error that stopped it)."""

    game: str
    seed: int
    settings: dict[str, Any]
    finished: bool
    actions: NotRequired[int]
    result: NotRequired[JSON]
    error: NotRequired[str]


@dataclass
class SelfplayResult:
    """One self-played game: its seed, whether it finished, its number of actions, its final
    result (``outcome``, typed; ``result``, its JSON as the summary prints it; both ``None``
    when the game did not finish) and the session that played it."""

    seed: int
    finished: bool
    actions: int
    outcome: Outcome | None
    result: JSON
    session: Session

    def summary(self) -> SelfplaySummary:
        return {
            "game": self.session.game.name,
            "seed": self.seed,
            "settings": self.session.record.settings,
            "finished": self.finished,
            "actions": self.actions,
            "result": self.result,
        }


def play_game(
    game_name: str,
    settings: dict[str, Any],
    seed: int,
    policy: Policy | None = None,
    max_actions: int = 100_000,
    check: Check | None = None,
) -> SelfplayResult:
    """Play one game from ``seed``; ``check`` is called after every action (invariants)."""
    session = Session.new(game_name, settings, seed)
    game = session.game
    if policy is None:
        policy = game.selfplay_policy
    rng = random.Random(seed)
    state = session.state
    count = 0
    while not state.is_over() and count < max_actions:
        players = state.current_players()
        if not players:
            raise TramwaysError("the game is not over but nobody may act")
        action = policy(state, players[0], rng)
        state.apply(action)
        session.record.actions.append(game.format_action(action))
        count += 1
        if check is not None:
            check(state)
    outcome = state.outcome() if state.is_over() else None
    return SelfplayResult(
        seed=seed,
        finished=outcome is not None,
        actions=count,
        outcome=outcome,
        result=outcome.to_json() if outcome is not None else None,
        session=session,
    )
