"""The reverse differential test (issue 22): our games, exported, in the site's engine.

``python benchmarks/oracle_roundtrip.py [--games N] [--style random|rule|both] [--seed S]
[--keep DIR]`` plays N games per style in our engine under the 18xx.games ruleset (player
counts cycling 2, 3, 3 on the small map, 4, 5, 6; ``random``: the engine's self-play policy,
``rule``: rule bots in every seat), exports each (``tramways export-18xx``), loads and traces
it in the site's engine (the shared oracle's ``oracle.rb``, run as a separate program), then
imports the export with that trace (every figure after every action compared) and checks that
the import is the same game as ours.  It prints one JSON object: per style the games played,
the clean ones, and the classes of the first difference of the others (the site's refusal,
a figure, the round trip) with a count and an example each.  ``--keep DIR`` writes every
game's record and export there.  Needs ``ruby`` and ``../shared/oracle`` (or
``TRAMWAYS_ORACLE``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from tramways.core.record import GameRecord
from tramways.core.selfplay import play_game
from tramways.g1840.interop.export18xx import ExportError18xx, export_record
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.probe import probe
from tramways.g1840.interop.roundtrip import oracle_dir, same_game, trace_with_oracle
from tramways.g1840.interop.trace import read_trace

CYCLE = [(2, False), (3, False), (3, True), (4, False), (5, False), (6, False)]


def play(style: str, players: int, small: bool, seed: int) -> GameRecord:
    settings: dict[str, Any] = {"players": players, "ruleset": "18xx.games", "edition": 2}
    if small:
        settings["small_map"] = True
    policy = None
    if style == "rule":
        from tramways.bots import make_bot
        from tramways.bots.match import bot_policy
        from tramways.g1840.game import GAME

        policy = bot_policy(GAME, [make_bot("rule", GAME) for _ in range(players)], seed)
    return play_game("1840", settings, seed, policy=policy).session.record


def _class(text: str) -> str:
    """A difference without its numbers and names of pieces: its class."""
    text = re.sub(r"action \d+", "action N", text)
    text = re.sub(r"\b[A-Z]\d{1,2}(\.\d)?\b", "HEX", text)
    return re.sub(r"\d+", "N", text)[:140]


def check(record: GameRecord, name: str, work: Path, oracle: Path) -> str | None:
    """``None`` when the game is clean, else its first difference."""
    try:
        document = export_record(record)
    except ExportError18xx as exc:
        return f"export refuses: {exc}"
    path = work / f"{name}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    run = trace_with_oracle(path, work / "out", oracle)
    if run.error is not None:
        return f"site refuses: {run.error.get('message')}"
    result = probe(load_export(path), read_trace(run.trace))
    if result.failure is not None or result.session is None:
        return f"figures: {result.failure}"
    diff = same_game(record, result.session.record)
    return None if diff is None else f"round trip: {diff}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--style", choices=("random", "rule", "both"), default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args(argv)
    oracle = oracle_dir()
    if oracle is None:
        print(json.dumps({"error": "ruby or the shared oracle is missing"}))
        return 2
    styles = ["random", "rule"] if args.style == "both" else [args.style]
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for style in styles:
            classes: Counter[str] = Counter()
            examples: dict[str, str] = {}
            clean = 0
            for k in range(args.games):
                players, small = CYCLE[k % len(CYCLE)]
                seed = args.seed * 1000 + k
                record = play(style, players, small, seed)
                name = f"{style}_{seed}_{players}{'s' if small else 'p'}"
                if args.keep:
                    record.save(work / f"{name}.record.json")
                problem = check(record, name, work, oracle)
                print(json.dumps({"game": name, "problem": problem}), file=sys.stderr,
                      flush=True)  # progress, one line a game
                if problem is None:
                    clean += 1
                    continue
                cls = _class(problem)
                classes[cls] += 1
                examples.setdefault(cls, f"{name}: {problem}"[:300])
            out[style] = {"games": args.games, "clean": clean,
                          "classes": [{"class": c, "count": n, "example": examples[c]}
                                      for c, n in classes.most_common()]}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
