"""Undo through the API (the core policy), bots in seats, the WebSocket, 1840 through the API."""

from __future__ import annotations

import random
import time

import pytest

from tests.server.helpers import auth, new_game, token_of


def play(client, gid, token, n, action):
    r = client.post(f"/api/games/{gid}/moves", json={"n": n, "action": action},
                    headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def wait_until(client, gid, token, predicate, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        if predicate(state):
            return state
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_undo_own_moves_until_the_draw_and_every_undo_is_logged(client):
    created = new_game(client)
    gid, t1, t2 = created["id"], token_of(created, 1), token_of(created, 2)
    start = client.get(f"/api/games/{gid}", headers=auth(t1)).json()
    first = next(m for m in start["legal"] if "passenger" in m)
    after = play(client, gid, t1, 0, first)
    assert after["undoable"] == 1
    # the other seat may not take it back; a spectator neither
    r = client.post(f"/api/games/{gid}/undo", json={"n": 1}, headers=auth(t2))
    assert r.status_code == 422 and r.json()["rule"] == "undo"
    assert client.post(f"/api/games/{gid}/undo", json={"n": 1}).status_code == 403
    assert client.post(f"/api/games/{gid}/undo", json={"n": 0}, headers=auth(t1)).status_code == 409
    r = client.post(f"/api/games/{gid}/undo", json={"n": 1}, headers=auth(t1))
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["n"] == 0 and back["view"] == start["view"] and back["legal"] == start["legal"]
    assert back["log"][-1].startswith("P1 takes back 1 move(s): " + first)
    # play on to the end of the turn: the draw reveals cards, so nothing can be taken back
    n, state = 0, back
    while True:
        move = next((m for m in state["legal"] if "passenger" in m), state["legal"][-1])
        state = play(client, gid, t1, n, move)
        n += 1
        if move.endswith(" end"):
            break
    assert state["undoable"] == 0
    r = client.post(f"/api/games/{gid}/undo", json={"n": n}, headers=auth(t1))
    assert r.status_code == 422 and "hidden information" in r.json()["message"]
    p2 = client.get(f"/api/games/{gid}", headers=auth(t2)).json()
    play(client, gid, t2, n, next(m for m in p2["legal"] if "passenger" in m))
    r = client.post(f"/api/games/{gid}/undo", json={"n": n + 1}, headers=auth(t1))
    assert r.status_code == 422 and "another player" in r.json()["message"]
    r = client.post(f"/api/games/{gid}/undo", json={"n": n + 1, "count": 2}, headers=auth(t2))
    assert r.status_code == 422


@pytest.mark.parametrize("bot", ["bot:random", "bot:rule", "bot:search"])
def test_a_bot_seat_plays_its_turns_from_its_own_view(sqlite_client, bot):
    client = sqlite_client
    created = new_game(client, ["human", bot])
    gid, t1 = created["id"], token_of(created, 1)
    rng = random.Random(3)
    state = client.get(f"/api/games/{gid}", headers=auth(t1)).json()
    turns = 0
    while state["status"] == "active" and turns < 4:
        move = rng.choice(state["legal"])
        state = play(client, gid, t1, state["n"], move)
        if move.endswith(" end"):
            turns += 1
            state = wait_until(client, gid, t1,
                               lambda s: s["to_act"] == [1] or s["status"] == "over")
    assert turns == 4
    log = "\n".join(state["log"])
    assert "P2 ends turn" in log
    # a person can never act for the bot's seat
    r = client.post(f"/api/games/{gid}/moves", json={"n": state["n"], "action": "P2 end"},
                    headers=auth(t1))
    assert r.status_code == 403


def test_bots_play_a_whole_game_and_the_record_follows(sqlite_client):
    client = sqlite_client
    created = new_game(client, ["bot:rule", "bot:search"])
    gid = created["id"]
    state = wait_until(client, gid, None, lambda s: s["status"] == "over", timeout=240)
    assert state["view"]["result"]["scores"] == state["view"]["scores"]
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["actions"]) == state["n"]
    from tramways.core import GameRecord, Session

    replayed = Session.from_record(GameRecord.from_data(record))
    assert replayed.state.is_over() and replayed.state.view(None).to_json()["scores"] == state["view"]["scores"]


def test_websocket_pushes_every_move_and_a_reconnecting_client_catches_up(client):
    created = new_game(client)
    gid, t1 = created["id"], token_of(created, 1)
    with client.websocket_connect(f"/api/games/{gid}/live?token={t1}") as ws:
        first = ws.receive_json()
        assert first["n"] == 0 and first["seat"] == 1 and first["legal"]
        play(client, gid, t1, 0, first["legal"][0])
        pushed = ws.receive_json()
        assert pushed["n"] == 1 and pushed["view"]["you"] == 0
    # while nobody watches, a move; then a reconnect gets the current state at once
    state = client.get(f"/api/games/{gid}", headers=auth(t1)).json()
    play(client, gid, t1, 1, state["legal"][-1])
    with client.websocket_connect(f"/api/games/{gid}/live") as ws:
        again = ws.receive_json()
        assert again["n"] == 2 and again["seat"] is None and again["view"]["hand"] is None


def test_websocket_refuses_unknown_games_and_tokens(sqlite_client):
    from starlette.websockets import WebSocketDisconnect

    created = new_game(sqlite_client)
    for url in ("/api/games/nope/live", f"/api/games/{created['id']}/live?token=bad"):
        with pytest.raises(WebSocketDisconnect) as exc:
            with sqlite_client.websocket_connect(url) as ws:
                ws.receive_json()
        assert exc.value.code in (4403, 4404)


def test_1840_is_created_and_played_through_the_api_with_its_record_public(client):
    created = new_game(client, ["human", "human", "bot:random"], game="1840",
                       names=["Ann", "Ben", None])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert [s["name"] for s in created["seats"]][:2] == ["Ann", "Ben"]
    rng = random.Random(5)
    moves = 0
    for _ in range(40):
        spectator = wait_until(client, gid, None, lambda s: s["to_act"] != [3]
                               or s["status"] == "over")
        seat = spectator["to_act"][0]
        mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json()
        assert mine["legal"] and mine["seat"] == seat
        other = 1 if seat == 2 else 2
        r = client.post(f"/api/games/{gid}/moves", json={"n": mine["n"], "action": mine["legal"][0]},
                        headers=auth(tokens[other]))
        assert r.status_code == 403
        play(client, gid, tokens[seat], mine["n"], rng.choice(mine["legal"]))
        moves += 1
    record = client.get(f"/api/games/{gid}/record")
    assert record.status_code == 200 and record.json()["game"] == "1840"
    assert len(record.json()["actions"]) >= moves


def test_the_move_that_ends_a_game_cannot_be_taken_back(sqlite_client):
    """The end reveals the record (seed, deck): undoing the last move would let a player
    continue knowing the deck, so the policy treats the end as a reveal."""
    service = sqlite_client.app.state.service
    created = service.create("trambahn", {}, ["human", "human"])
    gid = created["id"]
    rng = random.Random(9)
    while True:
        live = service.live(gid)
        if live.state.is_over():
            break
        seat = live.state.current_players()[0] + 1
        legal = service.payload(live, seat)["legal"]
        service.move(gid, seat, live.n, rng.choice(legal))
    last = live.played[-1]
    assert last.reveals
    token = created["seats"][last.seat]["token"]
    assert sqlite_client.get(f"/api/games/{gid}", headers=auth(token)).json()["undoable"] == 0
    r = sqlite_client.post(f"/api/games/{gid}/undo", json={"n": live.n}, headers=auth(token))
    assert r.status_code == 422 and r.json()["rule"] == "undo"
    assert sqlite_client.get(f"/api/games/{gid}/record").status_code == 200


def test_a_websocket_on_another_server_process_catches_moves_up_from_the_database(db_url):
    """Two app instances on one database (as two processes): a move made through one reaches
    a WebSocket of the other (it reads the database every few seconds)."""
    from tests.server.conftest import make_client

    with make_client(db_url) as a, make_client(db_url) as b:
        created = new_game(a)
        gid, t1 = created["id"], token_of(created, 1)
        with b.websocket_connect(f"/api/games/{gid}/live") as ws:
            assert ws.receive_json()["n"] == 0
            legal = a.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
            play(a, gid, t1, 0, legal[0])
            pushed = ws.receive_json()
            assert pushed["n"] == 1 and pushed["moves"] == [legal[0]]


def test_bots_resume_after_a_restart(sqlite_url):
    """A game stored while its bot was to act (the server stopped first) goes on at start."""
    from tests.server.conftest import make_client
    from tramways.games import get_game
    from tramways.server.storage import Store

    game = get_game("trambahn")
    settings = game.normalize_settings({})
    store = Store(sqlite_url)
    gid, tokens = store.create_game("trambahn", game.version, settings, 5,
                                    game.setup(settings, 5), [("bot:rule", "B"), ("human", "A")])
    store.close()
    with make_client(sqlite_url) as client:
        state = wait_until(client, gid, tokens[1], lambda s: s["to_act"] == [2])
        assert state["n"] >= 2 and "P1 ends turn 1" in state["log"]


def test_my_games_lists_the_games_of_my_tokens_my_turn_first(sqlite_client):
    a = new_game(sqlite_client)
    b = new_game(sqlite_client)
    mine = [token_of(a, 2), token_of(b, 1), "unknown"]
    listed = sqlite_client.post("/api/games/mine", json={"tokens": mine}).json()
    assert [(g["id"], g["seat"], g["your_turn"]) for g in listed] == [
        (b["id"], 1, True), (a["id"], 2, False)]


def test_postgresql_notify_wakes_the_other_server_process(db_url, monkeypatch):
    """On PostgreSQL a write NOTIFYs inside its transaction and every server LISTENs."""
    if not db_url.startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    import threading

    from tests.server.conftest import make_client

    with make_client(db_url) as a, make_client(db_url) as b:
        created = new_game(a)
        gid, t1 = created["id"], token_of(created, 1)
        hub = b.app.state.hub
        heard = threading.Event()
        real = hub.publish

        def spy(game_id, rev):
            if game_id == gid and rev == 1:
                heard.set()
            real(game_id, rev)

        monkeypatch.setattr(hub, "publish", spy)
        assert b.app.state.listening.wait(30)
        legal = a.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
        play(a, gid, t1, 0, legal[0])
        assert heard.wait(30)


def test_bots_get_the_position_to_search_and_one_bot_object_per_game_and_seat(
    sqlite_client, monkeypatch
):
    """The server hands a bot a copy of the position before it chooses (bots.match.give_position:
    the 1840 search re-samples the hidden line deck itself), and never shares a bot object (and
    what it remembers) between games."""
    import tramways.bots.match as match

    given = []
    real = match.give_position
    monkeypatch.setattr(
        match, "give_position", lambda bot, state, rng: (given.append(state), real(bot, state, rng))
    )
    one, two = (new_game(sqlite_client, ["bot:random", "human"]) for _ in range(2))
    for g in (one, two):
        wait_until(sqlite_client, g["id"], token_of(g, 2), lambda s: s["n"] > 0)
    assert len(given) >= 2, "each bot was handed its position"
    service = sqlite_client.app.state.service
    assert {(one["id"], 0, "bot:random"), (two["id"], 0, "bot:random")} <= set(service._bots)
