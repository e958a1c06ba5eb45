"""The cost of the post-game analysis (issue 26, item 4).  Prints one JSON object.

    nice -n 10 .venv/bin/python benchmarks/analysis.py                    # one 4-player 1840 game
    nice -n 10 .venv/bin/python benchmarks/analysis.py --game trambahn --games 3

Plays ``--games`` games of ``--bot`` in every seat (seeds from ``--seed``), analyses each
finished record (:func:`tramways.bots.analysis.analyse`) and reports per game the actions,
the decisions rated and the seconds the analysis took (wall clock, on whatever else the
machine runs), with the largest loss found.  Goal: a 4-player 1840 game within 60 s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots import make_bot  # noqa: E402
from tramways.bots.analysis import analyse  # noqa: E402
from tramways.bots.match import play_match  # noqa: E402
from tramways.games import get_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="1840", choices=("1840", "trambahn"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="normal")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--record", help="analyse this record instead of playing games")
    parser.add_argument("--keep", help="write each game's record into this folder")
    args = parser.parse_args()
    if args.record:
        from tramways.core.record import GameRecord

        record = GameRecord.load(args.record)
        cpu = time.process_time()
        analysis = analyse(record, seed=args.seed)
        print(json.dumps({"record": args.record, "actions": len(record.actions),
                          "decisions": len(analysis.decisions),
                          "analysis_seconds": analysis.seconds,
                          "cpu_seconds": round(time.process_time() - cpu, 1)}))
        return
    game = get_game(args.game)
    players = 2 if args.game == "trambahn" else args.players
    settings = {} if args.game == "trambahn" else {"players": players}
    rows = []
    for g in range(args.games):
        seed = args.seed + g
        bots = [make_bot(args.bot, game) for _ in range(players)]
        started = time.perf_counter()
        record = play_match(args.game, bots, seed, settings).record
        played = time.perf_counter() - started
        if args.keep:
            record.save(Path(args.keep) / f"{args.game}-{players}p-{seed}.json")
        cpu = time.process_time()
        analysis = analyse(record, seed=seed)
        cpu = time.process_time() - cpu
        worst = max((d.loss for d in analysis.decisions), default=0.0)
        rows.append({"seed": seed, "actions": len(record.actions),
                     "decisions": len(analysis.decisions), "play_seconds": round(played, 1),
                     "analysis_seconds": analysis.seconds, "cpu_seconds": round(cpu, 1),
                     "largest_loss": worst})
    seconds = [r["analysis_seconds"] for r in rows]
    print(json.dumps({"game": args.game, "players": players, "bot": args.bot, "games": rows,
                      "analysis_seconds_max": max(seconds),
                      "ms_per_decision": round(1000 * sum(seconds)
                                               / max(1, sum(r["decisions"] for r in rows)), 1)},
                     indent=1))


if __name__ == "__main__":
    main()
