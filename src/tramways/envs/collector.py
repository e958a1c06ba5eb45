"""Python's garbage collector in a process that steps environments (docs/environments.md, the
last round of the step's speed).

A random 1840 step allocates and frees its listings at once (reference counting frees them;
the environment's per-step objects hold no reference cycles), but the engine's memories (the
per-hex lay memos, the shared actions, the reaches) keep growing for a while, and Python
counts what they keep as newly long-lived: a young collection about every 80 steps and now
and then a *full* one, which walks every object the collector tracks, the modules and the
action catalogue (49,178 keys) included.  Counted by callgrind over 10,000 random
``raw_env.step`` of 1840 with 4 players, the collector was about 6% of the step's
instructions.

:func:`collector_tuned` is opt-in, for a process that does little else (a training loop, a
benchmark, a vectorised environment's worker): it collects once, freezes what exists by then
(``gc.freeze()``: the imports, the catalogue, the engines' tables; never walked again) and
sets the thresholds of :data:`THRESHOLDS`; the block's end restores the thresholds and
unfreezes.  Measured (docs/environments.md): -2.2% of the instructions, about 10% less CPU
time a random step.  The environments never change the collector themselves (the server does the
same for its own process: :mod:`tramways.server.gctune`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (10_000, 10, 10)
"""Generation 0 collected after 10,000 net new tracked objects instead of 700 (a step's
transient objects are freed by reference counting; what stays are the engines' bounded
memories); generations 1 and 2 as Python's defaults."""


@contextmanager
def collector_tuned(thresholds: tuple[int, int, int] = THRESHOLDS) -> Iterator[int]:
    """Within the block: everything made before it frozen and ``thresholds`` set; gives the
    number of objects frozen.  After it the thresholds are as before and the frozen objects
    back in the oldest generation (unless the process had frozen objects before the block:
    then they all stay frozen, as Python cannot tell them apart)."""
    before = gc.get_threshold()
    frozen_before = gc.get_freeze_count() > 0  # a process that froze its own: left frozen
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    try:
        yield gc.get_freeze_count()
    finally:
        gc.set_threshold(*before)
        if not frozen_before:
            gc.unfreeze()
