"""Our Trambahn bots against the independent whole-turn opponent (issue 26, item 3).

    nice -n 10 .venv/bin/python benchmarks/trambahn_whole_turn.py --games 1000 --bot search --jobs 2
    nice -n 10 .venv/bin/python benchmarks/trambahn_whole_turn.py --games 100 --bot rule

The opponent is :class:`tramways.bots.trambahn_whole_turn.WholeTurnBot`, written from the
rulebook and not from our bots (it plans whole turns and models the other player's next
passengers).  ``--games`` games, seats alternating (game ``g``: the bot in seat ``g % 2``), on
the seeds of the series ``--seed``; ``--first K`` skips the series' first K games, so chunks
add up to one series.  Prints one JSON object: the bot's wins (draws count half) with a 95%
Wilson interval, the mean margin, and the seconds a game took (wall clock, ``--jobs``
processes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import series_seeds, wilson  # noqa: E402
from tramways.bots import make_bot  # noqa: E402
from tramways.bots.match import play_match  # noqa: E402
from tramways.bots.trambahn_whole_turn import WholeTurnBot  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402


def one_game(g: int, seed: int, bot: str, options: dict[str, Any], opponent: dict[str, Any],
             against: str = "whole-turn") -> dict[str, Any]:
    """Game ``g`` of the series: ``bot`` in seat ``g % 2`` against the whole-turn opponent
    (or the bot named ``against``)."""
    seat = g % 2
    other = (WholeTurnBot(GAME, **opponent) if against == "whole-turn"
             else make_bot(against, GAME, **opponent))
    bots: list[Any] = [make_bot(bot, GAME, **options), other]
    if seat == 1:
        bots.reverse()
    start = time.perf_counter()
    result = play_match("trambahn", bots, seed).state.result()
    winner = result["winner"]
    line = {"game": g, "seat": seat,
            "score": 1.0 if winner == seat else 0.5 if winner is None else 0.0,
            "margin": result["scores"][seat] - result["scores"][1 - seat],
            "seconds": time.perf_counter() - start}
    print(json.dumps(line), file=sys.stderr, flush=True)  # progress, one line a game
    return line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--bot", default="search")
    ap.add_argument("--bot-options", default="{}", help="JSON options for --bot")
    ap.add_argument("--opponent", default="whole-turn",
                    help="whole-turn (the default), or another bot's name (e.g. rule)")
    ap.add_argument("--opponent-options", default="{}", help="JSON options for the opponent")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    options, opponent = json.loads(args.bot_options), json.loads(args.opponent_options)
    seeds = series_seeds(args.seed, args.first, args.games)
    started = time.perf_counter()
    n = len(seeds)
    common = ([args.bot] * n, [options] * n, [opponent] * n, [args.opponent] * n)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            lines = list(pool.map(one_game, *zip(*seeds, strict=True), *common))
    else:
        lines = [one_game(g, s, args.bot, options, opponent, args.opponent) for g, s in seeds]
    wins = sum(line["score"] for line in lines)
    print(json.dumps({
        "bot": args.bot, "bot_options": options, "opponent": args.opponent,
        "opponent_options": opponent, "games": n, "first": args.first, "seed": args.seed,
        "wins": wins, "win_rate": wins / n if n else None, "ci95": wilson(wins, n),
        "mean_margin": round(sum(line["margin"] for line in lines) / n, 2) if n else None,
        "s_per_game": round((time.perf_counter() - started) / max(1, n), 2),
        "game_s_mean": round(sum(line["seconds"] for line in lines) / max(1, n), 2),
    }))


if __name__ == "__main__":
    main()
