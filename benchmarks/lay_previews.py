"""Benchmark of the revenue preview per tile lay (``tramways.g1840.analysis.lay_previews``):
prints one JSON object.

Positions: every line turn with tile lays in the recorded 1840 games of ``tests/golden``
(2-6 players, all three maps, the game imported from 18xx.games), the moment the line is to lay.
For each, the time to compute the full list the 1840 page shows: every legal lay of that line
with the change it brings to the line's best run (the exact router, IX.8), from the seat's view
(the board is rebuilt from the view inside the timing, as the server does per page).

Keys: ``median_ms``, ``p90_ms``, ``max_ms`` (wall clock per position), ``cpu_median_ms``
(process CPU time, steadier on a busy machine), ``positions``, ``lays_median``, ``lays_max``,
``slowest`` (game, move number, line, lays). Goal (issue 12): median under 200 ms.
Run: ``.venv/bin/python benchmarks/lay_previews.py``.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from tramways.core import GameRecord, Session
from tramways.g1840.analysis import lay_previews

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def positions() -> list[tuple[str, int, dict, int, list[tuple[str, str, int]]]]:
    out = []
    for path in sorted(GOLDEN.glob("1840-*.json")):
        record = GameRecord.load(str(path))
        session = Session.from_record(record.model_copy(update={"actions": []}))
        game = session.game
        state = session.state
        last_line = None
        for n, text in enumerate(record.actions):
            players = state.current_players()
            if players:
                view = state.view(players[0])
                turn = view.round_info.line_turn
                if turn and turn.line != last_line and not turn.tile_laid:
                    last_line = turn.line
                    legal = [game.format_action(a) for a in state.legal_actions(players[0])]
                    lays = []
                    for a in legal:
                        w = a.split()
                        if len(w) == 5 and w[1] == "lay":
                            lays.append((w[2], w[3], int(w[4][1:])))
                    if lays:
                        out.append((path.stem, n, view, turn.line, lays))
                elif not turn:
                    last_line = None
            action = game.parse_action(text)
            seats = state.seats_for(action)
            state.apply(action, seats[0] if seats else None)
    return out


def main() -> None:
    found = positions()
    walls, cpus, slow = [], [], (0.0, None)
    for name, n, view, line, lays in found:
        c0, w0 = time.process_time(), time.perf_counter()
        lay_previews(view, line, lays)
        wall = (time.perf_counter() - w0) * 1000
        walls.append(wall)
        cpus.append((time.process_time() - c0) * 1000)
        if wall > slow[0]:
            slow = (wall, {"game": name, "move": n, "line": line, "lays": len(lays)})
    walls.sort()
    print(json.dumps({
        "positions": len(found),
        "median_ms": round(statistics.median(walls), 1),
        "p90_ms": round(walls[int(len(walls) * 0.9)], 1),
        "max_ms": round(walls[-1], 1),
        "cpu_median_ms": round(statistics.median(cpus), 1),
        "lays_median": statistics.median(len(p[4]) for p in found),
        "lays_max": max(len(p[4]) for p in found),
        "slowest": slow[1],
    }))


if __name__ == "__main__":
    main()
