"""Play over days (issue 25, items 2, 3 and 6; docs/async.md): paces, reminders, a late seat
handed to a bot once, vacations, votes, resigning, taking a seat back, and the refusals; the
clock is injected (``ManualClock``), so an hour's pace passes in no time.  Each test asks
its own game's deadlines (``Deadlines.check``): on PostgreSQL the database holds the other
tests' paced games too, which a ``sweep`` would fire."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

pytest.importorskip("fastapi")

from tramways.server.clocks.clock import ManualClock  # noqa: E402
from tramways.server.clocks.deadlines import Deadlines  # noqa: E402


@pytest.fixture
def client(db_url: str):
    """The app with no deadline sweep of its own: the tests sweep on their manual clock, and a
    background sweep (every 30 s) on the advanced clock would fire what they count.

    On PostgreSQL the database is shared with the other tests, and the app resumes the bots
    of their unfinished games too: each test waits for its own game's bots
    (``wait_for_bots(..., gid)``) before it reads who is to act."""
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    settings = ServerSettings(database_url=db_url, moves_per_second=0, games_per_minute=0,
                              bot_games_per_hour=0, max_bot_games=0, deadline_sweep_seconds=0)
    with TestClient(create_app(settings)) as c:
        yield c


def _settled(client, gid: str) -> None:
    """Wait until the game's bots have played what they had to (a person is to act)."""
    assert client.app.state.service.wait_for_bots(60, gid)


def _setup(client, seats: list[str]) -> tuple[str, list[str | None], Deadlines, list]:
    made = client.post("/api/games", json={"game": "1840", "seats": seats}).json()
    _settled(client, made["id"])
    d: Deadlines = client.app.state.deadlines
    d.clock = ManualClock()
    sent: list = []
    d.remind = sent.append
    return made["id"], [s["token"] for s in made["seats"]], d, sent


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _to_act(client, gid: str) -> int:
    return int(client.get(f"/api/games/{gid}").json()["to_act"][0])


def test_async_a_late_seat_is_reminded_then_handed_to_a_bot_once_and_taken_back(client) -> None:
    gid, tokens, d, sent = _setup(client, ["human", "human", "bot:rule", "bot:rule"])
    reply = client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                        json={"hours": 1, "on_deadline": "hand_over", "bot": "bot:rule"})
    assert reply.status_code == 200, reply.text
    late = _to_act(client, gid)
    assert late in (1, 2)
    clocks = client.get(f"/api/games/{gid}/clocks").json()
    mine = clocks["seats"][late - 1]
    assert mine["to_act"] and mine["waiting_seconds"] == 0 and not mine["late"]
    d.clock.advance(29 * 60)
    assert d.check(gid) == 0 and sent == []
    d.clock.advance(2 * 60)  # half the pace: the reminder, once
    assert d.check(gid) == 1 and d.check(gid) == 0
    assert [(e.game_id, e.seats[0][0], e.reminder) for e in sent] == [(gid, late, True)]
    other = 3 - late
    refused = client.post(f"/api/games/{gid}/takeover", headers=_auth(tokens[other - 1]),
                          json={"seat": late})
    assert refused.status_code == 422 and refused.json()["error"] == "not_late"
    d.clock.advance(30 * 60)  # the deadline: the seat goes to the bot, once
    assert d.check(gid) == 1 and d.check(gid) == 0
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][late - 1]["kind"] == "bot:rule"
    name = state["seats"][late - 1]["name"]
    assert (f"{name}'s deadline passed: the computer (rule) plays the seat until its owner "
            "takes it back") in state["log"]
    _settled(client, gid)
    now = client.get(f"/api/games/{gid}").json()
    assert now["n"] >= 1 and now["to_act"] != [late]  # the bot played the late seat's move
    back = client.post(f"/api/games/{gid}/take-back", headers=_auth(tokens[late - 1]))
    assert back.status_code == 200, back.text
    _settled(client, gid)
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][late - 1]["kind"] == "human"
    assert f"{name} takes the seat back from the computer (rule)" in state["log"]
    assert sorted((f[0], f[2], f[3]) for f in d.store.fired(gid)) == [
        (late, "deadline", True), (late, "remind", True)]


