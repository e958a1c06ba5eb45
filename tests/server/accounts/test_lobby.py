"""The lobby of open games and "my games" (issue 24): open, list with filters, join, leave
before the start, start when full; the account's games on any device, its turn first."""

from __future__ import annotations

from tests.server.accounts.helpers import (
    csrf_of,
    links,
    make_app_client,
    open_and_fill,
    other_client,
    post_form,
    signup,
    uniq,
)
from tests.server.helpers import auth


def test_an_open_trambahn_game_starts_when_the_second_account_joins(db_url: str) -> None:
    with make_app_client(db_url) as a:
        b = other_client(a)
        anna, bert = uniq("Anna"), uniq("Bert")
        signup(a, anna)
        signup(b, bert)
        r = post_form(a, "/lobby/new", game="trambahn", seats="2", lang="de")
        table = r.headers["location"].rsplit("/", 1)[1]
        listed = [t for t in b.get("/api/lobby?game=trambahn&lang_filter=de").json()
                  if t["id"] == table]
        assert listed and listed[0]["players"] == [{"seat": 1, "name": anna}]
        assert not [t for t in b.get("/api/lobby?lang_filter=ru").json() if t["id"] == table]
        assert not [t for t in b.get("/api/lobby?game=1840").json() if t["id"] == table]
        assert a.get("/api/account/games").json() == []  # not started: no game yet
        r = post_form(b, f"/lobby/{table}/join")
        assert r.status_code == 303 and r.headers["location"] == f"/lobby/{table}"
        assert not [t for t in b.get("/api/lobby").json() if t["id"] == table]  # started
        mine_a, mine_b = a.get("/api/account/games").json(), b.get("/api/account/games").json()
        assert [g["seat"] for g in mine_a] == [1] and [g["seat"] for g in mine_b] == [2]
        gid = mine_a[0]["id"]
        assert mine_b[0]["id"] == gid
        assert [s["name"] for s in mine_a[0]["seats"]] == [anna, bert]
        assert mine_a[0]["your_turn"] and not mine_b[0]["your_turn"]  # P1 starts (T-R-1)
        # the link opens the seat
        token = mine_a[0]["link"].split("token=")[1]
        state = a.get(f"/api/games/{gid}", headers=auth(token)).json()
        assert state["seat"] == 1 and state["legal"]
        page = b.get(f"/lobby/{table}").text
        assert f"/g/{gid}?token=" in page  # the joiner's "Play" link


def test_my_games_on_another_device_your_turn_first(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        anna = uniq("Anna")
        signup(a, anna, "anna password")
        signup(b, uniq("Bert"))
        first = open_and_fill(a, b)
        second = open_and_fill(b, a)  # Bert opens: Bert is seat 1, Anna seat 2
        phone = other_client(a)
        token = csrf_of(phone)
        phone.post("/account/login", data={"csrf": token, "name": anna, "password": "anna password"})
        mine = phone.get("/api/account/games").json()
        assert [g["id"] for g in mine] == [first, second]  # her turn (seat 1) first
        assert mine[0]["your_turn"] and not mine[1]["your_turn"]
        assert links(phone) == links(a)  # the same seat links on both devices
        page = phone.get("/mine").text
        assert page.index(first) < page.index(second)


def test_leave_before_the_start_and_the_creator_leaving_closes(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        r = post_form(a, "/lobby/new", game="1840", seats="3", lang="en")
        table = r.headers["location"].rsplit("/", 1)[1]
        post_form(b, f"/lobby/{table}/join")
        assert len(a.get("/api/lobby").json()[0]["players"]) == 2
        r = post_form(b, f"/lobby/{table}/leave")
        assert r.status_code == 303
        assert len(a.get("/api/lobby").json()[0]["players"]) == 1
        post_form(a, f"/lobby/{table}/leave")
        assert a.get("/api/lobby").json() == []
        assert post_form(b, f"/lobby/{table}/join").status_code == 409


def test_a_table_is_joined_once_and_has_the_game_s_seats(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        signup(a, uniq("Anna"))
        r = post_form(a, "/lobby/new", game="1840", seats="3", lang="en")
        table = r.headers["location"].rsplit("/", 1)[1]
        assert post_form(a, f"/lobby/{table}/join").status_code == 409
        assert post_form(a, "/lobby/new", game="trambahn", seats="3", lang="en").status_code == 422
        assert post_form(a, "/lobby/new", game="1840", seats="7", lang="en").status_code == 422
        assert post_form(a, "/lobby/new", game="chess", seats="2", lang="en").status_code == 422


def test_a_full_1840_table_starts_a_game_of_its_accounts(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b, c = other_client(a), other_client(a)
        for client in (a, b, c):
            signup(client, uniq("P"))
        r = post_form(a, "/lobby/new", game="1840", seats="3", lang="ru")
        table = r.headers["location"].rsplit("/", 1)[1]
        post_form(b, f"/lobby/{table}/join")
        assert a.get("/api/account/games").json() == []
        post_form(c, f"/lobby/{table}/join")
        games = [cl.get("/api/account/games").json() for cl in (a, b, c)]
        assert [g[0]["seat"] for g in games] == [1, 2, 3]
        assert games[0][0]["game"] == "1840" and len({g[0]["id"] for g in games}) == 1


def test_an_1840_table_keeps_its_ruleset(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        r = post_form(a, "/lobby/new", game="1840", seats="2", lang="en", ruleset="18xx.games")
        table = r.headers["location"].rsplit("/", 1)[1]
        assert a.get("/api/lobby").json()[0]["ruleset"] == "18xx.games"
        assert post_form(a, "/lobby/new", game="1840", seats="2", lang="en",
                         ruleset="house rules").status_code == 422
        post_form(b, f"/lobby/{table}/join")
        gid = a.app.state.accounts.open_game(table).game_id
        assert a.app.state.service.live(gid).row.settings["ruleset"] == "18xx.games"



def test_a_new_site_secret_gives_accounts_seats_new_working_links(sqlite_url: str,
                                                                  monkeypatch) -> None:
    from tests.server.helpers import auth as bearer

    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        anna = uniq("Anna")
        signup(a, anna, "anna password")
        signup(b, uniq("Bert"))
        gid = open_and_fill(a, b)
        old = links(a)[gid]
    monkeypatch.setenv("TRAMWAYS_SECRET_KEY", "a secret from the environment")
    with make_app_client(sqlite_url) as a:
        assert a.get("/api/account").status_code == 401  # the old cookie's signature
        token = csrf_of(a)
        a.post("/account/login", data={"csrf": token, "name": anna, "password": "anna password"})
        new = links(a)[gid]
        assert new != old
        assert a.get(f"/api/games/{gid}", headers=bearer(new)).json()["seat"] == 1
        assert a.get(f"/api/games/{gid}", headers=bearer(old)).status_code == 403
    with make_app_client(sqlite_url) as a:  # the same secret again: nothing changes
        assert a.get(f"/api/games/{gid}", headers=bearer(new)).json()["seat"] == 1
