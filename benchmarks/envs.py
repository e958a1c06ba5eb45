"""PettingZoo environments benchmark: steps per second and the cost of an observation.

    .venv/bin/python benchmarks/envs.py            # about a minute
    .venv/bin/python benchmarks/envs.py --quick    # a smoke run (seconds)

Prints one JSON object with, per game (Trambahn; 1840 with 4 players), on one core:

* ``steps_per_s``: ``raw_env.step`` with uniformly random masked actions (chosen among
  ``legal_indices()``, the mask's ones), games reset as they end (goals: Trambahn >= 20,000,
  1840 >= 2,000);
* ``steps_per_s_with_observe``: the usual PettingZoo loop through ``env()``: ``last()``
  builds the observation, ``action_space.sample(mask)`` picks the action;
* ``engine_steps_per_s``: the engine alone, same random play (``legal_actions`` + ``apply``),
  the ceiling for the environment;
* ``observe_us`` = ``view_us`` (the engine's ``view(seat)``) + ``encode_us`` (the array),
  the mean over positions of the random games;
* ``profile``: the functions with the largest share of ``raw_env`` stepping time (cumulative).

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

from tramways.envs import g1840_v0, trambahn_v0  # noqa: E402

GAMES: dict[str, tuple[Any, dict[str, Any]]] = {
    "trambahn": (trambahn_v0, {}),
    "1840": (g1840_v0, {"players": 4}),
}


def raw_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> dict[str, Any]:
    env = module.raw_env(**settings)
    env.reset(seed=seed)
    rng = random.Random(seed)
    games = errors = 0
    start = time.process_time()
    done = 0
    while done < steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            games += 1
            env.reset()
            continue
        legal = env.legal_indices()
        try:
            env.step(legal[rng.randrange(len(legal))])
        except (IndexError, KeyError, AssertionError):  # an engine crash: counted, new game
            errors += 1
            env.reset()
        done += 1
    elapsed = time.process_time() - start
    return {"steps_per_s": round(steps / elapsed), "games_finished": games,
            "engine_errors": errors}


def wrapped_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> float:
    env = module.env(**settings)
    env.reset(seed=seed)
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + k)
    start = time.process_time()
    done = 0
    while done < steps:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
            try:
                env.step(action)
            except (IndexError, KeyError, AssertionError):
                break
            done += 1
            if done >= steps:
                break
        env.reset()
    return steps / (time.process_time() - start)


def engine_steps(module: Any, settings: dict[str, Any], steps: int, seed: int) -> float:
    env = module.raw_env(**settings)
    env.reset(seed=seed)
    state = env.state
    rng = random.Random(seed)
    elapsed = 0.0
    done = 0
    while done < steps:
        if state.is_over() or len(env.actions) > 3000:
            env.reset()
            state = env.state
        start = time.process_time()
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        try:
            state.apply(legal[rng.randrange(len(legal))], seat)
        except (IndexError, KeyError, AssertionError):
            env.reset()
            state = env.state
        elapsed += time.process_time() - start
        env.actions.append(None)  # only counted
        done += 1
    return steps / elapsed


def observation_cost(module: Any, settings: dict[str, Any], positions: int,
                     seed: int) -> dict[str, float]:
    env = module.raw_env(**settings)
    env.reset(seed=seed)
    rng = random.Random(seed)
    views: list[tuple[Any, int]] = []
    while len(views) < positions:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        seat = env.possible_agents.index(agent)
        views.append((env.state.clone(), seat))
        legal = env.legal_indices()
        try:
            env.step(legal[rng.randrange(len(legal))])
        except (IndexError, KeyError, AssertionError):
            env.reset()
    start = time.process_time()
    made = [(state.view(seat), seat) for state, seat in views]
    view_s = time.process_time() - start
    start = time.process_time()
    for view, seat in made:
        module.encode(view, seat)
    encode_s = time.process_time() - start
    n = len(views)
    return {"observe_us": round((view_s + encode_s) / n * 1e6, 1),
            "view_us": round(view_s / n * 1e6, 1), "encode_us": round(encode_s / n * 1e6, 1),
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
        row: dict[str, Any] = raw_steps(module, settings, n, args.seed)
        row["steps_per_s_with_observe"] = round(wrapped_steps(module, settings, n // 2,
                                                              args.seed))
        row["engine_steps_per_s"] = round(engine_steps(module, settings, n, args.seed))
        row.update(observation_cost(module, settings, max(50, n // 50), args.seed))
        row["actions"] = len(module.raw_env(**settings).catalogue)
        row["profile"] = profile(module, settings, max(500, n // 10), args.seed)
        out[name] = row
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
