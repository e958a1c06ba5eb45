"""An open game's pace (issue 24, item 2; issue 25, item 2; docs/async.md): chosen in the
lobby's form or ``POST /api/lobby`` (one body, :class:`NewTable`), refused alike when it is
bad, listed and filtered in the lobby, and the game's pace once the table starts."""

from __future__ import annotations

import time

from tests.server.accounts.helpers import (
    csrf_of,
    links,
    make_app_client,
    open_table,
    other_client,
    post_form,
    signup,
    uniq,
)


def test_lobby_pace_an_async_table_is_listed_filtered_and_paces_its_game(db_url: str) -> None:
    with make_app_client(db_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        paced = open_table(a, pace="async", hours="24", on_deadline="hand_over",
                           bot="bot:strong")
        plain = open_table(a)
        listed = {t["id"]: t for t in b.get("/api/lobby").json()}
        assert listed[paced]["pace"] == {"kind": "async", "seconds": 86400,
                                         "on_deadline": "hand_over", "bot": "bot:strong"}
        assert listed[plain]["pace"] is None
        asyncs = [t["id"] for t in b.get("/api/lobby?pace=async").json()]
        nones = [t["id"] for t in b.get("/api/lobby?pace=none").json()]
        assert paced in asyncs and plain not in asyncs
        assert plain in nones and paced not in nones
        assert paced not in [t["id"] for t in b.get("/api/lobby?pace=live").json()]
        page = b.get("/lobby?lang=en").text
        assert "24 h a move (at the deadline: the seat goes to the computer (strong))" in page
        assert "no pace" in page
        assert "24 h a move" not in b.get("/lobby?pace=none&lang=en").text
        r = post_form(b, f"/lobby/{paced}/join")
        assert r.status_code == 303
        gid = a.app.state.accounts.open_game(paced).game_id
        clocks = b.get(f"/api/games/{gid}/clocks").json()
        assert clocks["pace"] == {"seconds": 86400, "on_deadline": "hand_over",
                                  "bot": "bot:strong"}
        first = [s for s in clocks["seats"] if s["to_act"]]
        assert len(first) == 1 and first[0]["deadline"] is not None  # the clock runs


def test_lobby_pace_a_live_table_through_the_api_with_the_session(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        signup(a, uniq("Anna"))
        token = a.get("/api/account/csrf").json()["csrf"]
        r = a.post("/api/lobby", json={"game": "1840", "seats": 3, "lang": "de", "pace": "live",
                                       "minutes": 5, "on_deadline": "bot_move"},
                   headers={"X-CSRF-Token": token})
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["pace"] == {"kind": "live", "seconds": 300, "on_deadline": "bot_move",
                                "bot": "bot:rule"}
        assert body["seats"] == 3 and body["lang"] == "de" and len(body["players"]) == 1
        assert [t["id"] for t in a.get("/api/lobby?pace=live").json()] == [body["id"]]


def test_lobby_pace_refusals_are_the_same_for_the_form_and_the_api(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        signup(a, uniq("Anna"))
        token = a.get("/api/account/csrf").json()["csrf"]
        bad = [
            ({"pace": "async"}, "bad_pace", "a pace over days is 1 to 720 hours a move"),
            ({"pace": "async", "hours": 721}, "bad_pace", "a pace over days is 1 to 720 hours"),
            ({"pace": "live", "minutes": 0}, "bad_pace", "a live pace is 1 to 1440 minutes"),
            ({"pace": "live", "minutes": 5, "bot": "bot:nobody"}, "bad_pace",
             "the stand-in is one of bot:easy"),
            ({"pace": "weekly"}, "bad_request", "pace"),
            ({"on_deadline": "explode", "pace": "live", "minutes": 5}, "bad_request",
             "on_deadline"),
            ({"seats": 3}, "bad_table", "a table of 'trambahn' has 2-2 seats"),
        ]
        for fields, code, words in bad:
            body = {"game": "trambahn", "seats": 2, "lang": "en", **fields}
            r = a.post("/api/lobby", json=body, headers={"X-CSRF-Token": token})
            assert r.status_code == 422 and r.json()["error"] == code, (fields, r.text)
            assert words in r.json()["message"], (fields, r.json())
            r = post_form(a, "/lobby/new", **{k: str(v) for k, v in body.items()})
            assert r.status_code == 422 and r.json()["error"] == code, (fields, r.text)
            assert words in r.json()["message"]
        assert a.get("/api/lobby").json() == []  # nothing was opened


def test_lobby_pace_the_api_wants_a_session_and_its_csrf_token(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        body = {"game": "trambahn", "seats": 2, "lang": "en"}
        r = a.post("/api/lobby", json=body)
        assert r.status_code == 401 and r.json()["error"] == "login_required"
        signup(a, uniq("Anna"))
        stale = csrf_of(other_client(a))  # a token of another browser
        r = a.post("/api/lobby", json=body, headers={"X-CSRF-Token": stale})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf"
        r = a.post("/api/lobby", json=body)
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf"
        assert a.get("/api/lobby").json() == []


def test_lobby_resign_a_table_whose_resignation_ends_the_game(db_url: str) -> None:
    """docs/async.md: the form's **When a player resigns** (``on_resign``) is listed with the
    table and becomes the game's; a resignation there ends the game, Bert's seat last."""
    with make_app_client(db_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        bert = uniq("Bert")
        signup(b, bert)
        ends = open_table(a, game="1840", on_resign="end")
        plain = open_table(a)
        listed = {t["id"]: t for t in b.get("/api/lobby").json()}
        assert listed[ends]["on_resign"] == "end" and listed[plain]["on_resign"] == "bot"
        assert "a resignation ends the game" in b.get("/lobby?lang=en").text
        assert "Aufgeben beendet die Partie" in b.get("/lobby?lang=de").text
        bad = post_form(a, "/lobby/new", game="trambahn", seats="2", lang="en",
                        on_resign="later")
        assert bad.status_code == 422
        assert post_form(b, f"/lobby/{ends}/join").status_code == 303
        gid = a.app.state.accounts.open_game(ends).game_id
        assert b.get(f"/api/games/{gid}/clocks").json()["on_resign"] == "end"
        assert a.app.state.service.wait_for_bots(60, gid)
        token = links(b)[gid]
        r = b.post(f"/api/games/{gid}/resign", headers={"Authorization": f"Bearer {token}"},
                   json={})
        assert r.status_code == 200, r.text
        state = b.get(f"/api/games/{gid}").json()
        assert state["status"] == "over"
        assert state["log"][-1] == f"{bert} resigns: the game ends"
        accounts = a.app.state.accounts
        for _ in range(300):  # the ratings follow: Bert, who resigned, is placed last
            if accounts.is_rated(gid):
                break
            time.sleep(0.05)
        rows = accounts.game_results(gid)
        assert [(r.seat, r.place) for r in rows] == [(1, 1), (2, 2)]
        assert rows[0].after > rows[1].after
