"""Benchmark of the board drawing (``tramways.g1840.render``): prints one JSON object.

* ``svg_ms``: median time of :func:`render_svg` for the empty main map (148 hexes), the empty
  2-player map (89 hexes) and the last position of the reference game's trace (a crowded
  2-player board, when ``../shared`` is present), with the size of the SVG;
* ``png_ms``: the same boards rasterised by cairosvg at scale 1.5 (when it is installed).

Run: ``.venv/bin/python benchmarks/render.py``.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.render import render_png, render_svg

REPO = Path(__file__).resolve().parents[1]
TRACE = REPO.parent / "shared" / "reference" / "1840" / "oracle" / "2player.trace.jsonl"


def median_ms(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def boards() -> dict[str, Board]:
    found = {
        "full_empty": Board(load_layout("full")),
        "two_player_empty": Board(load_layout("two_player")),
    }
    if TRACE.is_file():
        from tramways.g1840.interop.trace_positions import iter_positions

        last = None
        for _, _, board in iter_positions(TRACE):
            last = board
        if last is not None:
            found["oracle_2player_final"] = last
    return found


def main() -> None:
    result: dict[str, Any] = {"svg_ms": {}, "svg_bytes": {}, "png_ms": {}, "png_bytes": {}}
    try:
        import cairosvg  # noqa: F401

        has_png = True
    except (ImportError, OSError):
        has_png = False
    for name, board in boards().items():
        result["svg_ms"][name] = median_ms(lambda b=board: render_svg(b, phase="green"), 5)
        result["svg_bytes"][name] = len(render_svg(board, phase="green").encode("utf-8"))
        if has_png:
            result["png_ms"][name] = median_ms(lambda b=board: render_png(b, scale=1.5), 3)
            result["png_bytes"][name] = len(render_png(board, scale=1.5))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
