"""Every route of the accounts, the lobby and the chat tried with no session, with another
account's session and with a stale CSRF token (issue 24, quality bar): nothing is done for
the wrong person, and every refusal is a 4xx in the API's shape."""

from __future__ import annotations

import pytest

from tests.server.accounts.helpers import (
    csrf_of,
    make_app_client,
    other_client,
    post_form,
    signup,
    uniq,
)

FORM_POSTS = ["/account/logout", "/account/logout-everywhere", "/account/claim",
              "/lobby/new", "/lobby/{table}/join", "/lobby/{table}/leave"]
"""Every form post that acts for the session's account."""
SESSION_PAGES = ["/api/account", "/api/account/csrf", "/api/account/games"]


@pytest.fixture
def site(sqlite_url: str):
    with make_app_client(sqlite_url) as owner:
        signup(owner, uniq("Owner"))
        r = post_form(owner, "/lobby/new", game="1840", seats="3", lang="en")
        table = r.headers["location"].rsplit("/", 1)[1]
        yield owner, table


def _paths(table: str) -> list[str]:
    return [p.format(table=table) for p in FORM_POSTS]


def test_every_account_route_without_a_session(site) -> None:
    owner, table = site
    stranger = other_client(owner)
    for path in SESSION_PAGES:
        r = stranger.get(path)
        assert r.status_code == 401 and r.json()["error"] == "login_required", path
    token = csrf_of(stranger)  # a valid form token of a browser without a session
    for path in _paths(table):
        r = stranger.post(path, data={"csrf": token, "game": "trambahn", "seats": "2",
                                      "lang": "en", "token": "x"})
        if path == "/account/logout":  # logging out without a session is harmless
            assert r.status_code == 303
            continue
        assert r.status_code == 401 and r.json()["error"] == "login_required", path
    assert stranger.get("/account").status_code == 303  # to the log-in page
    assert stranger.get("/mine").status_code == 303
    assert len(owner.get("/api/lobby").json()) == 1  # nothing was opened or joined


def test_another_account_s_session_cannot_act_for_the_owner(site) -> None:
    owner, table = site
    other = other_client(owner)
    signup(other, uniq("Other"))
    # leaving a table one does not sit at changes nothing
    r = post_form(other, f"/lobby/{table}/leave")
    assert r.status_code == 303
    listed = owner.get("/api/lobby").json()
    assert len(listed) == 1 and len(listed[0]["players"]) == 1
    # the owner's CSRF token does not pass with the other session
    owner_token = csrf_of(owner, "/lobby")
    for path in _paths(table):
        r = other.post(path, data={"csrf": owner_token, "game": "1840", "seats": "3",
                                   "lang": "en"})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf", path
    # the other account's games are its own
    assert other.get("/api/account/games").json() == []
    assert owner.get("/api/account").json()["name"] != other.get("/api/account").json()["name"]


def test_a_stale_csrf_token_is_refused_on_every_form(site) -> None:
    owner, table = site
    stale = csrf_of(owner, "/lobby")
    owner.post("/account/logout", data={"csrf": stale})
    name = uniq("Again")
    signup(owner, name)
    for path in _paths(table):
        r = owner.post(path, data={"csrf": stale, "game": "1840", "seats": "3", "lang": "en"})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf", path
    for path in ("/account/login", "/account/signup"):
        r = owner.post(path, data={"csrf": stale, "name": name, "password": "x" * 9})
        assert r.status_code == 403, path
    assert owner.get("/api/account").json()["name"] == name  # still logged in


def test_the_chat_api_with_a_session_needs_its_csrf_header(site) -> None:
    owner, _table = site
    created = owner.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"]})
    gid = created.json()["id"]
    stale = owner.get("/api/account/csrf").json()["csrf"]
    other = other_client(owner)
    signup(other, uniq("Other"))
    for headers in ({}, {"X-CSRF-Token": stale}, {"X-CSRF-Token": "forged"}):
        r = other.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf"
        r = other.post(f"/api/games/{gid}/chat/mute", json={"message": 1}, headers=headers)
        assert r.status_code == 403
    assert owner.get(f"/api/games/{gid}/chat").json()["messages"] == []
