"""The games as PettingZoo ``ParallelEnv``: every agent submits an action at every step.

``parallel_env(game, max_cycles=None, illegal="raise", **settings)`` wraps one of this
package's AEC environments (``game`` as in :data:`tramways.envs.single_agent.GAMES`).  At
each step every live agent sends an action; the one of the agent to move is played, the
others' are ignored (their masks are all zeros: it is not their turn).  Rewards of a step
are the rewards the move earned; ``max_cycles`` truncates the game after that many steps
(one move each); ``illegal`` says what an action of the agent to move outside its mask does:
``"raise"`` (``IllegalAction``) or ``"ignore"``: nothing moves, the step still counts, and
``infos[agent]["illegal"]`` is set (for tools that send unmasked samples, as PettingZoo's
``max_cycles_test`` does).  ``pettingzoo.utils.parallel_to_aec`` turns it into an AEC
environment in which every agent is asked once per step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from tramways.envs.base import TramwaysEnv
from tramways.envs.single_agent import raw_env_for


class TurnParallelEnv(ParallelEnv):
    """A turn-based game of this package as a ParallelEnv (see the module docstring)."""

    def __init__(self, game: str = "trambahn", max_cycles: int | None = None,
                 illegal: str = "raise", render_mode: str | None = None,
                 **settings: Any) -> None:
        if illegal not in ("raise", "ignore"):
            raise ValueError(f"illegal must be 'raise' or 'ignore', not {illegal!r}")
        self.env: TramwaysEnv = raw_env_for(game, render_mode=render_mode, **settings)
        self.metadata = {**self.env.metadata, "is_parallelizable": True}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.illegal = illegal
        self.possible_agents = list(self.env.possible_agents)
        self.agents: list[str] = []
        self.cycles = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self.env.action_space(agent)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.env.observe(a) for a in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                     dict[str, bool], dict[str, bool],
                                                     dict[str, dict[str, Any]]]:
        env = self.env
        mover = env.agent_selection
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        rewards = dict.fromkeys(self.agents, 0.0)
        action = actions.get(mover)
        if action is not None and int(action) in env.legal_indices():
            env.step(int(action))
            for a in self.agents:
                rewards[a] = float(env.rewards[a])
        elif self.illegal == "raise" or action is None:
            env.step(-1 if action is None else int(action))  # raises IllegalAction
        else:
            infos[mover]["illegal"] = True
        self.cycles += 1
        cut = self.max_cycles is not None and self.cycles >= self.max_cycles
        terminations = {a: bool(env.terminations[a]) for a in self.agents}
        truncations = {a: bool(env.truncations[a]) or cut for a in self.agents}
        for a in self.agents:
            infos[a].update(env.infos[a])
        observations = self._observations()
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()


def parallel_env(game: str = "trambahn", max_cycles: int | None = None, illegal: str = "raise",
                 **settings: Any) -> TurnParallelEnv:
    """``game`` as a PettingZoo ParallelEnv (see the module docstring)."""
    return TurnParallelEnv(game, max_cycles=max_cycles, illegal=illegal, **settings)
