"""The admin's view (issue 24, item 6): admins are named in ``ServerSettings.admins``; every
admin route is checked by one dependency (no session 401, another account's session 403) and
every form by its CSRF token; a ban logs the account out everywhere and refuses its log-ins,
an unban lets it log in again.  SQLite always, PostgreSQL with TRAMWAYS_TEST_POSTGRES_URL."""

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
from tests.server.helpers import auth, new_game, token_of

ADMIN_POSTS = ["/admin/accounts/{victim}/ban", "/admin/accounts/{victim}/unban"]


def _login(client, name: str, password: str = "correct horse 1"):
    return client.post("/account/login", data={"csrf": csrf_of(client), "name": name,
                                               "password": password, "next": "/lobby"})


@pytest.fixture
def site(db_url: str):
    admin_name, victim_name = uniq("Boss"), uniq("Victim")
    with make_app_client(db_url, admins=f" {admin_name.upper()} , nobody") as admin:
        signup(admin, admin_name)
        victim = other_client(admin)
        signup(victim, victim_name)
        victim_id = victim.get("/api/account").json()["id"]
        yield admin, victim, victim_id, victim_name


def _paths(victim_id: str) -> list[str]:
    return [p.format(victim=victim_id) for p in ADMIN_POSTS]


def test_the_admin_page_lists_games_and_accounts(site) -> None:
    admin, _victim, victim_id, victim_name = site
    gid = new_game(admin, names=["Ann", "Bob"])["id"]
    page = admin.get("/admin")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert f'data-game="{gid}"' in page.text and f'data-account="{victim_id}"' in page.text
    assert victim_name in page.text
    assert f'action="/admin/accounts/{victim_id}/ban"' in page.text
    german = admin.get("/admin?lang=de").text
    assert "Verwaltung" in german and "Sperren" in german
    assert 'href="/admin" class="admin-link"' in admin.get("/lobby").text
    assert 'class="admin-link"' not in _victim.get("/lobby").text


def test_every_admin_route_without_a_session(site) -> None:
    admin, _victim, victim_id, _name = site
    stranger = other_client(admin)
    r = stranger.get("/admin")
    assert r.status_code == 401 and r.json()["error"] == "login_required"
    token = csrf_of(stranger)
    for path in _paths(victim_id):
        r = stranger.post(path, data={"csrf": token})
        assert r.status_code == 401 and r.json()["error"] == "login_required", path


def test_another_account_s_session_is_not_an_admin(site) -> None:
    admin, victim, victim_id, _name = site
    r = victim.get("/admin")
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
    admin_id = admin.get("/api/account").json()["id"]
    for path in [*_paths(victim_id), *_paths(admin_id)]:
        r = post_form(victim, path)  # its own valid token: still not an admin
        assert r.status_code == 403 and r.json()["error"] == "not_admin", path
    assert victim.get("/api/account").status_code == 200  # nothing was banned


def test_a_stale_csrf_token_is_refused_on_every_admin_form(site) -> None:
    admin, victim, victim_id, _name = site
    stale = csrf_of(admin, "/admin")
    name = admin.get("/api/account").json()["name"]
    admin.post("/account/logout", data={"csrf": stale})
    assert _login(admin, name).status_code == 303
    for path in _paths(victim_id):
        r = admin.post(path, data={"csrf": stale})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf", path
        assert admin.post(path, data={}).json()["error"] == "bad_csrf", path
    assert victim.get("/api/account").status_code == 200


def test_a_ban_logs_out_everywhere_and_refuses_log_ins_until_the_unban(site) -> None:
    admin, victim, victim_id, victim_name = site
    second = other_client(admin)
    assert _login(second, victim_name).status_code == 303
    r = post_form(admin, f"/admin/accounts/{victim_id}/ban", page="/admin")
    assert r.status_code == 303 and r.headers["location"] == "/admin"
    assert victim.get("/api/account").status_code == 401
    assert second.get("/api/account").status_code == 401
    assert _login(victim, victim_name).status_code != 303
    assert f'action="/admin/accounts/{victim_id}/unban"' in admin.get("/admin").text
    r = post_form(admin, f"/admin/accounts/{victim_id}/unban", page="/admin")
    assert r.status_code == 303
    assert _login(victim, victim_name).status_code == 303
    assert victim.get("/api/account").json()["id"] == victim_id
    assert second.get("/api/account").status_code == 401  # old sessions stay ended