def test_async_a_deadline_of_nothing_leaves_the_seat_late_and_another_player_hands_it_over(
        client) -> None:
    """``on_deadline: nothing``: past the deadline nothing fires (no reminder, no move, no
    hand-over) and the clocks show the seat late; another person then hands it to a bot of
    the strength they choose (``takeover``), which is logged, and its owner takes it back."""
    gid, tokens, d, sent = _setup(client, ["human", "human", "bot:rule", "bot:rule"])
    reply = client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                        json={"hours": 1, "on_deadline": "nothing", "bot": "bot:rule"})
    assert reply.status_code == 200, reply.text
    late = _to_act(client, gid)
    other = 3 - late
    n = client.get(f"/api/games/{gid}").json()["n"]
    d.clock.advance(3 * 3600)
    assert d.check(gid) == 0 and sent == [] and d.store.fired(gid) == []
    seat = client.get(f"/api/games/{gid}/clocks").json()["seats"][late - 1]
    assert seat["to_act"] and seat["late"] and seat["waiting_seconds"] == 3 * 3600
    state = client.get(f"/api/games/{gid}").json()
    assert state["n"] == n and state["seats"][late - 1]["kind"] == "human"
    reply = client.post(f"/api/games/{gid}/takeover", headers=_auth(tokens[other - 1]),
                        json={"seat": late, "bot": "bot:easy"})
    assert reply.status_code == 200, reply.text
    state = client.get(f"/api/games/{gid}").json()
    names = [s["name"] for s in state["seats"]]
    assert state["seats"][late - 1]["kind"] == "bot:easy"
    assert state["log"].count(f"{names[other - 1]} hands {names[late - 1]}'s seat to the "
                              "computer (easy): its deadline passed") == 1
    _settled(client, gid)
    assert client.get(f"/api/games/{gid}").json()["n"] > n  # the bot played the seat's move
    back = client.post(f"/api/games/{gid}/take-back", headers=_auth(tokens[late - 1]))
    assert back.status_code == 200, back.text
    _settled(client, gid)
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][late - 1]["kind"] == "human"
    assert f"{names[late - 1]} takes the seat back from the computer (easy)" in state["log"]


def test_async_a_deadline_fires_once_across_processes(client) -> None:
    gid, tokens, d, sent = _setup(client, ["human", "human", "bot:rule", "bot:rule"])
    client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                json={"minutes": 5, "on_deadline": "hand_over"})
    # a second process: its own service and clocks on the same database
    from tramways.server.service import GameService

    other = Deadlines(GameService(d.service.store, bot_workers=1), d.clock,
                      remind=sent.append)
    d.clock.advance(6 * 60)
    counts: list[int] = []
    threads = [threading.Thread(target=lambda x=x: counts.append(x.check(gid)))
               for x in (d, other, d, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 2  # one reminder and one hand-over, by whichever process
    assert len(sent) == 1
    log = client.get(f"/api/games/{gid}").json()["log"]
    assert sum("deadline passed" in line for line in log) == 1
    other.service.close()


def test_async_a_claim_left_by_a_killed_process_is_taken_over(client) -> None:
    gid, tokens, d, sent = _setup(client, ["human", "bot:rule", "bot:rule", "bot:rule"])
    client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                json={"minutes": 5, "on_deadline": "remind"})
    n = client.get(f"/api/games/{gid}").json()["n"]
    now = d.clock.now()
    # a process claimed the deadline, then died (kill -9) before sending
    assert d.store.claim(gid, 1, n, "deadline", now, 60)
    assert not d.store.claim(gid, 1, n, "deadline", now + timedelta(seconds=30), 60)
    d.clock.advance(6 * 60)
    assert d.check(gid) == 1 and len(sent) == 1
    assert d.store.fired(gid) == [(1, n, "deadline", True)]


def test_async_vacation_pauses_the_clock(client) -> None:
    gid, tokens, d, sent = _setup(client, ["human", "bot:rule", "bot:rule", "bot:rule"])
    client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                json={"hours": 1, "on_deadline": "bot_move"})
    until = (d.clock.now() + timedelta(hours=3)).isoformat()
    assert client.post(f"/api/games/{gid}/vacation", headers=_auth(tokens[0]),
                       json={"until": until}).status_code == 200
    n = client.get(f"/api/games/{gid}").json()["n"]
    d.clock.advance(2 * 3600)
    assert d.check(gid) == 0 and client.get(f"/api/games/{gid}").json()["n"] == n
    seat = client.get(f"/api/games/{gid}/clocks").json()["seats"][0]
    assert seat["vacation_until"] and seat["deadline"] is None
    d.clock.advance(2 * 3600 + 1)  # back for an hour: the deadline, a bot's move for me
    assert d.check(gid) == 2
    state = client.get(f"/api/games/{gid}").json()
    assert state["n"] > n and state["seats"][0]["kind"] == "human"


def test_async_the_other_players_vote_a_seat_out_and_a_seat_resigns(client) -> None:
    gid, tokens, d, _sent = _setup(client, ["human", "human", "human", "bot:rule"])
    first = client.post(f"/api/games/{gid}/vote", headers=_auth(tokens[1]), json={"seat": 1})
    assert first.json() == {"voters": [2], "needed": [2, 3], "handed": False}
    again = client.post(f"/api/games/{gid}/vote", headers=_auth(tokens[1]), json={"seat": 1})
    assert again.json()["voters"] == [2]  # a vote counts once
    done = client.post(f"/api/games/{gid}/vote", headers=_auth(tokens[2]), json={"seat": 1})
    assert done.json()["handed"] is True
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][0]["kind"] == "bot:rule"
    assert any(line.startswith("The other players voted") for line in state["log"])
    assert client.post(f"/api/games/{gid}/resign", headers=_auth(tokens[2]),
                       json={"bot": "bot:random"}).status_code == 200
    _settled(client, gid)
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][2]["kind"] == "bot:random"
    refused = client.post(f"/api/games/{gid}/take-back", headers=_auth(tokens[2]))
    assert refused.status_code == 422 and refused.json()["error"] == "resigned"


