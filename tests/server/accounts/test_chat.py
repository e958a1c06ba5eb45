"""The chat of a game (issue 24): seats and spectators with an account, escaped, capped,
rate-limited, live over a WebSocket, never in the record; players mute spectators."""

from __future__ import annotations

from tests.server.accounts.helpers import (
    csrf_of,
    links,
    make_app_client,
    open_and_fill,
    other_client,
    play_to_end,
    signup,
    uniq,
)
from tests.server.helpers import auth, new_game, token_of


def _csrf_header(client) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/account/csrf").json()["csrf"]}


def test_a_seat_s_message_carries_its_name_and_text_is_kept_as_text(db_url: str) -> None:
    with make_app_client(db_url) as c:
        created = new_game(c, names=["Ann", "Bob"])
        gid = created["id"]
        r = c.post(f"/api/games/{gid}/chat", json={"text": "  <b>hi</b> & good luck  "},
                   headers=auth(token_of(created, 2)))
        assert r.status_code == 201, r.text
        messages = c.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [(m["seat"], m["name"], m["text"]) for m in messages] == [
            (2, "Bob", "<b>hi</b> & good luck")]
        page = c.get(f"/g/{gid}").text
        assert 'id="chat"' in page and "/static/chat.js" in page
        assert "<b>hi</b>" not in page  # the page never carries the text as markup


def test_spectators_chat_with_an_account_only_and_may_be_muted(db_url: str) -> None:
    with make_app_client(db_url) as c:
        created = new_game(c, names=["Ann", "Bob"])
        gid = created["id"]
        watcher = other_client(c)
        r = watcher.post(f"/api/games/{gid}/chat", json={"text": "hello"})
        assert r.status_code == 401
        name = uniq("Wanda")
        signup(watcher, name)
        r = watcher.post(f"/api/games/{gid}/chat", json={"text": "hello"})
        assert r.status_code == 403 and r.json()["error"] == "bad_csrf"  # cookie without token
        r = watcher.post(f"/api/games/{gid}/chat", json={"text": "hello"},
                         headers=_csrf_header(watcher))
        assert r.status_code == 201 and r.json()["seat"] is None and r.json()["name"] == name
        message = r.json()["id"]
        # a spectator cannot mute; a seat can
        assert watcher.post(f"/api/games/{gid}/chat/mute", json={"message": message},
                            headers=_csrf_header(watcher)).status_code == 403
        r = c.post(f"/api/games/{gid}/chat/mute", json={"message": message},
                   headers=auth(token_of(created, 1)))
        assert r.status_code == 200
        r = watcher.post(f"/api/games/{gid}/chat", json={"text": "again"},
                         headers=_csrf_header(watcher))
        assert r.status_code == 403 and r.json()["error"] == "muted"


def test_messages_are_capped_checked_and_rate_limited(sqlite_url: str) -> None:
    with make_app_client(sqlite_url, chat_per_minute=1) as c:
        created = new_game(c)
        gid, token = created["id"], token_of(created, 1)
        say = lambda text: c.post(f"/api/games/{gid}/chat", json={"text": text},  # noqa: E731
                                  headers=auth(token))
        assert say("x" * 501).status_code == 422
        assert say("a\u202eb").status_code == 422  # a direction override
        assert say("line\nbreak").status_code == 422
        assert say("   ").status_code == 422
        assert say("x" * 500).status_code == 201
        codes = [say(f"m{i}").status_code for i in range(6)]
        assert codes == [201] * 4 + [429, 429]  # bursts of 5
        assert say("bots").status_code == 429
        bot_game = new_game(c, ["human", "bot:random"])
        r = c.post(f"/api/games/{bot_game['id']}/chat", json={"text": "x"})
        assert r.status_code == 401


def test_chat_is_never_in_the_record(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        gid = open_and_fill(a, b)
        tokens = {1: links(a)[gid], 2: links(b)[gid]}
        # the account that holds the seat writes with its session: the seat's name
        r = a.post(f"/api/games/{gid}/chat", json={"text": "secret plan 4711"},
                   headers=_csrf_header(a))
        assert r.status_code == 201 and r.json()["seat"] == 1
        play_to_end(a, gid, tokens)
        record = a.get(f"/api/games/{gid}/record").text
        assert "4711" not in record and "chat" not in record


def test_the_chat_socket_sends_old_and_new_messages(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as c:
        created = new_game(c, names=["Ann", "Bob"])
        gid = created["id"]
        c.post(f"/api/games/{gid}/chat", json={"text": "first"}, headers=auth(token_of(created, 1)))
        with c.websocket_connect(f"/api/games/{gid}/chat/live") as ws:
            assert [m["text"] for m in ws.receive_json()["chat"]] == ["first"]
            c.post(f"/api/games/{gid}/chat", json={"text": "second"},
                   headers=auth(token_of(created, 2)))
            frame = ws.receive_json()
            assert [(m["name"], m["text"]) for m in frame["chat"]] == [("Bob", "second")]
        with c.websocket_connect("/api/games/nosuchgame/chat/live") as ws:
            try:
                ws.receive_json()
                raise AssertionError("not closed")
            except Exception as exc:  # closed with 4404
                assert "4404" in repr(exc) or getattr(exc, "code", None) == 4404
        assert csrf_of(c, "/account/login")


def test_chat_and_lobby_sockets_keep_the_socket_caps(sqlite_url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with make_app_client(sqlite_url, sockets_per_address=1) as c:
        gid = new_game(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/chat/live") as first:
            assert first.receive_json() == {"chat": []}
            for path in (f"/api/games/{gid}/chat/live", "/api/lobby/live"):
                with c.websocket_connect(path) as second:
                    try:
                        second.receive_json()
                        raise AssertionError("not refused")
                    except WebSocketDisconnect as exc:
                        assert exc.code == 4429
            first.send_text("x" * 5000)  # over the 4096 bytes a client may send
            try:
                first.receive_json()
                raise AssertionError("not closed")
            except WebSocketDisconnect as exc:
                assert exc.code == 1009
        with c.websocket_connect("/api/lobby/live") as again:  # the slot was given back
            again.send_text("hi")


def test_the_game_s_own_socket_carries_its_chat(db_url: str) -> None:
    with make_app_client(db_url) as c:
        created = new_game(c, names=["Ann", "Bob"])
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/live?token={token_of(created, 1)}") as ws:
            assert "view" in ws.receive_json()  # the game's first frame, as before
            c.post(f"/api/games/{gid}/chat", json={"text": "hello"},
                   headers=auth(token_of(created, 2)))
            frame = ws.receive_json()
            assert [(m["name"], m["text"]) for m in frame["chat"]] == [("Bob", "hello")]
            # a move still arrives as a game frame
            state = c.get(f"/api/games/{gid}", headers=auth(token_of(created, 1))).json()
            c.post(f"/api/games/{gid}/moves", json={"n": state["n"], "action": state["legal"][0]},
                   headers=auth(token_of(created, 1)))
            assert ws.receive_json()["n"] == state["n"] + 1
        # a socket opened later gets the messages so far after its first frame
        with c.websocket_connect(f"/api/games/{gid}/live") as ws:
            assert "view" in ws.receive_json()
            assert [m["text"] for m in ws.receive_json()["chat"]] == ["hello"]
