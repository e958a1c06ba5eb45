"""Fixtures of the server tests.

- ``db_url``: a fresh SQLite file always; PostgreSQL too when ``TRAMWAYS_TEST_POSTGRES_URL`` is
  set (``.ci/run`` starts a throwaway cluster and sets it), otherwise that case skips.
- ``client``: the app in process (Starlette's TestClient, HTTP and WebSocket), rate limits off.
- ``live_server`` (session): a real ``tramways serve`` process (uvicorn) on a free loopback
  port with a temporary SQLite database and seeded bots (``--bot-seed 1``); yields its base URL
  (the pages' browser tests use it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

POSTGRES_ENV = "TRAMWAYS_TEST_POSTGRES_URL"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(base: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"tramways serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("tramways serve did not answer /healthz")


def start_server(
    database: str, port: int | None = None, *args: str, env: dict[str, str] | None = None,
    stderr: Any = subprocess.DEVNULL,
) -> tuple[subprocess.Popen, str]:
    """Start ``tramways serve`` on loopback (more options in ``args``, more environment in
    ``env``, its error output to ``stderr``); return the process and its base URL."""
    port = port or free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tramways", "serve", "--port", str(port), "--database", database,
         *args],
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env={**os.environ, **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, base


def stop_server(proc: subprocess.Popen) -> None:
    """Stop a process :func:`start_server` started (killed if it does not end in 10 s)."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("live_server")
    # seeded bots: a seeded game plays alike on every run (no flake from the bots' choices)
    proc, base = start_server(f"sqlite:///{folder / 'tramways.sqlite3'}", None, "--bot-seed", "1")
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    return url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


def make_client(url: str):
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    # whole games are played as fast as the test can: the rate limits are tested on their own
    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, bot_games_per_hour=0,
                                                max_bot_games=0)))


@pytest.fixture
def client(db_url: str) -> Iterator:
    with make_client(db_url) as c:
        yield c


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator:
    with make_client(sqlite_url) as c:
        yield c
