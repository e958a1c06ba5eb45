"""Every route of the app (issue 24, quality bar): the routes are read from ``app.routes``
(included routers walked), so a new route fails this test until it is listed here with what
it answers to three strangers:

- ``anon``: no session, no seat token (a valid form token of its own browser);
- ``stranger``: another account's session and its own valid CSRF token, holding no seat of
  the owner's game;
- ``stale``: the owner's session with a CSRF token of the owner's earlier session.

After every probe the owner's game, table, account and session are as they were: nothing
was done for the wrong person.  Forms that post with a seat token and no session (``/new``,
``/g/ID/move`` ...) are guarded by the seat token in the form and, against other sites, by
``headers.SameOriginForms`` (``tests/server/test_security_headers.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIWebSocketRoute
from starlette.routing import Mount, WebSocketRoute

from tests.server.accounts.helpers import (
    csrf_of,
    make_app_client,
    open_and_fill,
    other_client,
    post_form,
    signup,
    uniq,
)

OK, SEE_OTHER = 200, 303
# (anon, stranger, stale): the status, and the API's error code when there is one
EXPECTED: dict[tuple[str, str], tuple[str, str, str]] = {
    # pages and reads anyone may see (a spectator's view; no seat, no account needed)
    ("GET", "/"): ("200", "200", "200"),
    ("GET", "/account/login"): ("200", "200", "200"),
    ("GET", "/account/signup"): ("200", "200", "200"),
    ("GET", "/account/reset"): ("200", "200", "200"),
    ("GET", "/docs"): ("200", "200", "200"),
    ("GET", "/docs/oauth2-redirect"): ("200", "200", "200"),
    ("GET", "/redoc"): ("200", "200", "200"),
    ("GET", "/openapi.json"): ("200", "200", "200"),
    ("GET", "/healthz"): ("200", "200", "200"),
    ("GET", "/lobby"): ("200", "200", "200"),
    ("GET", "/lobby/{table_id}"): ("200", "200", "200"),
    ("GET", "/u/{name}"): ("200", "200", "200"),
    ("GET", "/g/{gid}"): ("200", "200", "200"),
    ("GET", "/g/{gid}/table"): ("200", "200", "200"),
    ("GET", "/g/{gid}/created"): ("303", "303", "303"),  # no creator's cookie: to /g/{gid}
    ("GET", "/g/{gid}/board"): ("404", "404", "404"),  # 1840's map only
    ("GET", "/g/{gid}/previews"): ("404", "404", "404"),  # 1840's only
    ("GET", "/g/{gid}/route"): ("404", "404", "404"),  # 1840's only
    ("GET", "/tiles/1840/{tile_id}.svg"): ("404", "404", "404"),  # no such tile
    ("GET", "/api/games/{game_id}"): ("200", "200", "200"),
    ("GET", "/api/games/{game_id}/chat"): ("200", "200", "200"),
    ("GET", "/api/games/{game_id}/clocks"): ("200", "200", "200"),
    ("GET", "/api/lobby"): ("200", "200", "200"),
    # a game running: its record is hidden from all but its seats
    ("GET", "/api/games/{game_id}/record"): ("403:hidden", "403:hidden", "403:hidden"),
    ("GET", "/g/{gid}/record"): ("403", "403", "403"),
    # the e-mail links: a forged MAC is refused whoever asks
    ("GET", "/account/reset/{account_id}/{expiry}/{mac}"): ("400", "400", "400"),
    ("GET", "/account/verify/{account_id}/{expiry}/{mac}"): ("400", "400", "400"),
    ("POST", "/account/reset/{account_id}/{expiry}/{mac}"): ("400", "400", "403:bad_csrf"),
    # one's own account: a session needed (pages send to the log-in page)
    ("GET", "/account"): ("303", "200", "200"),
    ("GET", "/mine"): ("303", "200", "200"),
    ("GET", "/api/account"): ("401:login_required", "200", "200"),
    ("GET", "/api/account/csrf"): ("401:login_required", "200", "200"),
    ("GET", "/api/account/games"): ("401:login_required", "200", "200"),
    ("POST", "/account/email"): ("401:login_required", "303", "403:bad_csrf"),
    ("POST", "/account/claim"): ("401:login_required", "403:bad_token", "403:bad_csrf"),
    ("POST", "/api/lobby"): ("401:login_required", "201", "403:bad_csrf"),
    ("POST", "/lobby/new"): ("401:login_required", "422:bad_request", "403:bad_csrf"),
    ("POST", "/lobby/{table_id}/join"): ("401:login_required", "303", "403:bad_csrf"),
    ("POST", "/lobby/{table_id}/leave"): ("401:login_required", "303", "403:bad_csrf"),
    ("POST", "/account/logout-everywhere"): ("401:login_required", "303", "403:bad_csrf"),
    # (the stranger logged out everywhere just before: its token is stale too)
    ("POST", "/account/logout"): ("303", "403:bad_csrf", "403:bad_csrf"),
    # the forms of a browser without a session (their token is the form's)
    ("POST", "/account/login"): ("401", "401", "403:bad_csrf"),
    ("POST", "/account/signup"): ("422", "422", "403:bad_csrf"),
    ("POST", "/account/reset"): ("200", "200", "403:bad_csrf"),
    # the chat: a spectator needs an account; muting is the seats'
    ("POST", "/api/games/{game_id}/chat"): ("401:login_required", "201", "403:bad_csrf"),
    ("POST", "/api/games/{game_id}/chat/mute"): ("401:login_required", "403:not_a_player",
                                                  "403:bad_csrf"),
    # the admin's
    ("GET", "/admin"): ("401:login_required", "403:not_admin", "403:not_admin"),
    ("POST", "/admin/games/{game_id}/close"): ("401:login_required", "403:not_admin",
                                               "403:not_admin"),
    ("POST", "/admin/accounts/{account_id}/ban"): ("401:login_required", "403:not_admin",
                                                   "403:not_admin"),
    ("POST", "/admin/accounts/{account_id}/unban"): ("401:login_required", "403:not_admin",
                                                     "403:not_admin"),
    # a seat's acts: its token (Authorization: Bearer) or nothing
    ("GET", "/api/games/{game_id}/notify"): ("403:spectator",) * 3,
    ("PUT", "/api/games/{game_id}/notify"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/moves"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/undo"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/pace"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/resign"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/take-back"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/vacation"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/vote"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/takeover"): ("422:bad_request",) * 3,  # body read first
    ("POST", "/g/{gid}/notify"): ("403", "403", "403"),
    # the seat-link pages' forms: the seat token in the form or a spectator's page again
    ("POST", "/g/{gid}/move"): ("200", "200", "200"),
    ("POST", "/g/{gid}/undo"): ("200", "200", "200"),
    # anyone may start a game (rate-limited per address; 303 to its created page), and list
    # the games of its links
    ("POST", "/new"): ("303", "303", "303"),
    ("POST", "/new1840"): ("303", "303", "303"),
    ("POST", "/api/games"): ("201", "201", "201"),
    ("POST", "/api/games/mine"): ("200", "200", "200"),
    # a finished game's analysis (this game runs); a substitute's invitation and its link
    ("GET", "/api/games/{game_id}/analysis"): ("409:not_over",) * 3,
    ("POST", "/api/games/{game_id}/substitute"): ("403:spectator",) * 3,
    ("POST", "/api/games/{game_id}/substitute/take-back"): ("403:spectator",) * 3,
    ("GET", "/g/{game_id}/substitute/{token}"): ("404:not_found",) * 3,  # a forged invitation
    ("POST", "/g/{game_id}/substitute/{token}"): ("404:not_found", "404:not_found",
                                                  "403:bad_csrf"),
    ("POST", "/g/{game_id}/take-back"): ("403:spectator",) * 3,  # the owner's old link (a token)
    # live sockets: a spectator's (their frames: tests/server/test_socket_*.py)
    ("WS", "/api/games/{game_id}/live"): ("ws",) * 3,
    ("WS", "/api/games/{game_id}/chat/live"): ("ws",) * 3,
    ("WS", "/api/lobby/live"): ("ws",) * 3,
}
BODIES: dict[str, dict[str, Any]] = {
    "moves": {"n": 0, "action": "x"}, "chat": {"text": "hi"}, "mute": {"message": 1},
    "undo": {"n": 1}, "notify": {"email": "a@example.org"},
    "lobby": {"game": "trambahn", "seats": 2, "lang": "en"},
    "games": {"game": "trambahn", "seats": ["human", "human"]}, "mine": {"tokens": []},
    "vacation": {"days": 1}, "vote": {"seat": 1}, "pace": {"seconds": 3600},
    "substitute": {"seat": 1},
}


def _routes(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """``(method, path)`` of every route, ``("WS", path)`` of every socket; static mounts
    (files, the API docs' assets) left out."""
    for r in routes:
        if hasattr(r, "original_router"):  # an included router (FastAPI >= 0.16x)
            yield from _routes(r.original_router.routes, prefix + r.include_context.prefix)
        elif isinstance(r, Mount):
            continue
        elif isinstance(r, APIWebSocketRoute | WebSocketRoute):
            yield "WS", prefix + r.path
        else:
            yield from ((m, prefix + r.path) for m in sorted(r.methods - {"HEAD"}))


def _answer(r: Any) -> str:
    code = str(r.status_code)
    if r.headers.get("content-type", "").startswith("application/json"):
        body = r.json()
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            return f"{code}:{body['error']}"
    return code


def _state(owner: Any, gid: str, table: str) -> tuple[Any, ...]:
    game = owner.get(f"/api/games/{gid}").json()
    seats = {t["id"]: t for t in owner.get("/api/lobby").json()}
    return (owner.get("/api/account").json(), game["n"], game["status"],
            sorted(g["id"] for g in owner.get("/api/account/games").json()),
            seats[table]["players"][0])


def test_every_route_of_the_app_with_no_session_another_account_and_a_stale_token(
        sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as owner:
        name = uniq("Owner")
        signup(owner, name, "owner's password")
        found = set(_routes(owner.app.routes))
        assert found == set(EXPECTED), ("routes not listed here", sorted(found - set(EXPECTED)),
                                        "listed but gone", sorted(set(EXPECTED) - found))
        partner = other_client(owner)
        signup(partner, uniq("Partner"))
        gid = open_and_fill(owner, partner)
        r = post_form(owner, "/lobby/new", game="1840", seats="3", lang="en")
        table = r.headers["location"].rsplit("/", 1)[1]
        stale = csrf_of(owner, "/lobby")
        owner.post("/account/logout", data={"csrf": stale})
        assert owner.post("/account/login", data={"csrf": csrf_of(owner), "name": name,
                                                  "password": "owner's password"}).status_code == 303
        before = _state(owner, gid, table)
        account = owner.get("/api/account").json()["id"]
        stranger, anon = other_client(owner), other_client(owner)
        signup(stranger, uniq("Stranger"))
        probes = (("anon", anon, csrf_of(anon)), ("stranger", stranger, csrf_of(stranger, "/account")),
                  ("stale", owner, stale))
        fill = {"{gid}": gid, "{game_id}": gid, "{table_id}": table, "{account_id}": account,
                "{expiry}": "9999999999", "{mac}": "forged", "{tile_id}": "0", "{name}": name, "{token}": "forged"}
        seen: dict[tuple[str, str], tuple[str, ...]] = {}
        # the log-outs last (logout-everywhere first): they end the stranger's session
        order = sorted(found, key=lambda k: ("logout" in k[1], "everywhere" not in k[1], k))
        for method, template in order:
            path = template
            for key, value in fill.items():
                path = path.replace(key, value)
            answers = []
            for _who, client, csrf in probes:
                if method == "WS":
                    with client.websocket_connect(path):  # accepted (a refusal raises)
                        answers.append("ws")
                    continue
                kwargs: dict[str, Any] = {}
                if method != "GET" and template.startswith("/api"):
                    kwargs = {"json": BODIES.get(template.rsplit("/", 1)[1], {}),
                              "headers": {"X-CSRF-Token": csrf}}
                elif method != "GET":
                    kwargs = {"data": {"csrf": csrf}}
                answers.append(_answer(client.request(method, path, **kwargs)))
            seen[(method, template)] = tuple(answers)
            assert _state(owner, gid, table) == before, (method, template)
        wrong = {k: (seen[k], EXPECTED[k]) for k in EXPECTED if seen[k] != EXPECTED[k]}
        assert not wrong, "\n".join(f"{k}: seen {v[0]}, expected {v[1]}" for k, v in wrong.items())
