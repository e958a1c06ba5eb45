"""Accounts: sign up, log in, log out (everywhere), cookies, CSRF, rate limits, passwords
never kept or shown (issue 24)."""

from __future__ import annotations

import logging

import sqlalchemy as sa

from tests.server.accounts.helpers import csrf_of, make_app_client, other_client, signup, uniq


def test_signup_sets_a_signed_httponly_lax_session_and_hashes_the_password_with_argon2(
        db_url: str, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    with make_app_client(db_url) as c:
        name = uniq("Anna")
        r = signup(c, name, "a secret 12345")
        cookie = r.headers["set-cookie"]
        assert "tw_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain http
        assert r.headers["location"] == "/lobby"
        assert c.get("/api/account").json()["name"] == name
        with c.app.state.store.engine.connect() as conn:
            stored = conn.execute(sa.text("SELECT password_hash FROM accounts WHERE name = :n"),
                                  {"n": name}).scalar_one()
            sessions = conn.execute(sa.text(
                "SELECT s.id_hash FROM sessions s JOIN accounts a ON a.id = s.account_id "
                "WHERE a.name = :n"), {"n": name}).scalars().all()
        assert stored.startswith("$argon2id$") and "a secret 12345" not in stored
        session_id = c.cookies["tw_session"].rsplit(".", 1)[0]
        assert sessions and session_id not in sessions  # only its hash
        page = c.get("/account").text
        assert "a secret 12345" not in page
    assert "a secret 12345" not in caplog.text


def test_a_tampered_session_cookie_is_no_session(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as c:
        signup(c, uniq("Bert"))
        (cookie,) = [k for k in c.cookies.jar if k.name == "tw_session"]
        value = cookie.value or ""
        tampered = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
        # the same cookie (its domain and path) with its signature changed, not a second one
        c.cookies.set("tw_session", tampered, domain=cookie.domain, path=cookie.path)
        assert [k.value for k in c.cookies.jar if k.name == "tw_session"] == [tampered]
        assert c.get("/api/account").status_code == 401


def test_cookies_are_secure_behind_https(sqlite_url: str) -> None:
    from fastapi.testclient import TestClient

    app = make_app_client(sqlite_url, public_url="https://tramways.example").app
    with TestClient(app, base_url="https://testserver", follow_redirects=False) as c:
        r = signup(c, uniq("Secure"))
        assert "Secure" in r.headers["set-cookie"]


def test_login_wrong_password_is_refused_and_right_one_logs_in(db_url: str) -> None:
    with make_app_client(db_url) as c:
        name = uniq("Clara")
        signup(c, name, "right password")
        c.cookies.clear()
        token = csrf_of(c)
        r = c.post("/account/login", data={"csrf": token, "name": name.lower(), "password": "wrong one!"})
        assert r.status_code == 401 and "right password" not in r.text
        assert "wrong one!" not in r.text  # the password is never shown back
        r = c.post("/account/login", data={"csrf": token, "name": name.upper(),
                                           "password": "right password", "next": "/mine"})
        assert r.status_code == 303 and r.headers["location"] == "/mine"
        assert c.get("/api/account").json()["name"] == name


def test_user_names_are_unique_in_any_case_and_checked(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as c:
        name = uniq("Dora")
        signup(c, name)
        d = other_client(c)
        token = csrf_of(d, "/account/signup")
        assert d.post("/account/signup", data={"csrf": token, "name": name.upper(),
                                               "password": "another pass"}).status_code == 409
        assert d.post("/account/signup", data={"csrf": token, "name": "x<script>",
                                               "password": "another pass"}).status_code == 422
        assert d.post("/account/signup", data={"csrf": token, "name": uniq("Edgar"),
                                               "password": "short"}).status_code == 422


def test_login_attempts_are_limited_per_account_and_per_address(sqlite_url: str) -> None:
    with make_app_client(sqlite_url, logins_per_minute=1) as c:
        name = uniq("Fritz")
        signup(c, name, "fritz password")
        c.cookies.clear()
        token = csrf_of(c)
        codes = [c.post("/account/login", data={"csrf": token, "name": name,
                                                 "password": f"guess {i}"}).status_code
                 for i in range(12)]
        assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]  # bursts of 10 per name
        # the right password is refused too while the name's bucket is empty
        r = c.post("/account/login", data={"csrf": token, "name": name,
                                           "password": "fritz password"})
        assert r.status_code == 429
        # other names from the same address: the address's bucket (30) runs out as well
        others = [c.post("/account/login", data={"csrf": token, "name": uniq(f"nobody{i}"),
                                                  "password": "whatever1"}).status_code
                  for i in range(25)]
        assert 429 in others and others[0] == 401


def test_logout_ends_the_session_and_logout_everywhere_ends_all(db_url: str) -> None:
    with make_app_client(db_url) as c:
        name = uniq("Greta")
        signup(c, name, "greta password")
        phone = other_client(c)
        token = csrf_of(phone)
        assert phone.post("/account/login", data={"csrf": token, "name": name,
                                                  "password": "greta password"}).status_code == 303
        assert phone.get("/api/account").status_code == 200
        r = c.post("/account/logout-everywhere", data={"csrf": csrf_of(c, "/account")})
        assert r.status_code == 303
        assert phone.get("/api/account").status_code == 401
        assert c.get("/api/account").status_code == 401
        token = csrf_of(c)
        c.post("/account/login", data={"csrf": token, "name": name, "password": "greta password"})
        r = c.post("/account/logout", data={"csrf": csrf_of(c, "/account")})
        assert r.status_code == 303 and c.get("/api/account").status_code == 401


def test_a_stale_csrf_token_is_refused(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as c:
        name = uniq("Hans")
        signup(c, name, "hans password")
        before = csrf_of(c, "/account")
        c.post("/account/logout", data={"csrf": before})
        token = csrf_of(c)
        c.post("/account/login", data={"csrf": token, "name": name, "password": "hans password"})
        # the token of the previous session no longer passes
        r = c.post("/account/logout", data={"csrf": before})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf"
        assert c.get("/api/account").status_code == 200
        assert c.post("/account/logout", data={}).status_code == 403


def test_signups_are_limited_per_address(sqlite_url: str) -> None:
    with make_app_client(sqlite_url, signups_per_hour=1) as c:
        codes = []
        for i in range(11):
            c.cookies.clear()
            token = csrf_of(c, "/account/signup")
            codes.append(c.post("/account/signup", data={"csrf": token, "name": uniq(f"s{i}"),
                                                         "password": "long enough"}).status_code)
        assert codes == [303] * 10 + [429]
