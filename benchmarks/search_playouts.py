"""The 1840 search bot's play-outs per decision, and its games against three rule bots; prints
one JSON object.

    nice .venv/bin/python benchmarks/search_playouts.py --games 20 --budget 0.5
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/search_playouts.py ...  # "before"

The bot's time budget per decision is counted in CPU time here (``time.process_time``): the
bot's clock (``time.perf_counter`` in :mod:`tramways.bots.g1840_search` and the rule bot's Line
Round deadline) is swapped for the process clock, so another program on a shared machine does
not take play-outs away, and two versions of the engine compare at the same budget.

With the bot's defaults (``rounds=1``: play-outs to the end of the Share Round) a play-out
that meets no Line or Company Round plays the same every time, so the bot plays one sample of
its candidates and stops: the play-outs per decision are its candidate count whatever the
engine's speed.  ``--options '{"rounds": 2}'`` takes the play-outs through the next Line
Round, where samples differ and the budget decides how many fit.

Keys: ``decisions`` (searched decisions: Share Round turns), ``playouts_per_decision_median`` /
``_mean`` (play-outs started per searched decision: samples x candidates),
``playout_actions_per_decision_median`` (actions played in them), ``decision_cpu_s_median``;
``games``, ``search_wins`` (a shared first place counts its share), ``search_win_rate``,
``ci95`` (Wilson), ``search_median_wealth``, ``rule_median_wealth``; ``cpu_s`` in all.
Games: 4 players, the search bot in seat ``g % 4`` of game ``g``, seeds from ``--seed``.

``--fixed N``: instead of games, the same fixed work for any version of the engine and bots:
``N`` Share Round decisions spread evenly over a game of four rule bots from ``--seed`` (the rule bot is pinned, so every version meets the same positions), each
searched with ``--samples`` samples of every candidate and no time limit.  Keys:
``playouts``, ``playout_actions`` (in all), ``actions_per_playout``, ``cpu_s``,
``ms_per_playout``, ``chosen`` (the decisions) and ``playouts_digest`` (of every action the
play-outs played), to compare versions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1] / "src"))  # PYTHONPATH goes first

from tramways.bots import g1840_rule_line, g1840_search, make_bot  # noqa: E402
from tramways.bots.match import give_position  # noqa: E402
from tramways.core import Session, derive_rng  # noqa: E402
from tramways.core.actions import moves  # noqa: E402
from tramways.g1840.game import GAME as G1840  # noqa: E402

CPU_CLOCK = types.SimpleNamespace(perf_counter=time.process_time)


def wilson(wins: float, games: int, z: float = 1.96) -> list[float] | None:
    """The 95% Wilson score interval of a win rate."""
    if games <= 0:
        return None
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5 / d
    return [round(centre - half, 4), round(centre + half, 4)]


class Counter:
    """Counts the play-outs (and their actions) of the decision in progress."""

    def __init__(self) -> None:
        self.playouts = 0
        self.actions = 0
        self.original = g1840_search.rule_playout
        self.digest = hashlib.sha256()

    def rule_playout(self, state: Any, *args: Any, **kwargs: Any) -> bool:
        self.playouts += 1
        before = len(getattr(state, "_played", ()))
        try:
            return bool(self.original(state, *args, **kwargs))
        finally:
            played = getattr(state, "_played", ())
            self.actions += len(played) - before
            for action, _ in played[before:]:
                self.digest.update(str(action).encode())


def play(g: int, seed: int, options: dict[str, Any], counter: Counter,
         decisions: list[tuple[int, int, float]]) -> dict[str, Any]:
    seat = g % 4
    names = ["rule"] * 4
    names[seat] = "search"
    bots = [make_bot(n, G1840, **(options if n == "search" else {})) for n in names]
    session = Session.new("1840", {"players": 4}, seed)
    rngs = [derive_rng(seed, "bot", i) for i in range(4)]
    state = session.state
    while not state.is_over():
        actor = state.current_players()[0]
        legal = state.legal_actions(actor)
        give_position(bots[actor], state, rngs[actor])
        counter.playouts = counter.actions = 0
        start = time.process_time()
        action = bots[actor].choose(state.view(actor), legal, rngs[actor])
        if actor == seat and counter.playouts:
            decisions.append((counter.playouts, counter.actions, time.process_time() - start))
        session.play(action, seat=actor)
        state = session.state
    result = state.result()
    return {"game": g, "seat": seat, "wealth": result["wealth"], "winners": result["winners"]}


def fixed_work(positions: int, samples: int, seed: int, options: dict[str, Any],
               counter: Counter) -> dict[str, Any]:
    """The same searches for every version (see the module docstring)."""
    session = Session.new("1840", {"players": 4}, seed)
    rule = make_bot("rule", G1840)
    rng = derive_rng(seed, "fixed", 0)
    state = session.state
    work: list[tuple[Any, Any, list[Any]]] = []
    while not state.is_over():
        actor = state.current_players()[0]
        legal = list(moves(state.legal_actions(actor)))
        if g1840_search.decision_kind(state.round.type, legal) == "share":
            work.append((state.clone(), state.view(actor), legal))
        session.play(rule.choose(state.view(actor), legal, rng), seat=actor)
        state = session.state
    work = [work[i * len(work) // positions] for i in range(min(positions, len(work)))]
    bot = make_bot("search", G1840, **{**options, "budget": 10_000.0, "max_samples": samples})
    chosen: list[str] = []
    playouts = actions = 0
    start = time.process_time()
    for position, view, legal in work:
        bot.see_position(position, random.Random(1))
        counter.playouts = counter.actions = 0
        chosen.append(str(bot.choose(view, legal, random.Random(2))))
        playouts += counter.playouts
        actions += counter.actions
    cpu = time.process_time() - start
    return {
        "benchmark": "search_playouts --fixed",
        "positions": len(work),
        "samples": samples,
        "search_options": options,
        "playouts": playouts,
        "playout_actions": actions,
        "actions_per_playout": round(actions / playouts, 1) if playouts else None,
        "cpu_s": round(cpu, 2),
        "ms_per_playout": round(1000 * cpu / playouts, 1) if playouts else None,
        "chosen": chosen,
        "playouts_digest": counter.digest.hexdigest()[:16],
        "engine": str(Path(g1840_search.__file__).parents[2]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--budget", type=float, default=0.5, help="CPU seconds per decision")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--first", type=int, default=0, help="skip the series' first games")
    parser.add_argument("--options", default="{}",
                        help='more options of the search bot, JSON (e.g. \'{"rounds": 2}\')')
    parser.add_argument("--fixed", type=int, default=0,
                        help="the fixed work of this many Share Round searches, no games")
    parser.add_argument("--samples", type=int, default=3, help="samples with --fixed")
    args = parser.parse_args()
    options = {"budget": args.budget, **json.loads(args.options)}
    g1840_search.time = CPU_CLOCK  # type: ignore[assignment]
    g1840_rule_line.time = CPU_CLOCK  # type: ignore[assignment]
    try:  # the play-out loop's own module (absent in older versions)
        from tramways.bots import g1840_playout
        g1840_playout.time = CPU_CLOCK  # type: ignore[attr-defined]
    except ImportError:
        pass
    counter = Counter()
    g1840_search.rule_playout = counter.rule_playout  # type: ignore[assignment]
    if args.fixed:
        print(json.dumps(fixed_work(args.fixed, args.samples, args.seed,
                                    json.loads(args.options), counter)))
        return
    master = random.Random(args.seed)
    seeds = [master.randrange(2**53) for _ in range(args.first + args.games)]
    decisions: list[tuple[int, int, float]] = []
    wins = 0.0
    hero: list[int] = []
    others: list[int] = []
    start = time.process_time()
    for g in range(args.first, args.first + args.games):
        line = play(g, seeds[g], options, counter, decisions)
        print(json.dumps(line), file=sys.stderr, flush=True)
        seat = line["seat"]
        if seat in line["winners"]:
            wins += 1 / len(line["winners"])
        hero.append(line["wealth"][seat])
        others.extend(w for s, w in enumerate(line["wealth"]) if s != seat)
    playouts = [d[0] for d in decisions]
    print(json.dumps({
        "benchmark": "search_playouts",
        "budget_cpu_s": args.budget,
        "search_options": json.loads(args.options),
        "decisions": len(decisions),
        "playouts_per_decision_median": statistics.median(playouts) if playouts else None,
        "playouts_per_decision_mean": round(statistics.mean(playouts), 2) if playouts else None,
        "playout_actions_per_decision_median":
            statistics.median(d[1] for d in decisions) if decisions else None,
        "decision_cpu_s_median":
            round(statistics.median(d[2] for d in decisions), 3) if decisions else None,
        "games": args.games,
        "first_game": args.first,
        "search_wins": wins,
        "search_win_rate": round(wins / args.games, 4) if args.games else None,
        "ci95": wilson(wins, args.games),
        "search_median_wealth": statistics.median(hero) if hero else None,
        "rule_median_wealth": statistics.median(others) if others else None,
        "cpu_s": round(time.process_time() - start, 1),
        "engine": str(Path(g1840_search.__file__).parents[2]),
    }))


if __name__ == "__main__":
    main()
