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
