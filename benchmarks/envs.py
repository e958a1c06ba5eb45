"""PettingZoo environments benchmark: steps per second and the cost of an observation.

    .venv/bin/python benchmarks/envs.py            # about a minute
    .venv/bin/python benchmarks/envs.py --quick    # a smoke run (seconds)

Prints one JSON object with, per game (Trambahn; 1840 with 4 players), on one core:

* ``steps_per_s``: ``raw_env.step`` with uniformly random masked actions (chosen among
  ``legal_indices()``, the mask's ones), over whole games (goals: Trambahn >= 20,000, 1840 >=
  20,000 by issue 27 item 5, and >= 8,000 with the observation); ``games``, ``games_cut`` (see :data:`MAX_STEPS`), ``engine_errors`` (games
  lost to an engine exception), ``mean_game_length``; these are the game's first steps in the
  process, so they include the tables a process builds once;
* ``steps_per_s_warm``: the same games stepped again after as many steps of other games
  (:func:`warm_up`): the rate of a long run, such as training (the loops below run warm too);
* ``steps_per_s_with_observe``: the usual PettingZoo loop through ``env()``: ``last()``
  builds the observation, ``action_space.sample(mask)`` picks the action;
* ``engine_steps_per_s``: the engine alone, same random play (``legal_actions`` + ``apply``),
  the ceiling for the environment;
* ``observe_us`` = ``view_us`` (the engine's ``view(seat)``) + ``encode_us`` (the array),
  the mean over positions of the random games; ``env_observe_us``: the environment's own
  ``observe(agent)`` there (the array and the mask; 1840 reads the array from the position,
  :mod:`tramways.envs.g1840_fast`; each is timed five times in place, and 1840's later four
  reuse the position's tables, so a loop's single observation costs more than this mean);
* ``profile``: the functions with the largest share of ``raw_env`` stepping time (cumulative);
* ``1840_v1``: the factored 1840 environment (a step is one choice, about 1.8 per engine
  action): ``steps_per_s``, ``steps_per_s_with_observe`` and ``env_observe_us``.

Times are the process's CPU time (``time.process_time``), so other work on a shared machine
slows the figures less than wall-clock time would.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

warnings.simplefilter("ignore")  # gymnasium's notes on sampling masked spaces

from tramways.envs import g1840_v0, g1840_v1, trambahn_v0  # noqa: E402

GAMES: dict[str, tuple[Any, dict[str, Any]]] = {
    "trambahn": (trambahn_v0, {}),
    "1840": (g1840_v0, {"players": 4}),
}

FACTORED: dict[str, tuple[Any, dict[str, Any]]] = {"1840_v1": (g1840_v1, {"players": 4})}
"""The factored 1840 environment: a step is one choice (type, then each argument), about 1.8
per engine action; its engine and profile are v0's."""


MAX_STEPS = 2000
"""Games are cut at 2,000 actions: uniformly random 1840 play sometimes passes forever in the
Pre-Share Round (cheap steps that would flatter the figures), so only games that end by the
rules count towards the step rates; cut games are reported."""

ERRORS = (IndexError, KeyError, AssertionError)


WARM_SEED = 10_000
"""The warm-up games of ``steps_per_s_warm`` are dealt from ``seed + WARM_SEED``: other games
than the counted ones, so that no table keyed by a position is filled for the counted games."""


def warm_up(module: Any, settings: dict[str, Any], steps: int, seed: int) -> None:
    """``steps`` random steps of other games (seed ``seed + WARM_SEED``), not counted: the
    tables a process builds once (tile-pair maps, upgrade turns, the catalogue's seen actions)
    are then built, as they are in a training run of millions of steps."""
    raw_steps(module, settings, steps, seed + WARM_SEED)


def raw_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> dict[str, Any]:
    env = module.raw_env(max_steps=MAX_STEPS, **settings)
    env.reset(seed=seed)
    rng = random.Random(seed)
    counted = cut = errors = finished = 0
    elapsed = 0.0
    while counted < steps:
        n = 0
        start = time.process_time()
        try:
            while True:
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    break
                legal = env.legal_indices()
                env.step(legal[rng.randrange(len(legal))])
                n += 1
        except ERRORS:  # an engine crash: reported, the game left out
            errors += 1
            env.reset()
            continue
        spent = time.process_time() - start
        if env.terminations[env.agent_selection]:
            counted += n
            elapsed += spent
            finished += 1
        else:
            cut += 1
        env.reset()
    return {"steps_per_s": round(counted / elapsed), "games": finished, "games_cut": cut,
            "engine_errors": errors, "mean_game_length": round(counted / max(1, finished))}


def wrapped_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> float:
    """The PettingZoo loop: ``last()`` (with the observation) and ``sample(mask)``."""
    env = module.env(max_steps=MAX_STEPS, **settings)
    env.reset(seed=seed)
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + k)
    counted = 0
    elapsed = 0.0
    while counted < steps:
        n = 0
        start = time.process_time()
        try:
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    break
                env.step(env.action_space(agent).sample(obs["action_mask"]))
                n += 1
        except ERRORS:
            env.reset()
            continue
        spent = time.process_time() - start
        if env.unwrapped.terminations[env.unwrapped.agent_selection]:
            counted += n
            elapsed += spent
        env.reset()
    return counted / elapsed


