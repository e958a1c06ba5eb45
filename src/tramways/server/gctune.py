"""The garbage collector of a server process (``tramways serve``; docs/load.md).

Python's cyclic garbage collector stops the whole process while it runs: the event loop, every
request thread, the ``LISTEN`` thread.  A *full* collection (generation 2) walks every live
object the collector tracks.  In a server process holding 1,000 cached Trambahn positions
beside the web stack that was some 300,000 objects and **220-320 ms of CPU** a collection
(measured with ``gc.callbacks`` in both processes of ``benchmarks/server_load.py``), once every
12-15 s at 200 moves a second; every one of them found nothing to free.  They made the tail
of the move latencies (p99 near 100 ms, the slowest moves 400 ms and more).

Why so often: a position replaced by a move is freed at once by reference counting (positions
hold no reference cycles: a dropped clone of an 1840 position, after a move too, leaves no
cyclic garbage), but Python counts the new position's objects as newly long-lived, and runs a
full collection whenever those exceed a quarter of the long-lived objects.  A process that
follows 200 moves a second gets there in seconds.

What :func:`tune` does, once the server has started (after the warm start):

- ``gc.freeze()``: everything start-up made (modules, the web stack, compiled templates, the
  engines' tables; some 130,000 objects) moves to the permanent generation, which collections
  never walk.  Those objects stay for the life of the process anyway.  A full collection then
  walks only what came after (the positions, the connections): in a process with 1,000
  cached games 52-65 ms against 140 ms of CPU, measured in-process.
- ``gc.set_threshold(700, 10, 1000)``: the young generations as Python's defaults (their
  collections are short: a few ms), but a full collection only after 1,000 collections of
  generation 1 instead of 10 (about every 14 minutes at 200 moves a second, against every
  13 s).  The cyclic garbage that reaches the old generation (rare: an exception's frames
  that lived long, a replay's session) waits that long to be freed.

The tests leave the collector as it is (``ServerSettings.gc_tuning`` is off unless ``tramways
serve`` starts the server).
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (700, 10, 1000)
"""The collector's thresholds in a server process: generation 0 and 1 as Python's defaults,
generation 2 after 1,000 collections of generation 1 (Python's default: 10)."""


def tune(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> int:
    """Collect once, freeze what is left (start-up's objects: never walked again) and set
    ``thresholds``; the number of objects frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    return gc.get_freeze_count()