def _clock_rows(client, gid: str) -> dict[str, list]:
    """The game's rows in every table of play over days, and its seats, revision and log."""
    import sqlalchemy as sa

    from tramways.server.clocks.schema import deadline_fired, game_pace, seat_clocks, seat_votes
    from tramways.server.tables import games, log, seats

    out: dict[str, list] = {}
    with client.app.state.store.engine.connect() as conn:
        for table in (game_pace, seat_clocks, deadline_fired, seat_votes, seats, log):
            out[table.name] = sorted(tuple(r) for r in conn.execute(
                sa.select(table).where(table.c.game_id == gid)))
        out["rev"] = list(conn.execute(sa.select(games.c.rev).where(games.c.id == gid)))
    return out


def test_async_bad_requests_are_refused_with_one_message_and_change_nothing(client) -> None:
    """Issue 25's quality bar: a program that can never fire, a time in the past, a vote by a
    spectator, a takeover of a seat that is not late (and the other refusals of
    docs/async.md): each refused with its one message, and no row of the game changed."""
    gid, tokens, d, _sent = _setup(client, ["human", "human", "bot:rule", "bot:rule"])
    paced = client.post(f"/api/games/{gid}/pace", headers=_auth(tokens[0]),
                        json={"hours": 1, "on_deadline": "hand_over"})
    assert paced.status_code == 200, paced.text
    to_act = _to_act(client, gid)
    other = 3 - to_act
    d.clock.advance(59 * 60)  # a minute before the deadline: late it is not
    assert d.check(gid) == 1  # the reminder, half-way: before the snapshot
    name = client.get(f"/api/games/{gid}").json()["seats"][to_act - 1]["name"]
    before = (_clock_rows(client, gid), client.get(f"/api/games/{gid}/record").json(),
              client.get(f"/api/games/{gid}/clocks").json())
    n = before[1]["actions"].__len__()
    past = (d.clock.now() - timedelta(hours=1)).isoformat()
    cases = [
        ("pace", tokens[0], {"minutes": 0}, 422, "bad_pace",
         "a pace is between 1 minute and 30 days a move"),
        ("pace", tokens[0], {"hours": 24 * 31}, 422, "bad_pace",
         "a pace is between 1 minute and 30 days a move"),
        ("pace", tokens[0], {"hours": 24, "bot": "bot:nobody"}, 422, "bad_bot",
         "the stand-in is one of bot:easy, bot:normal, bot:random, bot:rule, bot:search, "
         "bot:strong"),
        ("pace", None, {"hours": 24}, 403, "spectator",
         "spectators cannot set the pace: use your seat's link"),
        ("vacation", tokens[0], {"until": past}, 422, "in_the_past",
         "that time is in the past (now: 2026-01-01T00:59+00:00)"),
        ("vacation", tokens[0], {"until": "2026-01-01T05:00"}, 422, "bad_time",
         "give the time with its zone (2026-12-01T18:00Z)"),
        ("vacation", tokens[0], {"until": "2026-04-01T00:00Z"}, 422, "too_long",
         "a vacation lasts at most 60 days"),
        ("vote", None, {"seat": 1}, 403, "spectator",
         "spectators cannot vote: use your seat's link"),
        ("vote", tokens[0], {"seat": 3}, 422, "not_a_person",
         "Player 3 is played by the computer already"),
        ("vote", tokens[0], {"seat": 1}, 422, "own_seat", "that is your own seat: resign instead"),
        ("takeover", tokens[other - 1], {"seat": to_act}, 422, "not_late",
         f"{name} is not late: a seat is handed over only after its deadline (or by a vote of "
         "the other players)"),
        ("takeover", None, {"seat": to_act}, 403, "spectator",
         "spectators cannot hand a seat over: use your seat's link"),
        ("takeover", tokens[0], {"seat": 1}, 422, "own_seat",
         "that is your own seat: resign instead"),
        ("takeover", tokens[0], {"seat": 7}, 422, "bad_request", None),
        ("take-back", tokens[0], {}, 422, "not_handed",
         "this seat is yours already: nothing to take back"),
        ("moves", tokens[0], {"n": n, "action": "P1 program buy W 7"}, 422, "illegal",
         "cannot program buying W up to 7 shares (a company in the game, more shares than "
         "held, at most 6)"),
        ("moves", tokens[0], {"n": n, "action": "P1 program off auctions"}, 422, "illegal",
         "no auctions program to switch off"),
    ]
    for path, token, body, status, error, message in cases:
        reply = client.post(f"/api/games/{gid}/{path}", headers=_auth(token), json=body)
        assert (reply.status_code, reply.json()["error"]) == (status, error), (path, reply.text)
        if message is not None:
            assert reply.json()["message"] == message, (path, body)
    after = (_clock_rows(client, gid), client.get(f"/api/games/{gid}/record").json(),
             client.get(f"/api/games/{gid}/clocks").json())
    assert after == before
    assert [f[2] for f in d.store.fired(gid)] == ["remind"]
