"""The worker processes of ``tramways serve --workers N`` end with their parent.

uvicorn's parent process watches its workers, but a worker does not watch its parent: after
``kill -9`` of the parent its workers went on serving the port, unsupervised.  Each
worker now asks the kernel for a signal when its parent dies (Linux ``prctl
PR_SET_PDEATHSIG``: a ``SIGTERM``, which uvicorn answers with its graceful shutdown); where
that is not available a daemon thread looks at ``os.getppid()`` every second.  A parent that
died before the worker asked is noticed at once (the worker's parent is no longer the one
named in ``$TRAMWAYS_SERVE_PARENT``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading

PARENT_ENV = "TRAMWAYS_SERVE_PARENT"
"""The process id of the ``tramways serve`` parent, set for its workers."""
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _ask_the_kernel() -> bool:
    """Linux: ``SIGTERM`` to this process when its parent dies; ``False`` if not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int, every: float = 1.0) -> None:
    while True:
        threading.Event().wait(every)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)
            return


def die_with_parent(parent: int | None = None) -> None:
    """Make this worker end when ``parent`` (default: ``$TRAMWAYS_SERVE_PARENT``) does;
    nothing when no parent is named (a single-process server)."""
    if parent is None:
        named = os.environ.get(PARENT_ENV, "")
        if not named.isdigit():
            return
        parent = int(named)
    if not _ask_the_kernel():
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # it died before we asked: nothing will tell us
        os._exit(0)
