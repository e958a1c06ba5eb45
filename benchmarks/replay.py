"""Replay benchmark: ``python benchmarks/replay.py RECORD`` prints one JSON object.

``actions``: the record's length; ``ms``: the median in-process time to replay the whole record
(after one warm-up); ``ms_per_action``.  Without RECORD, a 4-player selfplay game (seed 1) is
generated and used.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.core.selfplay import play_game


def main(argv: list[str]) -> int:
    if len(argv) > 1:
        record = GameRecord.load(argv[1])
    else:
        record = play_game("1840", {"players": 4}, 1).session.record
    Session.from_record(record)  # warm-up (loads data and caches)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        Session.from_record(record)
        times.append((time.perf_counter() - start) * 1000)
    ms = statistics.median(times)
    n = len(record.actions)
    print(json.dumps({"game": record.game, "actions": n, "ms": round(ms, 2),
                      "ms_per_action": round(ms / max(n, 1), 4)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
