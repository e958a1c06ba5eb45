"""Tune the Trambahn planner's constants against the ``rule`` bot (issue 13).

    nice -n 10 .venv/bin/python benchmarks/tune_trambahn_planner.py --deals 1000 --jobs 2

Policy against policy, no search: a game takes about 4 ms.  Each variant of
:class:`~tramways.bots.trambahn_policy.Planner` (a subclass with some attributes changed)
plays ``--deals`` deals against :func:`~tramways.bots.trambahn_rule.rule_action`, each deal
from both seats, the same deals for every variant.  A coordinate search walks the attributes
of :data:`GRID` in a shuffled order and keeps a change that wins more than ``--margin``
more often; ``--start`` gives the attributes to start from as JSON (``"rule"``: the rule
bot's own values, as the planner had them before the tuning).  Progress goes to stderr, one
JSON line per variant; the result is one JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots.trambahn_policy import RULE_CONSTANTS, plan_action, variant  # noqa: E402
from tramways.bots.trambahn_rule import rule_action  # noqa: E402
from tramways.core import Session  # noqa: E402

GRID: dict[str, list[Any]] = {
    "guessed_multiplier": [1.5, 2.0, 2.5, 3.0, 3.5],
    "lone_keep": [0.3, 0.8, 1.5, 2.5],
    "lone_top": [2, 3, 4, 5, 6],
    "lone_columns": [2, 3, 4, 5, 6, 9],
    "other_keep": [0.0, 0.2, 0.5, 1.0],
    "gap_factors": [(1.0, 0.5, 0.2), (0.7, 0.5, 0.2), (1.5, 0.5, 0.2), (1.0, 0.25, 0.2),
                    (1.0, 0.8, 0.2), (1.0, 1.0, 0.2), (1.0, 0.5, 0.0), (1.0, 0.5, 0.5)],
    "future_extra": [0.0, 0.5, 1.0, 2.0],
    "conductor_keep": [0.0, 0.25, 0.5, 1.0, 2.0],
    "row_three_against": [0.3, 0.7, 1.0, 1.5],
    "row_three_for": [0.0, 0.2, 0.5, 1.0],
    "row_four": [0.25, 0.5, 1.0, 2.0],
    "second_passenger": [-1.0, 0.0, 0.5, 2.0, 5.0],
    "conductor_size": [2, 3, 4, 5, 6],
    "extend_gap": [3, 4, 5, 6, 9],
    "extend_high": [6, 7, 8, 9, 11],
    "extend_late": [1, 2, 3, 5, 10],
    "new_column_remaining": [1, 2, 3, 4, 5],
    "new_column_low": [2, 3, 4, 5, 6],
    "new_column_mid": [4, 6, 8, 10],
    "new_column_columns": [2, 3, 4, 5, 7, 20],
    "income_keep": [0.5, 0.9, 1.5, 2.5, 4.0],
    "income_money": [0, 3, 5, 8, 12, 15, 20],
    "income_keep_poor": [1.5, 3.0, 5.0, 8.0],
}
"""Values tried per attribute (each grid holds the rule's value and the planner's)."""

def win_rate(changes: dict[str, Any], first: int, deals: int) -> float:
    """Share of the games the variant wins against the rule bot (draws count half): each of
    ``deals`` deals from seed ``first`` on, played from both seats."""
    planner = variant(changes)
    won = 0.0
    for seed in range(first, first + deals):
        for seat in (0, 1):
            state = Session.new("trambahn", {}, seed).state
            while not state.over:
                if state.turn == seat:
                    state.apply(plan_action(state, None, planner))
                else:
                    state.apply(rule_action(state))
            winner = state.result()["winner"]
            won += 1.0 if winner == seat else 0.5 if winner is None else 0.0
    return won / (2 * deals)


def measure(pool: ProcessPoolExecutor, changes: dict[str, Any], first: int, deals: int,
            jobs: int) -> float:
    size = -(-deals // jobs)
    parts = [(s, min(size, first + deals - s)) for s in range(first, first + deals, size)]
    futures = [pool.submit(win_rate, changes, start, n) for start, n in parts]
    return sum(f.result() * n for f, (_, n) in zip(futures, parts, strict=True)) / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--first", type=int, default=5000, help="seed of the first deal")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--margin", type=float, default=0.008)
    ap.add_argument("--start", default="{}", help='JSON attributes, or "rule"')
    args = ap.parse_args()
    best: dict[str, Any] = RULE_CONSTANTS if args.start == "rule" else json.loads(args.start)
    begun = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        rate = start_rate = measure(pool, best, args.first, args.deals, args.jobs)
        tried = 0
        for round_ in range(args.rounds):
            names = list(GRID)
            random.Random(round_).shuffle(names)
            for name in names:
                for value in GRID[name]:
                    trial = dict(best, **{name: value})
                    if trial == best:
                        continue
                    r = measure(pool, trial, args.first, args.deals, args.jobs)
                    tried += 1
                    kept = r > rate + args.margin
                    print(json.dumps({name: value, "win_rate": r, "kept": kept}),
                          file=sys.stderr, flush=True)
                    if kept:
                        best, rate = trial, r
    print(json.dumps({"start": args.start, "start_win_rate": start_rate, "changes": best,
                      "win_rate": rate, "deals": args.deals, "variants": tried,
                      "seconds": round(time.perf_counter() - begun)}))


if __name__ == "__main__":
    main()
