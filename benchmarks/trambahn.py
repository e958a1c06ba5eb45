"""Trambahn benchmark: engine speed and bot strength; prints one JSON object.

    .venv/bin/python benchmarks/trambahn.py            # full run (about 10-15 minutes)
    .venv/bin/python benchmarks/trambahn.py --quick    # a smoke run (seconds)

* ``random_games_per_s``: whole games of uniformly random legal actions on one core (through
  the core's ``play_game``: session, record and notation included);
* ``rule_vs_random_win_rate``: the rule-of-thumb bot against the random bot;
* ``search_vs_rule_win_rate``: the search bot against the rule-of-thumb bot, on
  ``--workers`` processes.

Seats alternate game by game; a draw counts half a win.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots import make_bot  # noqa: E402
from tramways.bots.match import play_match  # noqa: E402
from tramways.core.selfplay import play_game  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402

SEARCH_BUDGET: dict[str, Any] = {}
"""Options of the search bot measured: none, the default ``search`` a player gets."""


def random_speed(games: int, seed: int) -> float:
    start = time.perf_counter()
    for g in range(games):
        outcome = play_game("trambahn", {}, seed + g)
        assert outcome.finished
    return games / (time.perf_counter() - start)


def _one_game(args: tuple[str, str, int, int]) -> tuple[int, int, int]:
    """(win, draw, margin) of bot ``a`` against bot ``b``; ``a`` sits in seat ``seat``."""
    a_name, b_name, seed, seat = args
    a = make_bot(a_name, GAME, **(SEARCH_BUDGET if a_name == "search" else {}))
    b = make_bot(b_name, GAME)
    bots = [a, b] if seat == 0 else [b, a]
    result = play_match("trambahn", bots, seed).state.result()
    w = result["winner"]
    margin = result["scores"][seat] - result["scores"][1 - seat]
    return int(w == seat), int(w is None), margin


def series(a: str, b: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    master = random.Random(seed)
    jobs = [(a, b, master.randrange(2**53), g % 2) for g in range(games)]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            rows = pool.map(_one_game, jobs, chunksize=4)
    else:
        rows = [_one_game(j) for j in jobs]
    wins = sum(r[0] for r in rows)
    draws = sum(r[1] for r in rows)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": round((wins + draws / 2) / games, 4),
        "mean_margin": round(sum(r[2] for r in rows) / games, 2),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games of each")
    parser.add_argument("--random-games", type=int, default=1000)
    parser.add_argument("--rule-games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.quick:
        args.random_games, args.rule_games, args.search_games = 50, 20, 4
    speed = random_speed(args.random_games, args.seed)
    rule = series("rule", "random", args.rule_games, args.seed, args.workers)
    search = series("search", "rule", args.search_games, args.seed, args.workers)
    print(
        json.dumps(
            {
                "random_games_per_s": round(speed, 1),
                "rule_vs_random_win_rate": rule["win_rate"],
                "search_vs_rule_win_rate": search["win_rate"],
                "games": {
                    "random": args.random_games,
                    "rule_vs_random": args.rule_games,
                    "search_vs_rule": args.search_games,
                },
                "search_budget": make_bot("search", GAME, **SEARCH_BUDGET).budget,
                "rule_vs_random": rule,
                "search_vs_rule": search,
                "workers": args.workers,
            }
        )
    )


if __name__ == "__main__":
    main()
