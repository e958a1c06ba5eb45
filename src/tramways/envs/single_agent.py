"""One learner against the project's bots: a Gymnasium single-agent environment.

``vs_bots(game, opponents="rule", seat=None, **settings)`` seats the learner at one seat of a
PettingZoo environment of this package and lets bots of :mod:`tramways.bots` (``make_bot``)
play every other seat; from the learner's side it is an ordinary ``gymnasium.Env``::

    from tramways.envs import vs_bots
    env = vs_bots("trambahn", opponents="rule")
    obs, info = env.reset(seed=7)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* ``game``: ``"trambahn"`` (:mod:`trambahn_v1`), ``"trambahn_v0"``, ``"1840"``
  (:mod:`g1840_v1`) or ``"g1840_v0"``; ``settings`` go to its ``raw_env`` (``players=4``,
  ``score_reward=0.01``, ...).
* ``opponents``: a bot name (every other seat), or one name or :class:`~tramways.bots.Bot`
  per other seat in seat order.
* ``seat``: the learner's seat (0-based); ``None`` draws it anew at every reset.
* ``illegal``: what an action outside the mask does: ``"raise"`` (``IllegalAction``, the
  default) or ``"end"``: the game stops there, ``terminated`` with reward ``-1`` (the worst
  place) and ``info["illegal"]``; for tools that step unmasked samples (Gymnasium's env
  checker).
* Observations and actions are the PettingZoo environment's: ``{"observation",
  "action_mask"}`` and ``Discrete(N)``.  The reward of a step is the sum of the learner's
  rewards from its action up to its next turn (the bots' moves in between included);
  ``info`` holds ``seat`` and, at the end, the environment's final ``infos`` (``rank``,
  scores).
* Seeding: ``reset(seed=s)`` deals the game ``tramways new GAME --seed s`` deals, and
  seeds the seat draw and the bots' random choices from ``s``; without a seed both continue
  from the last one.

``vector_vs_bots(game, num_envs, ..., asynchronous=False)`` is ``num_envs`` of them as a
Gymnasium ``SyncVectorEnv`` (or ``AsyncVectorEnv``: one process each); a finished game is
reset on the next step (Gymnasium's default autoreset), ``reset(seed=s)`` seeds game ``i``
with ``s + i``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from tramways.bots import Bot, make_bot
from tramways.envs.base import TramwaysEnv

GAMES = {
    "trambahn": "tramways.envs.trambahn_v1",
    "trambahn_v1": "tramways.envs.trambahn_v1",
    "trambahn_v0": "tramways.envs.trambahn_v0",
    "1840": "tramways.envs.g1840_v1",
    "g1840_v1": "tramways.envs.g1840_v1",
    "g1840_v0": "tramways.envs.g1840_v0",
}
"""Accepted ``game`` names -> the environment module."""


def raw_env_for(game: str, **settings: Any) -> TramwaysEnv:
    """The unwrapped PettingZoo environment ``game`` names (see :data:`GAMES`)."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (one of {', '.join(GAMES)})")
    env: TramwaysEnv = importlib.import_module(GAMES[game]).raw_env(**settings)
    return env


class VsBotsEnv(gym.Env):
    """The learner's side of a game against bots (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(self, game: str = "trambahn", opponents: str | Bot | Sequence[str | Bot] = "rule",
                 seat: int | None = None, render_mode: str | None = None,
                 illegal: str = "raise", **settings: Any) -> None:
        if illegal not in ("raise", "end"):
            raise ValueError(f"illegal must be 'raise' or 'end', not {illegal!r}")
        self.illegal = illegal
        self.env = raw_env_for(game, render_mode=render_mode, **settings)
        self.render_mode = render_mode
        n = len(self.env.possible_agents)
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, not {seat}")
        others = [opponents] * (n - 1) if isinstance(opponents, str | Bot) else list(opponents)
        if len(others) != n - 1:
            raise ValueError(f"{game}: {n - 1} opponents needed, got {len(others)}")
        self.bots: list[Bot] = [make_bot(b, self.env.game) if isinstance(b, str) else b
                                for b in others]
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        agent = self.env.possible_agents[0]
        self.observation_space = self.env.observation_space(agent)
        self.action_space = self.env.action_space(agent)
        self._rng = random.Random()
        self._bot_rng = random.Random()

    @property
    def agent(self) -> str:
        return self.env.possible_agents[self.seat]

    def _bot_for(self, agent: str) -> Bot:
        seat = self.env.possible_agents.index(agent)
        return self.bots[seat if seat < self.seat else seat - 1]

    def _bots_play(self) -> float:
        """Bots move until it is the learner's turn or the game is over; the learner's
        rewards meanwhile."""
        env, me = self.env, self.agent
        reward = 0.0
        while not (env.terminations[me] or env.truncations[me]) and env.agent_selection != me:
            agent = env.agent_selection
            legal = env.legal_engine_actions()
            env.step_engine(self._bot_for(agent).choose(env.view(agent), legal, self._bot_rng))
            reward += env.rewards[me]
        return reward

    def _observe(self) -> dict[str, np.ndarray]:
        obs: dict[str, np.ndarray] = self.env.observe(self.agent)
        return obs

    def _info(self) -> dict[str, Any]:
        info = dict(self.env.infos[self.agent])
        info["seat"] = self.seat
        return info

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        game_seed = self._rng.randrange(2**53) if seed is None else seed
        self.seat = (self._rng.randrange(len(self.env.possible_agents))
                     if self.fixed_seat is None else self.fixed_seat)
        self._bot_rng = random.Random(self._rng.randrange(2**53))
        self.env.reset(seed=game_seed)
        self._bots_play()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        env, me = self.env, self.agent
        if self.illegal == "end" and int(action) not in env.legal_indices():
            info = self._info()
            info["illegal"] = True
            return self._observe(), -1.0, True, False, info
        env.step(int(action))
        reward = env.rewards[me] + self._bots_play()
        return (self._observe(), float(reward), bool(env.terminations[me]),
                bool(env.truncations[me]), self._info())

    def action_masks(self) -> np.ndarray:
        """The learner's mask (for libraries that ask the environment for it)."""
        mask: np.ndarray = self.env.action_mask(self.agent)
        return mask

    def render(self) -> Any:
        return self.env.render()


def vs_bots(game: str = "trambahn", opponents: str | Bot | Sequence[str | Bot] = "rule",
            seat: int | None = None, illegal: str = "raise", **settings: Any) -> VsBotsEnv:
    """A Gymnasium environment: the learner against bots (see the module docstring)."""
    return VsBotsEnv(game, opponents, seat, illegal=illegal, **settings)


def vector_vs_bots(game: str = "trambahn", num_envs: int = 4,
                   opponents: str | Sequence[str] = "rule", seat: int | None = None,
                   asynchronous: bool = False, illegal: str = "raise",
                   **settings: Any) -> gym.vector.VectorEnv:
    """``num_envs`` games against bots as one Gymnasium vector environment."""
    def make() -> VsBotsEnv:
        return VsBotsEnv(game, opponents, seat, illegal=illegal, **settings)

    fns = [make] * num_envs
    if asynchronous:
        return gym.vector.AsyncVectorEnv(fns)
    return gym.vector.SyncVectorEnv(fns)
