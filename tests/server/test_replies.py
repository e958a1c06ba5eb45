"""The API's answers are documented (issue 29 item 5, issue 28 step 2): every JSON route of
the OpenAPI schema has a success body with its properties, and real answers fit the declared
models exactly (every key, no key more)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.helpers import auth, new_game, token_of

pytest.importorskip("fastapi")

from tramways.server.replies import (  # noqa: E402
    Created,
    GamePayload,
    GameRecord,
    MyGame,
    NotifySettings,
)


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$ref`` (and an array's items) followed."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _resolve(spec, spec["components"]["schemas"][name])
    if schema.get("type") == "array":
        return _resolve(spec, schema["items"])
    return schema


PENDING: frozenset[tuple[str, str]] = frozenset()
"""Routes whose answers are still to be declared by their owners, each with a ``pending:``
comment; nothing else may be added (a new route declares its ``response_model``)."""


def test_every_api_route_documents_a_success_body_with_properties(sqlite_client):
    spec = sqlite_client.get("/openapi.json").json()
    routes = [(path, method, op) for path, ops in spec["paths"].items() if path.startswith("/api")
              for method, op in ops.items() if (method, path) not in PENDING]
    assert {(m, p) for p, ops in spec["paths"].items() for m in ops} >= PENDING  # none stale
    assert len(routes) >= 8
    for path, method, op in routes:
        success = {code: r for code, r in op["responses"].items() if code.startswith("2")}
        assert success, (method, path)
        for code, response in success.items():
            schema = response["content"]["application/json"]["schema"]
            properties = _resolve(spec, schema).get("properties")
            assert properties, (method, path, code)
        # the refusals keep their error model
        assert "ErrorBody" in str(op["responses"].get("429")), (method, path)


def test_the_game_payload_documents_its_keys(sqlite_client):
    spec = sqlite_client.get("/openapi.json").json()
    op = spec["paths"]["/api/games/{game_id}/moves"]["post"]
    payload = _resolve(spec, op["responses"]["200"]["content"]["application/json"]["schema"])
    assert {"view", "legal", "cursor", "log_from", "undoable", "seats"} <= set(payload["properties"])
    created = spec["paths"]["/api/games"]["post"]["responses"]["201"]
    assert _resolve(spec, created["content"]["application/json"]["schema"])["properties"]["spectate"]


def test_real_answers_fit_the_declared_models(sqlite_client):
    c = sqlite_client
    r = c.post("/api/games", json={"game": "trambahn", "seats": ["human", "bot:rule"],
                                   "names": ["Ann", None]})
    created = Created.model_validate(r.json())
    assert created.seats[0].name == "Ann" and created.seats[1].token is None
    gid, token = created.id, created.seats[0].token
    seat = GamePayload.model_validate(c.get(f"/api/games/{gid}", headers=auth(token)).json())
    assert seat.seat == 1 and seat.legal and seat.cursor
    spectator = GamePayload.model_validate(c.get(f"/api/games/{gid}").json())
    assert spectator.seat is None and spectator.legal == []
    moved = c.post(f"/api/games/{gid}/moves", json={"n": seat.n, "action": seat.legal[0]},
                   headers=auth(token))
    after = GamePayload.model_validate(moved.json())
    assert after.n >= 1
    past = GamePayload.model_validate(c.get(f"/api/games/{gid}?at=0").json())
    assert past.at == 0 and past.cursor is None
    mine = [MyGame.model_validate(g) for g in
            c.post("/api/games/mine", json={"tokens": [token]}).json()]
    assert [g.id for g in mine] == [gid]
    notify = NotifySettings.model_validate(
        c.get(f"/api/games/{gid}/notify", headers=auth(token)).json())
    assert notify.email is None


def test_an_undo_and_a_record_fit_their_models(sqlite_client):
    c = sqlite_client
    created = new_game(c, ["human", "human"], game="1840", settings={"players": 2})
    gid = created["id"]
    token = token_of(created, c.get(f"/api/games/{gid}").json()["to_act"][0])
    state = c.get(f"/api/games/{gid}", headers=auth(token)).json()
    c.post(f"/api/games/{gid}/moves", json={"n": 0, "action": state["legal"][0]},
           headers=auth(token))
    undone = c.post(f"/api/games/{gid}/undo", json={"n": 1}, headers=auth(token))
    assert undone.status_code == 200, undone.text
    assert GamePayload.model_validate(undone.json()).n == 0
    record = GameRecord.model_validate(c.get(f"/api/games/{gid}/record").json())
    assert record.game == "1840" and record.actions == []


def test_the_accounts_answers_fit_their_models(sqlite_url):
    """Issue 24: the accounts', the lobby's and the chat's JSON answers, as declared."""
    from tests.server.accounts.helpers import make_app_client, open_and_fill, other_client, signup
    from tramways.server.accounts.replies import (
        AccountGame,
        ChatMessages,
        CsrfToken,
        Muted,
        OpenTable,
        Said,
        WhoAmI,
    )

    with make_app_client(sqlite_url) as a:
        b, watcher = other_client(a), other_client(a)
        signup(a, "Anna")
        signup(b, "Bert")
        signup(watcher, "Wanda")
        assert WhoAmI.model_validate(a.get("/api/account").json()).name == "Anna"
        csrf = CsrfToken.model_validate(a.get("/api/account/csrf").json()).csrf
        gid = open_and_fill(a, b)
        tables = [OpenTable.model_validate(t) for t in a.get("/api/lobby?game=trambahn").json()]
        assert tables == []  # the table started: no longer open
        mine = [AccountGame.model_validate(g) for g in a.get("/api/account/games").json()]
        assert [g.id for g in mine] == [gid] and mine[0].link.startswith(f"/g/{gid}?token=")
        said = Said.model_validate(a.post(f"/api/games/{gid}/chat", json={"text": "hello"},
                                          headers={"X-CSRF-Token": csrf}).json())
        assert (said.seat, said.name, said.text) == (1, "Anna", "hello")
        w_csrf = watcher.get("/api/account/csrf").json()["csrf"]
        spoke = Said.model_validate(watcher.post(f"/api/games/{gid}/chat", json={"text": "hi"},
                                                 headers={"X-CSRF-Token": w_csrf}).json())
        assert spoke.seat is None and spoke.name == "Wanda"
        read = ChatMessages.model_validate(a.get(f"/api/games/{gid}/chat").json())
        assert [m.text for m in read.messages] == ["hello", "hi"]
        muted = a.post(f"/api/games/{gid}/chat/mute", json={"message": spoke.id},
                       headers={"X-CSRF-Token": csrf})
        assert Muted.model_validate(muted.json()).muted is True
        a.post("/lobby/new", data={"csrf": csrf, "game": "1840", "seats": "3", "lang": "de"})
        tables = [OpenTable.model_validate(t) for t in a.get("/api/lobby").json()]
        assert [(t.game, t.seats, t.lang, t.game_id) for t in tables] == [("1840", 3, "de", None)]
        assert [p.name for p in tables[0].players] == ["Anna"]
