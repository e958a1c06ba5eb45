"""Server processes started together on a fresh database migrate under a lock
(``storage.migration_lock``): before it, two ``tramways serve`` on a new SQLite file could
both create the tables and one died with "table games already exists" (issue 29)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.server.conftest import free_port, stop_server, wait_healthy

_MIGRATE_AT = """
import sys, time
from tramways.server.storage import migrate
start = float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
migrate(sys.argv[1])
"""


def _migrate_together(url: str, count: int) -> list[subprocess.CompletedProcess[str]]:
    """``count`` processes that call ``migrate(url)`` at the same instant (each imports
    first, then sleeps until a common start)."""
    start = time.time() + 4.0
    procs = [subprocess.Popen([sys.executable, "-c", _MIGRATE_AT, url, str(start)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(count)]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_processes_migrating_a_fresh_sqlite_file_at_once_all_succeed(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    for done in _migrate_together(url, 4):
        assert done.returncode == 0, done.stderr
    assert {"games", "seats", "actions", "log", "alembic_version"} <= _tables(url)
    assert (tmp_path / "fresh.sqlite3.migrate-lock").exists()


def test_processes_migrating_a_fresh_postgres_database_at_once_all_succeed(db_url: str):
    if not db_url.startswith("postgresql"):
        pytest.skip("the SQLite case is the test above")
    import uuid

    base = sa.engine.make_url(db_url)
    name = f"tramways_mig_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    fresh = base.set(database=name).render_as_string(hide_password=False)
    try:
        for done in _migrate_together(fresh, 4):
            assert done.returncode == 0, done.stderr
        assert {"games", "seats", "actions", "log"} <= _tables(fresh)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.dispose()


def test_two_servers_started_together_on_a_fresh_sqlite_file_both_serve(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'together.sqlite3'}"
    ports = [free_port(), free_port()]
    procs = [subprocess.Popen([sys.executable, "-m", "tramways", "serve", "--port", str(port),
                               "--database", url],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
             for port in ports]
    try:
        for proc, port in zip(procs, ports, strict=True):
            try:
                wait_healthy(f"http://127.0.0.1:{port}", proc)
            except RuntimeError:
                raise AssertionError(proc.communicate(timeout=30)[1]) from None
    finally:
        for proc in procs:
            stop_server(proc)
