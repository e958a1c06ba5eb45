"""Is 1840 ``strong`` stronger than ``normal``? (issue 26)  Paired 2-player games; prints JSON.

    nice -n 10 .venv/bin/python benchmarks/strong_paired.py --deals 20 --jobs 2 --cpu-clock

Every deal (a game seed of the series ``--seed``) is played twice, seats alternating: ``strong``
in seat 0 against ``normal``, then ``normal`` against ``strong`` in seat 1, and once more with
``normal`` in both seats (the baseline).  ``strong`` plays exactly ``normal``'s moves until the
last tram-buying round (CR5; ``tests/bots/test_g1840_fleet.py`` checks it), so the three games
are one game until then: that part is played once per deal and each game goes on from a copy
of it (the same actions, the seats' generators copied).

Printed: the games, ``strong``'s wins (first place, XI; a shared first place counts half) with
the 95% Wilson interval, its mean wealth margin against ``normal`` with a 95% interval over the
deals (the two games of a deal averaged: the seat and the deal cancel out), and the gain over
``normal``'s own result in the same seat on the same deal (the baseline's margin), the
searched decisions, how many left ``normal``'s choice, and the longest decision (seconds of
CPU and of wall time).  ``--cpu-clock`` counts the strong bot's budget in CPU time (the
machine is shared: on a quiet machine CPU and wall time agree); without it, in wall time.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bots import wilson  # noqa: E402
from tramways.bots import g1840_strong, make_bot  # noqa: E402
from tramways.bots.match import give_position  # noqa: E402
from tramways.core import Session, derive_rng  # noqa: E402
from tramways.core.actions import moves  # noqa: E402
from tramways.g1840.game import GAME  # noqa: E402

SEARCH_FROM = "CR5"


def prefix(seed: int) -> tuple[list[tuple[Any, int]], list[random.Random], list[Any]]:
    """``normal`` against ``normal`` until the first decision of CR5: the actions (with their
    seats), the seats' generators and bots as they are then."""
    state = Session.new("1840", {"players": 2}, seed).state
    bots = [make_bot("normal", GAME) for _ in range(2)]
    rngs = [derive_rng(seed, "bot", i) for i in range(2)]
    played: list[tuple[Any, int]] = []
    while state.view(None).round != SEARCH_FROM and not state.is_over():
        seat = state.current_players()[0]
        action = bots[seat].choose(state.view(seat), moves(state.legal_actions(seat)),
                                   rngs[seat])
        played.append((action, seat))
        state.apply(action, seat)
    return played, rngs, bots


def finish(seed: int, start: tuple[list[tuple[Any, int]], list[random.Random], list[Any]],
           strong_seat: int | None, options: dict[str, Any]) -> dict[str, Any]:
    """The game of ``seed`` from the end of its prefix, ``strong`` (with ``options``) in
    ``strong_seat`` (None: ``normal`` in both)."""
    played, rngs, normals = copy.deepcopy(start)
    state = Session.new("1840", {"players": 2}, seed).state
    for action, seat in played:
        state.apply(action, seat)
    bots = list(normals)
    if strong_seat is not None:
        strong = make_bot("strong", GAME, **options)
        strong.tastes = dict(normals[strong_seat].tastes)
        bots[strong_seat] = strong
    cpu: list[float] = []
    wall: list[float] = []
    searched = changed = 0
    while not state.is_over():
        seat = state.current_players()[0]
        legal = moves(state.legal_actions(seat))
        give_position(bots[seat], state, rngs[seat])
        c, w = time.process_time(), time.perf_counter()
        action = bots[seat].choose(state.view(seat), legal, rngs[seat])
        if seat == strong_seat:
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
            why = bots[seat].explanation
            searched += "samples" in why or "play-out" in why
            changed += "final margin" in why
        state.apply(action, seat)
    return {"wealth": list(state.outcome().wealth), "winners": list(state.outcome().winners),
            "cpu_max": max(cpu, default=0.0), "wall_max": max(wall, default=0.0),
            "searched": searched, "changed": changed}


def deal(args: tuple[int, int, dict[str, Any]]) -> dict[str, Any]:
    g, seed, options = args
    start = prefix(seed)
    base = finish(seed, start, None, options)
    out: dict[str, Any] = {"deal": g, "seed": seed, "baseline": base["wealth"], "games": []}
    for seat in (0, 1):
        game = finish(seed, start, seat, options)
        w, b = game["wealth"], base["wealth"]
        game.update(seat=seat, margin=w[seat] - w[1 - seat],
                    gain=(w[seat] - w[1 - seat]) - (b[seat] - b[1 - seat]),
                    win=(1 / len(game["winners"])) if seat in game["winners"] else 0.0)
        out["games"].append(game)
    print(json.dumps({k: v for k, v in out.items()}), file=sys.stderr, flush=True)
    return out


def mean_ci(values: list[float]) -> dict[str, Any]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return {"mean": round(mean, 1), "ci95": [round(mean - half, 1), round(mean + half, 1)]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--cpu-clock", action="store_true",
                    help="count the strong bot's budget in CPU time")
    ap.add_argument("--options", default="{}", help="options of the strong bot, JSON")
    args = ap.parse_args()
    if args.cpu_clock:
        g1840_strong.time = types.SimpleNamespace(  # type: ignore[attr-defined]
            perf_counter=time.process_time)
    options = json.loads(args.options)
    master = random.Random(args.seed)
    work = [(g, master.randrange(2**31), options) for g in range(args.deals)]
    started = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            deals = list(pool.map(deal, work))
    else:
        deals = [deal(w) for w in work]
    games = [g for d in deals for g in d["games"]]
    wins = sum(g["win"] for g in games)
    print(json.dumps({
        "deals": len(deals), "games": len(games), "seed": args.seed, "options": options,
        "cpu_clock": args.cpu_clock, "seconds": round(time.perf_counter() - started, 1),
        "strong_wins": wins, "strong_win_rate": round(wins / len(games), 4),
        "strong_win_ci95": wilson(wins, len(games)),
        "strong_margin": mean_ci([statistics.fmean(g["margin"] for g in d["games"])
                                  for d in deals]),
        "strong_gain_over_normal": mean_ci([statistics.fmean(g["gain"] for g in d["games"])
                                            for d in deals]),
        "games_gaining": sum(g["gain"] > 0 for g in games),
        "games_losing": sum(g["gain"] < 0 for g in games),
        "searched_decisions": sum(g["searched"] for g in games),
        "changed_decisions": sum(g["changed"] for g in games),
        "decision_cpu_s_max": round(max(g["cpu_max"] for g in games), 3),
        "decision_wall_s_max": round(max(g["wall_max"] for g in games), 3),
    }, indent=1))


if __name__ == "__main__":
    main()
