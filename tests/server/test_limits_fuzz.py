"""Limits and bad input: body size (413), per-token and per-address rate limits (429 with
Retry-After), and a Hypothesis fuzz of every API endpoint: malformed requests get a 4xx,
never a 500, and change nothing in the database."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import make_client
from tests.server.helpers import auth, new_game, token_of


def _client(url: str, **kw):
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    return TestClient(create_app(ServerSettings(database_url=url, **kw)))


def test_a_body_over_the_limit_is_413_and_the_game_unchanged(sqlite_url):
    with _client(sqlite_url, max_body_bytes=2048) as c:
        created = new_game(c)
        gid, t1 = created["id"], token_of(created, 1)
        legal = c.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
        big = json.dumps({"n": 0, "action": legal[0], "pad": "x" * 5000})
        r = c.post(f"/api/games/{gid}/moves", content=big, headers={
            **auth(t1), "content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"] == "too_large"

        def chunks():  # no Content-Length: counted while it arrives
            for _ in range(10):
                yield b"x" * 1000

        r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert c.get(f"/api/games/{gid}").json()["n"] == 0


def test_moves_of_one_seat_beyond_its_bucket_are_429_with_retry_after(sqlite_url):
    with _client(sqlite_url, moves_per_second=0.01, move_burst=2) as c:
        created = new_game(c)
        gid, t1, t2 = created["id"], token_of(created, 1), token_of(created, 2)
        codes = []
        for _ in range(3):  # stale moves still count: the bucket limits requests
            r = c.post(f"/api/games/{gid}/moves", json={"n": 7, "action": "P1 end"},
                       headers=auth(t1))
            codes.append(r.status_code)
        assert codes == [409, 409, 429]
        assert r.json()["error"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        # another seat has its own bucket; a spectator's refusal is 403 as ever
        r = c.post(f"/api/games/{gid}/moves", json={"n": 7, "action": "P2 end"}, headers=auth(t2))
        assert r.status_code == 409
        assert c.get(f"/api/games/{gid}").json()["n"] == 0


def test_game_creation_beyond_the_address_bucket_is_429(sqlite_url):
    with _client(sqlite_url, games_per_minute=1, game_burst=2) as c:
        new_game(c)
        new_game(c)
        r = c.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"]})
        assert r.status_code == 429 and "Retry-After" in r.headers


def test_rate_limiter_refills_over_time():
    from tramways.server.errors import ApiError
    from tramways.server.limits import RateLimiter

    lim = RateLimiter(2.0, 2, what="moves")
    lim.hit("a", now=0.0)
    lim.hit("a", now=0.0)
    with pytest.raises(ApiError) as exc:
        lim.hit("a", now=0.1)
    assert exc.value.status == 429
    lim.hit("a", now=0.6)  # half a second at 2/s: one more
    lim.hit("b", now=0.6)  # each key has its own bucket


# -- the fuzz ---------------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
# Bodies shaped like the real ones, with wrong values, and bodies that are not JSON at all.
_bodies = st.one_of(
    _json.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),
    st.fixed_dictionaries({}, optional={
        "game": _json | st.sampled_from(["trambahn", "1840"]),
        "settings": _json, "seats": _json | st.lists(st.sampled_from(
            ["human", "bot:rule", "bot:x", ""]), max_size=8),
        "names": _json, "n": _json | st.integers(-2**70, 2**70), "action": _json,
        "count": _json, "tokens": _json,
    }).map(lambda v: json.dumps(v).encode()),
)
_ids = st.one_of(st.just("GID"), st.text(min_size=1, max_size=40).filter(
    lambda s: "/" not in s and "?" not in s and "#" not in s and s not in (".", "..")))
_tokens = st.one_of(st.none(), st.just("T1"), st.text(max_size=40))


def _counts(c) -> tuple:
    store = c.app.state.store
    import sqlalchemy as sa

    from tramways.server.storage import actions, games, log, seats

    with store.engine.connect() as conn:
        return tuple(conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
                     for t in (games, seats, actions, log)) + tuple(
            conn.execute(sa.select(games.c.id, games.c.rev, games.c.n).order_by(games.c.id)).all())


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
    with _client(url, moves_per_second=0, games_per_minute=0) as c:
        created = new_game(c, ["human", "bot:random"])
        yield c, created["id"], token_of(created, 1)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    endpoint=st.sampled_from(["create", "mine", "get", "move", "undo", "record"]),
    game_id=_ids, token=_tokens, body=_bodies,
    query=st.dictionaries(st.sampled_from(["at", "token", "x"]), st.text(max_size=12),
                          max_size=2),
)
def test_fuzz_every_endpoint_no_500_and_no_state_change_on_refusal(
    fuzz_client, endpoint, game_id, token, body, query
):
    c, gid, t1 = fuzz_client
    game_id = gid if game_id == "GID" else game_id
    token = t1 if token == "T1" else token
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["Authorization"] = (
            f"Bearer {token}" if token.isascii() and token.isprintable() else "Basic x")
    c.app.state.service.wait_for_bots()
    before = _counts(c)
    from urllib.parse import quote

    path = f"/api/games/{quote(game_id, safe='')}"
    if endpoint == "create":
        r = c.post("/api/games", content=body, headers=headers, params=query)
    elif endpoint == "mine":
        r = c.post("/api/games/mine", content=body, headers=headers, params=query)
    elif endpoint == "get":
        r = c.get(path, headers=headers, params=query)
    elif endpoint == "record":
        r = c.get(path + "/record", headers=headers, params=query)
    else:
        r = c.post(f"{path}/{'moves' if endpoint == 'move' else 'undo'}", content=body,
                   headers=headers, params=query)
    assert r.status_code < 500, (endpoint, body, r.text)
    if r.status_code >= 400:  # every refusal in the project's shape
        assert {"error", "message"} <= set(r.json()), (endpoint, body, r.text)
    if r.status_code >= 400 or endpoint in ("get", "record", "mine"):
        c.app.state.service.wait_for_bots()
        assert _counts(c) == before
    else:  # a well-formed request got through (a new game or a legal move): nothing else
        assert r.status_code in (200, 201)


def test_postgres_refuses_nul_bytes_with_4xx(db_url):
    """PostgreSQL rejects NUL in text with an error: ids and names with one never reach it."""
    with make_client(db_url) as c:
        assert c.get("/api/games/ab%00cd").status_code == 404
        assert c.get("/api/games/ab%00cd?token=x").status_code == 404
        r = c.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"],
                                       "names": ["A\u0000n", None]})
        assert r.status_code == 422
