"""Do the 1840 bots play like people? (issue 26)  Prints one JSON object.

    nice -n 10 .venv/bin/python benchmarks/realism.py                  # 10 2-player games
    nice -n 10 .venv/bin/python benchmarks/realism.py --games 20 --players 4 --bot rule

For ``--games`` games of ``--players`` copies of ``--bot`` (seeds from ``--seed``), the figures
of issue 26's table, each as a mean over the games with a 95% interval (mean +- 1.96 standard
errors; ``null`` below 2 games): tiles laid per line run (and ``tiles_ceiling``, the most
this game's runs allowed: each run its own lay, each Stadtbahn tile with its tile-laying bonus
laid, IX.3, R-LR-1, and the share of it reached; ``tile_bonuses`` offered, ``runs``), the share of line runs earning 0, the
mean line run, line auction prices, W and G (Stadtbahn tiles laid, final price and last run),
trams bought by colour and scrapped, private prices (their spread from game to game), loans,
the lowest player's wealth.  Beside them the same figures read from the 2-player game people
played on 18xx.games (../shared/reference/1840/oracle/2player.json, imported with the
project's importer); ``recorded`` is ``null`` when that file is absent.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots import make_bot  # noqa: E402
from tramways.bots.g1840_realism import GameFigures, game_figures  # noqa: E402
from tramways.bots.match import play_match  # noqa: E402
from tramways.g1840.game import GAME  # noqa: E402

RECORDED = Path(__file__).resolve().parents[2] / "shared" / "reference" / "1840" / "oracle" \
    / "2player.json"
PEOPLE = {
    "tiles_per_run": "1.5-1.8",
    "zero_runs": "5-19%",
    "mean_run": "133-173",
    "line_price": "20 nearly always (max 80)",
    "W_price": "115-185",
    "trams": "modernised to red, pink, purple; 4-13 scrapped",
    "private_prices": "vary from game to game",
    "lowest_wealth": "goal: above 3,000",
}
"""The people's ranges of issue 26's table."""


def interval(values: list[float]) -> dict[str, Any]:
    """Mean and its 95% interval (normal approximation) over the games."""
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return {"mean": round(mean, 3), "ci95": None, "n": len(values)}
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return {"mean": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "n": len(values)}


def line_prices(games: list[GameFigures]) -> dict[str, Any]:
    """Line auction prices: the mean per game, the share at the opening 20, the highest."""
    prices = [p for g in games for p in g.line_prices]
    row = interval([statistics.fmean(g.line_prices) for g in games if g.line_prices])
    row["share_at_20"] = round(sum(p <= 20 for p in prices) / len(prices), 3) if prices else None
    row["max"] = max(prices, default=None)
    return row


def private_prices(games: list[GameFigures]) -> dict[str, Any]:
    """Per private: how many different prices it fetched over the games, the lowest, highest."""
    out: dict[str, Any] = {}
    for p in sorted({p for g in games for p in g.private_prices}):
        paid = [g.private_prices[p] for g in games if p in g.private_prices]
        out[p] = {"distinct": len(set(paid)), "min": min(paid), "max": max(paid)}
    return out


def figures_row(games: list[GameFigures]) -> dict[str, Any]:
    def each(read: Any) -> dict[str, Any]:
        return interval([float(read(g)) for g in games])

    colours = sorted({c for g in games for c in g.trams_bought})
    return {
        "tiles_per_run": each(lambda g: g.tiles_per_run),
        "tiles_ceiling": each(lambda g: g.tiles_ceiling),
        "tiles_of_ceiling": each(lambda g: g.tiles_per_run / g.tiles_ceiling if g.runs else 0),
        "tile_bonuses": each(lambda g: g.tile_bonuses),
        "runs": each(lambda g: len(g.runs)),
        "zero_runs": each(lambda g: g.zero_runs),
        "mean_run": each(lambda g: g.mean_run),
        "line_price": line_prices(games),
        "stadtbahn_lays": each(lambda g: g.stadtbahn_lays),
        "W_price": each(lambda g: g.stadtbahn_price.get("W", 0)),
        "G_price": each(lambda g: g.stadtbahn_price.get("G", 0)),
        "W_G_run": each(lambda g: g.stadtbahn_run.get("W", 0) + g.stadtbahn_run.get("G", 0)),
        "trams_bought": {c: each(lambda g, c=c: g.trams_bought.get(c, 0)) for c in colours},
        "scrapped": each(lambda g: g.scrapped),
        "private_prices": private_prices(games),
        "loans": each(lambda g: g.loans),
        "lowest_wealth": {**each(lambda g: g.lowest_wealth),
                          "min": min((g.lowest_wealth for g in games), default=None)},
    }


def recorded_figures() -> GameFigures | None:
    if not RECORDED.exists():
        return None
    from tramways.core import Session
    from tramways.g1840.interop.importer import import_export
    from tramways.g1840.interop.log18xx import load_export

    session = Session.from_record(import_export(load_export(RECORDED)))
    return game_figures(session.log, session.state.view(None))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bot", default="normal")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--max-seconds", type=float, default=900.0,
                    help="stop starting games after this many seconds")
    args = ap.parse_args()
    master = random.Random(args.seed)
    games: list[GameFigures] = []
    started = time.perf_counter()
    for _ in range(args.games):
        if time.perf_counter() - started > args.max_seconds:
            break
        seed = master.randrange(2**31)
        bots = [make_bot(args.bot, GAME) for _ in range(args.players)]
        session = play_match("1840", bots, seed, {"players": args.players})
        games.append(game_figures(session.log, session.state.view(None)))
    recorded = recorded_figures()
    print(json.dumps({
        "bot": args.bot, "players": args.players, "games": len(games), "seed": args.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "bots": figures_row(games),
        "recorded": figures_row([recorded]) if recorded is not None else None,
        "people": PEOPLE,
    }, indent=1))


if __name__ == "__main__":
    main()
