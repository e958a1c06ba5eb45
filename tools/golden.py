"""Golden records: finished games whose final figures must not change unnoticed.

``tests/golden/*.json`` are whole records (every 1840 player count 2-6, the small 3-player map,
the 2-player map, a game imported from 18xx.games, a Trambahn game, a game of each ended by a
resignation); ``tests/golden/figures.json``
holds the figures each replays to.  ``tests/test_golden.py`` replays them in CI and compares.

    python tools/golden.py            # compare, print the records whose figures differ
    python tools/golden.py --write    # store the figures of today's engine (a deliberate
                                      # change: commit it on its own, saying why)
    python tools/golden.py --new      # (re)make the selfplay records, then --write

A record made here is played by the games' own selfplay policies under the newest edition of
the rulings (R-VERSION-1); the imported one comes from ``../shared`` via ``import-18xx``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tramways.core.game import view_json
from tramways.core.record import GameRecord
from tramways.core.replay import Session

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
FIGURES = GOLDEN / "figures.json"
ORACLE = (Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "1840" / "oracle"
          / "2player.json")

SELFPLAY: dict[str, tuple[str, dict[str, Any], int]] = {
    "1840-2p-two-player-map": ("1840", {"players": 2}, 101),
    "1840-3p-full-map": ("1840", {"players": 3}, 102),
    "1840-3p-small-map": ("1840", {"players": 3, "small_map": True}, 103),
    "1840-4p": ("1840", {"players": 4}, 104),
    "1840-5p": ("1840", {"players": 5}, 105),
    "1840-6p": ("1840", {"players": 6}, 106),
    "trambahn": ("trambahn", {}, 107),
}
RESIGNED: dict[str, tuple[str, dict[str, Any], int, int, int]] = {
    "1840-4p-resigned": ("1840", {"players": 4}, 108, 300, 2),
    "trambahn-resigned": ("trambahn", {}, 109, 100, 0),
}
"""Games ended by a resignation (docs/async.md): selfplay for the given number of actions,
then the given seat (0-based), not the one to act and ahead of others, resigns: 1840's P3
second by wealth in LR4a, Trambahn's P1 leading 16 to 0 in P2's turn."""
IMPORTED = "1840-2p-imported-18xx-games-133875"
TRAMBAHN_FIGURES = ("columns", "rows", "history", "scores", "money_sizes", "hand_sizes",
                    "deck_size", "discard_size", "display", "stack", "reshuffles")


def figures(record: GameRecord) -> dict[str, Any]:
    """What a finished record replays to, in plain JSON: the game's figures (money, holdings,
    prices, tiles, cards), not the wording of its log or view."""
    state = Session.from_record(record).state
    out: dict[str, Any] = {
        "actions": len(record.actions),
        "finished": state.is_over(),
        "result": state.outcome().to_json() if state.is_over() else None,
    }
    view = view_json(state.view(None))
    if record.game == "1840":
        out["players"] = [{k: p[k] for k in ("cash", "loans", "shares", "privates", "value")}
                          for p in view["players"]]
        out["companies"] = {c: {k: d[k] for k in ("price", "treasury", "lines", "trams",
                                                  "privates", "ipo", "pool")}
                            for c, d in view["companies"].items()}
        out["stadtbahn"] = {s: {k: d[k] for k in ("price", "ipo", "pool", "last_run")}
                            for s, d in view["stadtbahn"].items()}
        out["market"] = view["market"]
        out["tiles"] = view["tiles"]
        out["round"] = view["round"]
    else:  # the game's figures, not the view's wording
        out["view"] = {k: view[k] for k in TRAMBAHN_FIGURES}
    return out


def golden_records() -> dict[str, GameRecord]:
    return {path.stem: GameRecord.load(path) for path in sorted(GOLDEN.glob("*.json"))
            if path.name != FIGURES.name}


def make_resigned() -> None:
    """The records of :data:`RESIGNED`: played, then ended by a resignation out of turn."""
    from tramways.core.selfplay import play_game

    for name, (game, settings, seed, moves, seat) in RESIGNED.items():
        played = play_game(game, settings, seed, max_actions=moves)
        session = played.session
        if played.finished:
            raise SystemExit(f"{name}: seed {seed} ended before {moves} actions")
        resign = session.game.resignation(seat)
        assert resign is not None
        session.play(resign, seat=seat)
        session.record.meta["golden"] = (f"selfplay seed {seed}, {moves} actions, then seat "
                                         f"{seat + 1} resigns (tools/golden.py)")
        session.record.save(GOLDEN / f"{name}.json")


def make_records() -> None:
    from tramways.core.selfplay import play_game

    GOLDEN.mkdir(parents=True, exist_ok=True)
    make_resigned()
    for name, (game, settings, seed) in SELFPLAY.items():
        outcome = play_game(game, settings, seed)
        if not outcome.finished:
            raise SystemExit(f"{name}: seed {seed} did not finish; choose another")
        outcome.session.record.meta["golden"] = f"selfplay seed {seed} (tools/golden.py)"
        outcome.session.record.save(GOLDEN / f"{name}.json")
    if ORACLE.exists():
        from tramways.cli import main

        if main(["import-18xx", str(ORACLE), "-o", str(GOLDEN / f"{IMPORTED}.json")]):
            raise SystemExit("import-18xx failed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store today's figures")
    parser.add_argument("--new", action="store_true", help="make the records, then --write")
    args = parser.parse_args(argv)
    if args.new:
        make_records()
    now = {name: figures(record) for name, record in golden_records().items()}
    if args.new or args.write:
        FIGURES.write_text(json.dumps(now, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                           encoding="utf-8")
        print(f"wrote {FIGURES} ({len(now)} records)")
        return 0
    stored = json.loads(FIGURES.read_text(encoding="utf-8"))
    changed = sorted(n for n in now.keys() | stored.keys() if now.get(n) != stored.get(n))
    for name in changed:
        print(f"changed: {name}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