def test_an_admin_cannot_ban_their_own_account_nor_a_missing_one(site) -> None:
    admin, *_rest = site
    admin_id = admin.get("/api/account").json()["id"]
    r = post_form(admin, f"/admin/accounts/{admin_id}/ban", page="/admin")
    assert r.status_code == 422 and r.json()["error"] == "own_account"
    r = post_form(admin, "/admin/accounts/nobody/ban", page="/admin")
    assert r.status_code == 404
    assert admin.get("/admin").status_code == 200


def test_a_closed_game_ends_for_everyone_with_a_clear_message(db_url: str) -> None:
    admin_name = uniq("Boss")
    with make_app_client(db_url, admins=admin_name) as admin:
        signup(admin, admin_name)
        created = new_game(admin, names=["Ann", "Bob"])
        gid, token = created["id"], token_of(created, 1)
        state = admin.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert state["status"] == "active" and state["legal"]
        page = admin.get("/admin").text
        assert f'action="/admin/games/{gid}/close"' in page
        r = post_form(admin, f"/admin/games/{gid}/close", page="/admin")
        assert r.status_code == 303 and r.headers["location"] == "/admin"
        r = admin.post(f"/api/games/{gid}/moves", json={"n": state["n"], "action": state["legal"][0]},
                       headers=auth(token))
        assert r.status_code == 403 and r.json()["error"] == "closed"
        assert "admins closed this game" in r.json()["message"]
        assert admin.post(f"/api/games/{gid}/undo", json={"n": state["n"]},
                          headers=auth(token)).json()["error"] == "closed"
        after = admin.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert (after["status"], after["to_act"], after["legal"]) == ("closed", [], [])
        assert after["log"][-1] == "The site's admins closed this game: no more moves."
        assert "admins closed this game" in admin.get(f"/g/{gid}").text
        mine = admin.post("/api/games/mine", json={"tokens": [token]}).json()
        assert [(g["status"], g["your_turn"]) for g in mine] == [("closed", False)]
        from tramways.server.clocks.deadlines import Deadlines

        assert Deadlines.waiting(admin.app.state.service.live(gid)) == []  # no clock runs
        # once closed, it cannot be closed again, and the admin page offers no button
        assert post_form(admin, f"/admin/games/{gid}/close", page="/admin").status_code == 404
        assert f'action="/admin/games/{gid}/close"' not in admin.get("/admin").text


def test_the_close_route_is_guarded_like_the_others(site) -> None:
    admin, victim, _victim_id, _name = site
    gid = new_game(admin, names=["Ann", "Bob"])["id"]
    path = f"/admin/games/{gid}/close"
    stranger = other_client(admin)
    r = stranger.post(path, data={"csrf": csrf_of(stranger)})
    assert r.status_code == 401 and r.json()["error"] == "login_required"
    r = post_form(victim, path)
    assert r.status_code == 403 and r.json()["error"] == "not_admin"
    r = admin.post(path, data={"csrf": "stale"})
    assert r.status_code == 403 and r.json()["error"] == "bad_csrf"
    assert admin.get(f"/api/games/{gid}").json()["status"] == "active"


def test_a_closed_game_stays_closed_through_a_backup_and_restore(tmp_path) -> None:
    import subprocess
    import sys

    source, target = (f"sqlite:///{tmp_path / n}" for n in ("site.sqlite3", "back.sqlite3"))
    with make_app_client(source, admins="Boss") as admin:
        signup(admin, "Boss")
        created = new_game(admin, names=["Ann", "Bob"])
        gid, token = created["id"], token_of(created, 1)
        first = admin.get(f"/api/games/{gid}", headers=auth(token)).json()["legal"][0]
        assert post_form(admin, f"/admin/games/{gid}/close", page="/admin").status_code == 303
    backup = tmp_path / "games.jsonl"
    for args in (["export-all", "--database", source, "-o", str(backup)],
                 ["import-all", str(backup), "--database", target]):
        done = subprocess.run([sys.executable, "-m", "tramways", *args], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    with make_app_client(target) as c:
        state = c.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert (state["status"], state["legal"]) == ("closed", [])
        r = c.post(f"/api/games/{gid}/moves", json={"n": 0, "action": first}, headers=auth(token))
        assert r.status_code == 403 and r.json()["error"] == "closed"
