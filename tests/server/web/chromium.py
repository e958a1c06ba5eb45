"""Where the browser tests find their browser: Debian's chromium, driven by Playwright through
``executable_path`` (never a browser download), with the flags this closed network needs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TRAMWAYS_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

needs_chromium = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() or shutil.which("chromium")),
    reason="Debian's chromium is not installed (.ci/run installs it)",
)
