"""PettingZoo environments for AI research: both games as AEC environments with action masks.

``tramways.envs.trambahn_v0`` and ``tramways.envs.g1840_v0`` follow PettingZoo's classic
conventions (needs the ``[rl]`` extra: ``pip install -e '.[rl]'``)::

    from tramways.envs import trambahn_v0
    env = trambahn_v0.env(render_mode="ansi")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

* Agents are ``player_1`` ... ``player_N`` (seat 0 is ``player_1``); ``reset(seed=s)`` plays the
  same game as ``tramways new GAME --seed s``.
* Actions are ``Discrete(N)`` indices into a fixed action catalogue (see
  :mod:`tramways.envs.trambahn_catalogue` and :mod:`tramways.envs.g1840_catalogue`);
  ``env.unwrapped.catalogue.notation(i)`` names action ``i``.
* Observations are ``{"observation": float32 array, "action_mask": int8 array}``, built only
  from that agent's ``state.view(seat)``: Trambahn's hidden cards never reach an agent.
* Rewards come at the end only: places scored linearly from +1 (first) to -1 (last), players
  sharing a place share the mean of its values (two players: +1 win, 0 draw, -1 loss);
  ``infos`` then hold the raw result (Trambahn: scores and money; 1840: wealth and rank).

Version 1 of each (:mod:`tramways.envs.trambahn_v1`, :mod:`tramways.envs.g1840_v1`) is made
for learning; ``vs_bots(game, opponents=...)`` is a Gymnasium single-agent environment
against the project's bots and ``vector_vs_bots`` N of them at once
(:mod:`tramways.envs.single_agent`).
"""

from typing import Any

__all__ = ["vector_vs_bots", "vs_bots"]


def __getattr__(name: str) -> Any:
    """``vs_bots`` and ``vector_vs_bots`` (:mod:`tramways.envs.single_agent`), imported when
    first used."""
    if name in __all__:
        from tramways.envs import single_agent

        return getattr(single_agent, name)
    raise AttributeError(f"module 'tramways.envs' has no attribute {name!r}")
