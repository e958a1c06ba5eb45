"""``tramways serve``: its options, and a bad database is one line and exit code 2."""

from __future__ import annotations

import subprocess
import sys


def test_serve_help_names_host_port_and_database():
    out = subprocess.run([sys.executable, "-m", "tramways", "serve", "--help"],
                         capture_output=True, text=True, check=True).stdout
    assert "--host" in out and "--port" in out and "--database" in out
    assert "--workers" in out and "--moves-per-second" in out and "--games-per-minute" in out
    for option in ("--timeout-headers", "--timeout-keep-alive", "--timeout-graceful-shutdown",
                   "--limit-concurrency", "--h11-max-incomplete-event-size",
                   "--ws-max-message-bytes", "--forwarded-allow-ips", "--cache-mb"):
        assert option in out


def test_serve_with_an_unusable_database_says_so_in_one_line(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "tramways", "serve", "--database",
         f"sqlite:///{tmp_path}/missing/folder/db.sqlite3"],
        capture_output=True, text=True, timeout=60,
    )
    assert r.returncode == 2
    assert r.stderr.startswith("error: cannot open the database") and r.stderr.count("\n") == 1
