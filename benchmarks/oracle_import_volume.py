"""Fresh site games imported with ``--check`` in volume (issue 22, the import direction).

``python benchmarks/oracle_import_volume.py --games N [--style random|realistic|both]
[--seed S] [--dir DIR] [--no-generate] [--time-limit SECONDS]`` generates N games per style in
the site's engine with the shared oracle's generator (``ruby fuzz.rb DIR/STYLE SEED N``, with
``POLICY=realistic`` for the realistic style; player counts cycle 2, 3, 3 on the small map,
4, 5, 6), then imports each game's export with its trace (every figure after every processed
action compared, as ``tramways import-18xx --check`` does).  It prints one JSON object: per
style the seed, the games, the clean ones, the CPU seconds of generation and of import, and
the classes of the first differences of the others with a count and an example each.

``--no-generate`` imports what ``DIR/STYLE`` already holds (``fz*.json`` with their traces),
so that generation can run beforehand in batches (``nice -n 10 ruby fuzz.rb`` in the
background: it takes from one to a hundred seconds a game).  The realistic style uses seed
``S + 1`` (the generator's names get an ``r``).  Needs ``ruby`` and ``../shared/oracle`` (or
``TRAMWAYS_ORACLE``) to generate; importing needs neither.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.roundtrip import oracle_dir
from tramways.g1840.interop.trace import read_trace

_NAME = re.compile(r"^fz\d+r?u?_(\d+)_\dps?\.json$")


def _class(text: str) -> str:
    """A difference without its numbers and names of pieces: its class."""
    text = re.sub(r"action \d+", "action N", text)
    text = re.sub(r"\b[A-Z]\d{1,2}(\.\d)?\b", "HEX", text)
    return re.sub(r"\d+", "N", text)[:140]


def generate(oracle: Path, out: Path, style: str, seed: int, games: int,
             time_limit: float | None) -> float:
    """``ruby fuzz.rb`` into ``out``; returns its CPU seconds (children's)."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    if style == "realistic":
        env["POLICY"] = "realistic"
    if time_limit is not None:
        env["TIME_LIMIT"] = str(time_limit)
    before = os.times()
    subprocess.run(["nice", "-n", "10", "ruby", "fuzz.rb", str(out.resolve()), str(seed),
                    str(games)], cwd=oracle, env=env, check=True, capture_output=True)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def exports_in(folder: Path) -> list[Path]:
    """The generated exports of ``folder`` in game order (those whose trace is complete: the
    generator writes the summary last)."""
    found = [p for p in folder.glob("fz*.json") if _NAME.match(p.name)
             and p.with_name(p.name.removesuffix(".json") + ".summary.json").exists()]
    return sorted(found, key=lambda p: int(_NAME.match(p.name).group(1)))  # type: ignore[union-attr]


def check_one(path: Path) -> str | None:
    """``None`` when the export imports cleanly against its trace, else the first problem."""
    trace_path = path.with_name(path.name.removesuffix(".json") + ".trace.jsonl")
    try:
        export = load_export(path)
        trace = read_trace(trace_path)
        import_export(export, trace)
    except TramwaysError as exc:
        return str(exc)
    return None


def import_all(folder: Path) -> dict[str, Any]:
    """Import every export of ``folder`` with ``--check``: the counts and classes."""
    classes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    names: dict[str, list[str]] = {}
    clean = 0
    paths = exports_in(folder)
    start = time.process_time()
    for path in paths:
        problem = check_one(path)
        if problem is None:
            clean += 1
            continue
        cls = _class(problem)
        classes[cls] += 1
        examples.setdefault(cls, f"{path.name}: {problem}"[:400])
        names.setdefault(cls, []).append(path.name)
    return {"games": len(paths), "clean": clean,
            "import_cpu_s": round(time.process_time() - start, 1),
            "classes": [{"class": c, "count": n, "example": examples[c], "games": names[c]}
                        for c, n in classes.most_common()]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--style", choices=("random", "realistic", "both"), default="both")
    parser.add_argument("--seed", type=int, default=3301)
    parser.add_argument("--dir", type=Path, default=Path("oracle-volume"))
    parser.add_argument("--no-generate", action="store_true")
    parser.add_argument("--time-limit", type=float)
    args = parser.parse_args(argv)
    styles = ["random", "realistic"] if args.style == "both" else [args.style]
    oracle = oracle_dir()
    if oracle is None and not args.no_generate:
        print(json.dumps({"error": "ruby or the shared oracle is missing"}))
        return 2
    out: dict[str, Any] = {}
    for style in styles:
        seed = args.seed + (1 if style == "realistic" else 0)
        folder = args.dir / style
        entry: dict[str, Any] = {"seed": seed}
        if not args.no_generate and oracle is not None:
            entry["generate_cpu_s"] = round(
                generate(oracle, folder, style, seed, args.games, args.time_limit), 1)
        entry.update(import_all(folder))
        out[style] = entry
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
