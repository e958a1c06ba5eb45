"""The server process's garbage collector (``server.gctune``, docs/load.md): start-up's
objects frozen and full collections rare under ``tramways serve``; the tests' processes keep
Python's collector unless asked."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tramways.server import ServerSettings, create_app
from tramways.server.gctune import GC_THRESHOLDS, tune


@pytest.fixture
def restored_gc() -> Iterator[None]:
    """Whatever a test does to the collector is undone after it."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tune_freezes_what_is_alive_and_sets_the_thresholds(restored_gc):
    kept = [{"a": [1, 2]} for _ in range(1000)]  # alive: frozen with the rest
    frozen = tune()
    assert frozen == gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == GC_THRESHOLDS == (700, 10, 1000)
    assert not any(obj is kept[0] for obj in gc.get_objects())  # frozen: never walked


def test_frozen_objects_are_still_freed_by_reference_counting(restored_gc):
    import weakref

    class Position:
        pass

    position = Position()
    gone = weakref.ref(position)
    tune()
    del position  # a cached position replaced by a move: no collection needed to free it
    assert gone() is None


def test_cyclic_garbage_made_after_the_freeze_is_still_collected(restored_gc):
    tune((700, 10, 10))
    a: list = []
    a.append(a)
    del a
    assert gc.collect() >= 1


def test_serve_settings_tune_the_collector_and_tests_do_not(tmp_path, restored_gc):
    url = f"sqlite:///{tmp_path}/g.sqlite3"
    with TestClient(create_app(ServerSettings(database_url=url))) as plain:
        assert plain.get("/healthz").status_code == 200
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() != GC_THRESHOLDS
    settings = ServerSettings(database_url=url, gc_tuning=True, gc_thresholds=(700, 10, 500))
    with TestClient(create_app(settings)) as tuned:
        assert tuned.get("/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000  # the web stack, the engines, the app
        assert gc.get_threshold() == (700, 10, 500)


def test_the_settings_reach_worker_processes_as_json():
    import json

    from tramways.server.app import settings_to_env

    raw = json.loads(settings_to_env(ServerSettings(database_url="sqlite://", gc_tuning=True)))
    assert raw["gc_tuning"] is True and raw["gc_thresholds"] == [700, 10, 1000]
