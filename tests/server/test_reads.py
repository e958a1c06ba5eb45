"""Reads that cost CPU (issue 29 item 2, issue 24 item 5): past positions are kept and replayed
from the nearest one, the costly reads are rate-limited per address, and their work runs in
worker threads, never on the event loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import auth, new_game, token_of
from tramways.core import GameRecord
from tramways.core.undo import Played
from tramways.games import get_game
from tramways.server import ServerSettings, create_app
from tramways.server.history import History

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _golden_1840() -> tuple[GameRecord, list, list[Played]]:
    record = GameRecord.load(str(GOLDEN / "1840-2p-two-player-map.json"))
    game = get_game("1840")
    state = game.new_state(record.settings, record.setup, record.seed)
    actions, played = [], []
    for text in record.actions:
        action = game.parse_action(text)
        seats = state.seats_for(action)
        seat = seats[0] if seats else None
        state.apply(action, seat)
        actions.append(action)
        played.append(Played(seat, False))
    return record, actions, played


def test_past_positions_replay_forward_from_the_nearest_kept_one():
    record, actions, played = _golden_1840()
    game = get_game("1840")

    def fresh():
        return game.new_state(record.settings, record.setup, record.seed)

    history = History(size=16, every=50)
    key = ("g", 0)
    at_120 = history.position(key, 120, fresh, actions, played)
    assert history.replayed == 120  # from the start, keeping 50 and 100 on the way
    at_130 = history.position(key, 130, fresh, actions, played)
    assert history.replayed == 130  # 10 more, from 120
    at_60 = history.position(key, 60, fresh, actions, played)
    assert history.replayed == 140  # 10 more, from the one kept at 50
    assert history.position(key, 130, fresh, actions, played) is at_130  # kept: no replay
    assert history.replayed == 140
    for past in (at_60, at_120, at_130):  # the same positions as a replay from the start
        state = fresh()
        lines: list[str] = []
        for a, p in zip(actions[:past.n], played, strict=False):
            lines.extend(state.apply(a, p.seat))
        assert past.state.view(0) == state.view(0) and list(past.lines) == lines
    # another line of play (after an undo) never gets this line's positions
    history.position(("g", 2), 60, fresh, actions, played)
    assert history.replayed == 200


def test_history_keeps_at_most_its_size():
    record, actions, played = _golden_1840()
    game = get_game("1840")
    history = History(size=3, every=10)
    history.position(("g", 0), 100, lambda: game.new_state(record.settings, record.setup,
                                                             record.seed), actions, played)
    assert len(history) == 3


def _play(client, gid: str, tokens: list[str], moves: int) -> int:
    """Play ``moves`` Trambahn moves (the first legal one of the seat to act); the count."""
    n = 0
    for _ in range(moves):
        state = client.get(f"/api/games/{gid}").json()
        seat = state["to_act"][0]
        legal = client.get(f"/api/games/{gid}", headers=auth(tokens[seat - 1])).json()["legal"]
        r = client.post(f"/api/games/{gid}/moves", json={"n": n, "action": legal[0]},
                        headers=auth(tokens[seat - 1]))
        assert r.status_code == 200, r.text
        n += 1
    return n


def test_at_n_after_an_undo_shows_the_new_line_not_the_taken_back_one(client):
    created = new_game(client)
    gid, tokens = created["id"], [token_of(created, 1), token_of(created, 2)]
    t1 = tokens[0]
    legal = client.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
    first, second = legal[0], legal[1]
    assert client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": first},
                       headers=auth(t1)).status_code == 200
    before = client.get(f"/api/games/{gid}?at=1", headers=auth(t1))
    assert client.get(f"/api/games/{gid}?at=0", headers=auth(t1)).status_code == 200
    assert client.post(f"/api/games/{gid}/undo", json={"n": 1},
                       headers=auth(t1)).status_code == 200
    now = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": second},
                      headers=auth(t1)).json()
    assert client.post(f"/api/games/{gid}/moves", json={"n": 1, "action": now["legal"][0]},
                       headers=auth(t1)).status_code == 200
    again = client.get(f"/api/games/{gid}?at=1", headers=auth(t1)).json()
    assert again["moves"] == [second] != before.json()["moves"]
    assert again["view"] == now["view"]


def _reads_client(url: str, **limits: float) -> TestClient:
    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, **limits)))


def test_past_positions_and_previews_are_rate_limited_per_address(sqlite_url):
    with _reads_client(sqlite_url, reads_per_second=0.01, read_burst=2) as c:
        gid = new_game(c)["id"]
        assert c.get(f"/api/games/{gid}?at=0").status_code == 200
        assert c.get(f"/g/{gid}/table?at=0").status_code == 200
        refused = c.get(f"/api/games/{gid}?at=0")
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
        assert c.get(f"/g/{gid}?at=0").status_code == 429
        assert c.get(f"/g/{gid}/board?lay=L1 lay D18 235 r0").status_code == 429
        # the present position and the pages are not costly reads: never refused
        assert c.get(f"/api/games/{gid}").status_code == 200
        assert c.get(f"/g/{gid}").status_code == 200


def test_board_preview_and_history_work_in_worker_threads(sqlite_url, monkeypatch):
    """The SVG, the best run and a past position are computed where no event loop runs."""
    from tramways.server.web import g1840_table

    seen: list[bool] = []
    board_svg = g1840_table.board_svg
    table_model = g1840_table.table_model

    def on_loop() -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        return True

    def svg(*args, **kw):
        seen.append(on_loop())
        return board_svg(*args, **kw)

    def model(*args, **kw):
        seen.append(on_loop())
        return table_model(*args, **kw)

    monkeypatch.setattr(g1840_table, "board_svg", svg)
    monkeypatch.setattr(g1840_table, "table_model", model)
    with _reads_client(sqlite_url, read_processes=0) as c:  # the pool's own: test_readpool
        gid = new_game(c, ["human"] * 4, game="1840", settings={"players": 4})["id"]
        assert c.get(f"/g/{gid}/board?lay=L1 lay D18 235 r0").status_code == 200
        assert c.get(f"/g/{gid}?at=0").status_code == 200
        assert c.get(f"/g/{gid}").status_code == 200
    assert seen and not any(seen)


@pytest.mark.parametrize("moves", [6])
def test_since_sends_only_the_log_lines_and_moves_after_the_cursor(client, moves):
    created = new_game(client)
    gid, tokens = created["id"], [token_of(created, 1), token_of(created, 2)]
    held = client.get(f"/api/games/{gid}").json()
    assert held["log_from"] == 0 and held["moves_from"] == 0
    assert held["log_length"] == len(held["log"])
    _play(client, gid, tokens, moves)
    whole = client.get(f"/api/games/{gid}").json()
    new = client.get(f"/api/games/{gid}", params={"since": held["cursor"]}).json()
    assert new["log_from"] == len(held["log"]) and new["moves_from"] == held["n"]
    assert held["log"] + new["log"] == whole["log"]
    assert held["moves"] + new["moves"] == whole["moves"]
    assert new["view"] == whole["view"] and new["cursor"] == whole["cursor"]
    # nothing new: nothing sent
    same = client.get(f"/api/games/{gid}", params={"since": whole["cursor"]}).json()
    assert same["log"] == [] and same["moves"] == []
    # a move's reply with since: only that move and its lines
    seat = whole["to_act"][0]
    mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat - 1])).json()
    reply = client.post(f"/api/games/{gid}/moves", params={"since": mine["cursor"]},
                        json={"n": mine["n"], "action": mine["legal"][0]},
                        headers=auth(tokens[seat - 1])).json()
    assert reply["moves_from"] == mine["n"] and len(reply["moves"]) == 1
    assert mine["log"] + reply["log"] == client.get(f"/api/games/{gid}").json()["log"]


def test_after_an_undo_the_moves_come_whole_and_the_log_goes_on(client):
    created = new_game(client)
    gid, t1 = created["id"], token_of(created, 1)
    held = client.get(f"/api/games/{gid}", headers=auth(t1)).json()
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": held["legal"][0]},
                    headers=auth(t1)).json()
    cursor = r["cursor"]
    assert client.post(f"/api/games/{gid}/undo", json={"n": 1},
                       headers=auth(t1)).status_code == 200
    after = client.get(f"/api/games/{gid}", params={"since": cursor}, headers=auth(t1)).json()
    assert after["moves_from"] == 0 and after["moves"] == [] and after["n"] == 0
    assert after["log_from"] == r["log_length"] and "takes back" in after["log"][-1]


def test_a_since_that_is_no_cursor_is_refused_and_a_foreign_one_gets_everything(client):
    gid = new_game(client)["id"]
    bad = client.get(f"/api/games/{gid}", params={"since": "yesterday"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_since"
    whole = client.get(f"/api/games/{gid}", params={"since": "99.99.99"}).json()
    assert whole["log_from"] == 0 and whole["log"] == client.get(f"/api/games/{gid}").json()["log"]


def test_websocket_frames_after_the_first_carry_only_what_is_new(client):
    created = new_game(client)
    gid, tokens = created["id"], [token_of(created, 1), token_of(created, 2)]
    with client.websocket_connect(f"/api/games/{gid}/live") as ws, \
            client.websocket_connect(f"/api/games/{gid}/live?full=true") as full:
        first = ws.receive_json()
        assert first["log_from"] == 0 and full.receive_json()["log_from"] == 0
        _play(client, gid, tokens, 1)
        frame = ws.receive_json()
        assert frame["log_from"] == first["log_length"] and frame["moves_from"] == 0
        assert len(frame["moves"]) == 1
        assert first["log"] + frame["log"] == client.get(f"/api/games/{gid}").json()["log"]
        whole = full.receive_json()
        assert whole["log_from"] == 0 and whole["log"] == first["log"] + frame["log"]
    # a socket opened with a cursor starts from there
    with client.websocket_connect(f"/api/games/{gid}/live?since={first['cursor']}") as ws:
        resumed = ws.receive_json()
        assert resumed["log"] == frame["log"] and resumed["moves"] == frame["moves"]


def test_a_frame_after_a_move_of_this_process_is_built_without_a_database_read(sqlite_url):
    with _reads_client(sqlite_url) as c:
        created = new_game(c)
        gid, t1 = created["id"], token_of(created, 1)
        held = c.get(f"/api/games/{gid}", headers=auth(t1)).json()
        moved = c.post(f"/api/games/{gid}/moves", json={"n": 0, "action": held["legal"][0]},
                       headers=auth(t1)).json()
        service = c.app.state.service
        store_rev = service.store.rev

        def no_reads(game_id):
            raise AssertionError("the frame read the database")

        service.store.rev = no_reads
        try:
            frame = service.frame(gid, 2, held["cursor"], moved["rev"])
        finally:
            service.store.rev = store_rev
        assert frame["rev"] == moved["rev"] and frame["moves_from"] == 0
        assert len(frame["moves"]) == 1
        # an announced revision newer than the cache's (another process's move), or none
        # (a poll): the database is asked
        asked: list[str] = []
        service.store.rev = lambda game_id: asked.append(game_id) or store_rev(game_id)
        try:
            service.frame(gid, 2, None, moved["rev"] + 1)
            service.frame(gid, 2, None, None)
        finally:
            service.store.rev = store_rev
        assert asked == [gid, gid]


def test_a_subscription_reports_the_newest_revision_or_asks_the_database():
    from tramways.server.live import Hub

    async def main() -> list[int | None]:
        hub = Hub()
        sub = hub.subscribe("g")
        hub.publish("g", 5)
        hub.publish("g", 7)
        hub.publish("g", 6)
        first = await sub.wait(1.0)
        hub.publish("g", 8)
        hub.wake_all()  # a lost LISTEN: the database must be asked
        second = await sub.wait(1.0)
        third = await sub.wait(0.01)  # the poll after a time-out asks too
        sub.close()
        return [first, second, third]

    assert asyncio.run(main()) == [7, None, None]