def engine_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> float:
    """The engine alone: ``legal_actions(seat)`` and ``apply(action, seat)``, the same play."""
    env = module.raw_env(**settings)
    rng = random.Random(seed)
    counted = 0
    elapsed = 0.0
    game = 0
    while counted < steps:
        env.reset(seed=seed + game)
        game += 1
        state = env.state
        n = 0
        start = time.process_time()
        try:
            while not state.is_over() and n < MAX_STEPS:
                seat = state.current_players()[0]
                legal = state.legal_actions(seat)
                state.apply(legal[rng.randrange(len(legal))], seat)
                n += 1
        except ERRORS:
            continue
        spent = time.process_time() - start
        if state.is_over():
            counted += n
            elapsed += spent
    return counted / elapsed


def observation_cost(module: Any, settings: dict[str, Any], positions: int,
                     seed: int) -> dict[str, float]:
    """Mean CPU time of ``view(seat)`` and of ``encode`` at the positions of random games
    (each timed over 5 repetitions in place)."""
    env = module.raw_env(max_steps=MAX_STEPS, **settings)
    env.reset(seed=seed)
    rng = random.Random(seed)
    view_s = encode_s = observe_s = 0.0
    n = 0
    while n < positions:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        seat = env.possible_agents.index(agent)
        state = env.state
        start = time.process_time()
        for _ in range(5):
            view = state.view(seat)
        middle = time.process_time()
        for _ in range(5):
            module.encode(view, seat)
        end = time.process_time()
        for _ in range(5):
            env.observe(agent)
        view_s += middle - start
        encode_s += end - middle
        observe_s += time.process_time() - end
        n += 5
        legal = env.legal_indices()
        try:
            env.step(legal[rng.randrange(len(legal))])
        except ERRORS:
            env.reset()
    return {"observe_us": round((view_s + encode_s) / n * 1e6, 1),
            "view_us": round(view_s / n * 1e6, 1), "encode_us": round(encode_s / n * 1e6, 1),
            "env_observe_us": round(observe_s / n * 1e6, 1),
            "observation_size": int(module.OBS_SIZE)}


def env_observe_cost(module: Any, settings: dict[str, Any], positions: int,
                     seed: int) -> dict[str, float]:
    """Mean CPU time of the environment's ``observe(agent)`` (the array and the mask) at the
    positions of random play (each timed over 5 repetitions in place)."""
    env = module.raw_env(max_steps=MAX_STEPS, **settings)
    env.reset(seed=seed)
    rng = random.Random(seed)
    spent = 0.0
    n = 0
    while n < positions:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        start = time.process_time()
        for _ in range(5):
            env.observe(agent)
        spent += time.process_time() - start
        n += 5
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
    return {"env_observe_us": round(spent / n * 1e6, 1),
            "observation_size": int(module.OBS_SIZE)}


def profile(module: Any, settings: dict[str, Any], steps: int, seed: int,
            top: int = 8) -> list[dict[str, Any]]:
    profiler = cProfile.Profile()
    profiler.enable()
    raw_steps(module, settings, steps, seed)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = max(v[3] for v in stats.stats.values())  # type: ignore[attr-defined]
    rows = []
    for (file, line, name), (_, _, _, cum, _) in stats.stats.items():  # type: ignore[attr-defined]
        if "tramways" in file and "benchmarks" not in file:
            where = file.split("src/")[-1] + f":{line}"
            rows.append({"function": f"{where}({name})", "share": round(cum / total, 3)})
    rows.sort(key=lambda r: -r["share"])
    return rows[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    scale = 0.05 if args.quick else 1.0
    steps = {"trambahn": int(100_000 * scale), "1840": int(10_000 * scale)}
    out: dict[str, Any] = {}
    for name, (module, settings) in GAMES.items():
        n = steps[name]
        row: dict[str, Any] = raw_steps(module, settings, n, args.seed)  # first: cold
        warm_up(module, settings, n, args.seed)
        row["steps_per_s_warm"] = raw_steps(module, settings, n, args.seed)["steps_per_s"]
        row["steps_per_s_with_observe"] = round(wrapped_steps(module, settings, n // 2,
                                                              args.seed))
        row["engine_steps_per_s"] = round(engine_steps(module, settings, n, args.seed))
        row.update(observation_cost(module, settings, max(500, n // 5), args.seed))
        row["actions"] = len(module.raw_env(**settings).catalogue)
        row["profile"] = profile(module, settings, max(500, n // 10), args.seed)
        out[name] = row
    for name, (module, settings) in FACTORED.items():
        n = steps["1840"]
        row = raw_steps(module, settings, n, args.seed)
        row["steps_per_s_with_observe"] = round(wrapped_steps(module, settings, n // 2,
                                                              args.seed))
        row.update(env_observe_cost(module, settings, max(500, n // 5), args.seed))
        out[name] = row
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
