"""The per-process cache of positions is bounded (``ServerSettings.cache_games``): the least
recently used games are forgotten and rebuilt from their records when asked for again."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import auth, new_game, token_of
from tramways.server import ServerSettings, create_app
from tramways.server.service import LRU


def test_an_lru_keeps_the_most_recently_used_entries():
    lru = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recently used
    lru.put("c", 3)
    assert lru.keys() == ["a", "c"] and lru.get("b") is None and len(lru) == 2
    lru.pop("a")
    assert lru.keys() == ["c"]
    with pytest.raises(ValueError):
        LRU(0)


def test_the_server_keeps_at_most_cache_games_positions_and_rebuilds_the_others(sqlite_url):
    settings = ServerSettings(database_url=sqlite_url, cache_games=3, moves_per_second=0,
                              games_per_minute=0)
    with TestClient(create_app(settings)) as c:
        service = c.app.state.service
        games = [new_game(c) for _ in range(5)]
        for g in games:
            assert c.get(f"/api/games/{g['id']}").status_code == 200
        assert len(service._cache) == 3
        assert service._cache.keys() == [g["id"] for g in games[2:]]
        # the first game was forgotten: it is still played, from its record
        first, t1 = games[0]["id"], token_of(games[0], 1)
        state = c.get(f"/api/games/{first}", headers=auth(t1)).json()
        r = c.post(f"/api/games/{first}/moves", json={"n": 0, "action": state["legal"][0]},
                   headers=auth(t1))
        assert r.status_code == 200 and r.json()["n"] == 1
        assert len(service._cache) == 3 and first in service._cache
        assert games[2]["id"] not in service._cache  # now the least recently used went
        assert c.get(f"/api/games/{games[2]['id']}").json()["n"] == 0
        # the write locks of games nobody is moving are not kept
        assert len(service._locks) <= 1


def test_a_position_behind_the_database_catches_up_by_the_new_moves_only(db_url):
    """Two services on one database stand for two server processes: moves made through one
    reach the other's cached position by reading and playing the new moves only (no replay of
    the whole record); after an undo the other process replays the record.  Either way its
    payloads equal those of a process that never cached the game."""
    from tramways.server.service import GameService
    from tramways.server.storage import Store

    store_a, store_b, store_c = Store(db_url), Store(db_url), Store(db_url)
    a, b = GameService(store_a), GameService(store_b)
    try:
        created = a.create("trambahn", {}, ["human", "human"])
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        a.state(gid, 1)  # A caches the game at move 0
        assert a.wait_for_bots()  # (a new game's look for bots to play is over)
        rebuilds = []
        real = a._rebuild
        a._rebuild = lambda g: (rebuilds.append(g), real(g))[1]  # type: ignore[method-assign]

        def play(service: GameService, count: int) -> None:
            for _ in range(count):
                spectator = service.state(gid, None)
                seat = spectator["to_act"][0]
                state = service.state(gid, service.seat_for(gid, tokens[seat - 1]))
                service.move(gid, seat, state["n"], state["legal"][0])

        def same_as_fresh() -> None:
            fresh = GameService(store_c)
            try:
                for seat in (None, 1, 2):
                    assert a.state(gid, seat) == fresh.state(gid, seat)
            finally:
                fresh.close()

        play(b, 7)
        assert a.state(gid, None)["n"] == 7 and rebuilds == []  # caught up, not rebuilt
        same_as_fresh()
        play(a, 2)
        play(b, 3)
        assert a.state(gid, 1)["n"] == 12 and rebuilds == []
        same_as_fresh()
        # a move and its undo through B, then a move: A replays the record
        seat = b.state(gid, None)["to_act"][0]
        mine = b.state(gid, seat)
        quiet = [m for m in mine["legal"] if not m.endswith(" end")]  # reveals nothing
        b.move(gid, seat, mine["n"], quiet[0])
        b.undo(gid, seat, mine["n"] + 1, 1)
        play(b, 1)
        assert a.state(gid, None)["n"] == 13 and rebuilds == [gid]
        same_as_fresh()
    finally:
        a.close()
        b.close()
        for s in (store_a, store_b, store_c):
            s.close()


def test_an_lru_with_a_budget_keeps_entries_weighing_at_most_the_budget():
    lru = LRU(100, budget=10, weigh=len)
    lru.put("a", "xxxx")
    lru.put("b", "xxxx")
    assert lru.weight == 8 and lru.keys() == ["a", "b"]
    assert lru.get("a") == "xxxx"  # a is the most recently used now
    lru.put("c", "xxx")  # 11 > 10: the least recently used (b) goes
    assert lru.keys() == ["a", "c"] and lru.weight == 7
    lru.put("a", "x")  # a replaced: its old weight is given back
    assert lru.weight == 4 and lru.keys() == ["c", "a"]
    lru.put("big", "x" * 50)  # over the budget alone: the newest always stays
    assert lru.keys() == ["big"] and lru.weight == 50
    lru.pop("big")
    assert len(lru) == 0 and lru.weight == 0
    with pytest.raises(ValueError):
        LRU(1, budget=-1)


def test_the_server_keeps_positions_within_cache_bytes(sqlite_url):
    from tramways.server.cache import position_bytes

    new = position_bytes("trambahn", 0)
    settings = ServerSettings(database_url=sqlite_url, cache_bytes=3 * new + 100,
                              moves_per_second=0, games_per_minute=0)
    with TestClient(create_app(settings)) as c:
        service = c.app.state.service
        games = [new_game(c) for _ in range(5)]
        for g in games:
            assert c.get(f"/api/games/{g['id']}").status_code == 200
        assert service._cache.keys() == [g["id"] for g in games[2:]]  # three fit
        assert service._cache.weight == 3 * new
        # a move makes the position heavier: the least recently used makes room for it
        first, t1 = games[2]["id"], token_of(games[2], 1)
        state = c.get(f"/api/games/{first}", headers=auth(t1)).json()
        r = c.post(f"/api/games/{first}/moves", json={"n": 0, "action": state["legal"][0]},
                   headers=auth(t1))
        assert r.status_code == 200
        assert service._cache.weight <= settings.cache_bytes
        assert first in service._cache and games[3]["id"] not in service._cache
        # a forgotten game is still served, rebuilt from its record
        assert c.get(f"/api/games/{games[0]['id']}").json()["n"] == 0


def _measured(record, upto: int) -> int:
    """The memory a replayed position (state, actions, log) takes, by ``tracemalloc``."""
    import gc
    import tracemalloc

    from tramways.games import get_game

    def build():  # type: ignore[no-untyped-def]
        game = get_game(record.game)
        state = game.new_state(record.settings, record.setup, record.seed)
        acts, lines = [], []
        for text in record.actions[:upto]:
            action = game.parse_action(text)
            lines.extend(state.apply(action, None))
            acts.append(action)
        return state, acts, lines

    build()  # the game's shared tables are loaded once, outside the measure
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        kept = build()
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del kept
    return size


@pytest.mark.parametrize("name", ["1840-2p-two-player-map.json", "1840-5p.json",
                                  "1840-2p-imported-18xx-games-133875.json", "trambahn.json"])
def test_the_position_estimate_is_at_most_2_times_under_and_6_times_over(name):
    """``cache.position_bytes`` against positions of the golden games measured in the middle
    and at the end (the estimate the memory budget counts with)."""
    from pathlib import Path

    from tramways.core import GameRecord
    from tramways.server.cache import position_bytes

    record = GameRecord.load(str(Path(__file__).resolve().parents[1] / "golden" / name))
    uptos = (len(record.actions) // 2, len(record.actions))
    for upto, measured in zip(uptos, _measured_fresh(name, uptos), strict=True):
        estimate = position_bytes(record.game, upto)
        assert measured / 2 <= estimate <= 6 * measured, (upto, measured, estimate)


def _measured_fresh(name: str, uptos: tuple[int, ...]) -> list[int]:
    """:func:`_measured` in a new process: the engine's memos keyed by a board's version
    (bounded, cleared at their limit) take each replay's entries, so in a process that ran
    other tests a memo cleared during the measure made the 5-player game's position 90,750
    bytes where a new process measures 109,966 (a .ci/run on f93b991)."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = ("import json, sys; from tramways.core import GameRecord; "
            "from tests.server.test_cache import _measured; "
            f"r = GameRecord.load({str(root / 'tests' / 'golden' / name)!r}); "
            f"print(json.dumps([_measured(r, n) for n in {list(uptos)!r}]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return [int(x) for x in json.loads(done.stdout.strip().splitlines()[-1])]
