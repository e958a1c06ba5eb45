"""How two Trambahn bots play (issue 13): trams bought by kind, money left, Extra Tours.

    nice -n 10 .venv/bin/python benchmarks/trambahn_stats.py --a search --b legacy --games 100

Plays ``--games`` games of bot ``a`` against bot ``b``, seats alternating (the seeds of the
``benchmarks/bots.py`` Trambahn series, ``--first`` skips games), and prints one JSON object
with per-bot means: trams bought of each kind, money cards left at the end, income cards,
regular and Extra Tour points, columns kept with a tram, how often the bot placed the
passenger of the 10th scoring (``tenth``), and the share of its turns that ended with a row at 3
whose scoring favours the other player (``row3_against``).  Bot names: ``rule``, ``search``, ``legacy`` (the search with
``legacy=True``), ``random``, ``whole-turn`` (the independent opponent of
``bots/trambahn_whole_turn.py``); ``--a-options`` takes JSON options for bot ``a``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import series_seeds, wilson  # noqa: E402
from tramways.bots import make_bot  # noqa: E402
from tramways.bots.match import give_position  # noqa: E402
from tramways.bots.trambahn_whole_turn import WholeTurnBot  # noqa: E402
from tramways.core import Session, derive_rng  # noqa: E402
from tramways.trambahn.actions import Buy, EndTurn, Income  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402

KEYS = ("horse", "steam", "electric", "money_left", "income", "regular", "extra", "score",
        "columns", "tenth", "win", "row3_against")


def bot(name: str, options: dict[str, Any]) -> Any:
    if name == "whole-turn":
        return WholeTurnBot(GAME, **options)
    if name == "legacy":
        return make_bot("search", GAME, legacy=True, **options)
    return make_bot(name, GAME, **options)


def row_three_against(state: Any, p: int) -> float:
    """1 if player ``p`` ended its turn leaving a row at 3 whose scoring favours the other
    player (T-R-2: one passenger of theirs scores it), else 0."""
    for c, row in enumerate(state.rows):
        if len(row) != 3:
            continue
        mine, theirs = ([sum(col.score for col in state.columns[q] if col.colour == c)
                         for q in (p, 1 - p)])
        if theirs > mine:
            return 1.0
    return 0.0


def one_game(bots: list[Any], seed: int) -> list[dict[str, float]]:
    session = Session.new("trambahn", {}, seed)
    rngs = [derive_rng(seed, "bot", i) for i in (0, 1)]
    stats = [dict.fromkeys(KEYS, 0.0) for _ in (0, 1)]
    turns = [0, 0]
    state = session.state
    while not state.is_over():
        p = state.current_players()[0]
        give_position(bots[p], state, rngs[p])
        action = bots[p].choose(state.view(p), state.legal_actions(p), rngs[p])
        if isinstance(action, Buy):
            stats[p][action.kind] += 1
        elif isinstance(action, Income):
            stats[p]["income"] += 1
        session.play(action, seat=p)
        if isinstance(action, EndTurn):
            turns[p] += 1
            stats[p]["row3_against"] += row_three_against(session.state, p)
        if session.state.is_over() and session.state.end_reason == "tenth scoring":
            stats[p]["tenth"] += 1
        state = session.state
    result = state.result()
    for p in (0, 1):
        s = stats[p]
        s["money_left"] = result["money"][p]
        s["regular"] = result["regular"][p]
        s["extra"] = result["extra_tours"][p]
        s["score"] = result["scores"][p]
        s["columns"] = sum(1 for c in state.columns[p] if c.tram)
        s["row3_against"] /= max(1, turns[p])
        s["win"] = 1.0 if result["winner"] == p else 0.5 if result["winner"] is None else 0.0
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="search")
    ap.add_argument("--b", default="legacy")
    ap.add_argument("--a-options", default="{}")
    ap.add_argument("--b-options", default="{}")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=16, help="16: the bots.py Trambahn series")
    ap.add_argument("--paired", action="store_true",
                    help="play each deal twice, seats swapped (less luck in a comparison)")
    args = ap.parse_args()
    a = bot(args.a, json.loads(args.a_options))
    b = bot(args.b, json.loads(args.b_options))
    per: dict[str, list[dict[str, float]]] = {"a": [], "b": []}
    start = time.perf_counter()
    seeds = series_seeds(args.seed, args.first, args.games)
    if args.paired:
        deals = series_seeds(args.seed, args.first // 2, (args.games + 1) // 2)
        seeds = [(args.first + i, deals[i // 2][1]) for i in range(args.games)]
    for g, seed in seeds:
        seat = g % 2
        stats = one_game([a, b] if seat == 0 else [b, a], seed)
        per["a"].append(stats[seat])
        per["b"].append(stats[1 - seat])
    out: dict[str, Any] = {"a": args.a, "b": args.b, "games": args.games, "first": args.first}
    for side in ("a", "b"):
        out[side + "_means"] = {k: round(statistics.mean(s[k] for s in per[side]), 2)
                                for k in KEYS}
    wins = sum(s["win"] for s in per["a"])
    out["a_win_rate"] = wins / args.games
    out["a_ci95"] = wilson(wins, args.games)
    out["s_per_game"] = round((time.perf_counter() - start) / args.games, 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
