"""Ratings and profiles (issue 24): Elo for Trambahn (T-R-4 decides the winner), OpenSkill
for 1840 (XI / R-END-1 ranks), bots rated too; a game is rated once."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from tests.server.accounts.helpers import (
    links,
    make_app_client,
    open_and_fill,
    other_client,
    play_to_end,
    signup,
    uniq,
)
from tests.server.helpers import auth
from tramways.g1840.view_types import Result
from tramways.server.accounts.ratings import elo, new_ratings, places, start_rating
from tramways.server.accounts.tables import Rating
from tramways.trambahn.view_types import TrambahnResult


def test_elo_moves_points_from_the_loser_to_the_winner() -> None:
    assert elo(1500, 1500, 1.0) == (1516.0, 1484.0)
    assert elo(1500, 1500, 0.5) == (1500.0, 1500.0)
    a, b = elo(1700, 1500, 1.0)
    assert round(a - 1700, 2) == round(1500 - b, 2) == 7.69  # the favourite wins less


def test_trambahn_places_follow_the_winner_of_t_r_4() -> None:
    won = TrambahnResult(scores=(40, 52), regular=(40, 40), extra_tours=(0, 12), money=(3, 2),
                         winner=1, regular_scorings=10, reason="tenth scoring")
    assert places(won) == [2, 1]
    assert places(replace(won, scores=(52, 52), money=(2, 2), winner=None)) == [1, 1]


def test_1840_places_follow_the_rank_of_r_end_1() -> None:
    assert places(Result(wealth=(900, 1200, 900), rank=(2, 1, 2), winners=(1,))) == [2, 1, 2]


def test_resign_places_rate_the_resigner_last_in_both_games() -> None:
    """docs/async.md (``on_resign: "end"``): the golden games ended by a resignation rate
    the resigner last, whatever the standing (1840: P3 was second by wealth; Trambahn: P1
    led 16 to 0)."""
    from pathlib import Path

    from tramways.core import GameRecord, Session

    golden = Path(__file__).resolve().parents[2] / "golden"
    g1840 = Session.from_record(GameRecord.load(golden / "1840-4p-resigned.json")).state
    assert places(g1840.outcome()) == [1, 3, 4, 2]
    trambahn = Session.from_record(GameRecord.load(golden / "trambahn-resigned.json")).state
    assert places(trambahn.outcome()) == [2, 1]
    after = new_ratings("1840", [start_rating("1840")] * 4, places(g1840.outcome()))
    assert min(after, key=lambda r: r.mu) == after[2]


def test_openskill_rates_an_1840_ranking_of_r_end_1() -> None:
    fresh = start_rating("1840")
    assert (round(fresh.mu, 3), round(fresh.sigma, 3)) == (25.0, 8.333)
    after = new_ratings("1840", [fresh, fresh, fresh], [1, 2, 3])
    assert after[0].mu > fresh.mu > after[2].mu and after[1].mu < after[0].mu
    assert all(r.sigma < fresh.sigma and r.games == 1 for r in after)


def _wait_rated(client, gid: str) -> None:
    for _ in range(200):
        if client.app.state.accounts.is_rated(gid):
            return
        time.sleep(0.05)
    raise AssertionError("not rated")


def test_a_finished_trambahn_game_of_two_accounts_changes_both_ratings(db_url: str) -> None:
    with make_app_client(db_url) as a:
        b = other_client(a)
        anna, bert = uniq("Anna"), uniq("Bert")
        signup(a, anna)
        signup(b, bert)
        gid = open_and_fill(a, b)
        tokens = {1: links(a)[gid], 2: links(b)[gid]}
        play_to_end(a, gid, tokens)
        _wait_rated(a, gid)
        outcome = a.app.state.service.live(gid).state.outcome()
        winner = outcome.winner
        accounts = a.app.state.accounts
        rows = accounts.game_results(gid)
        assert [r.seat for r in rows] == [1, 2]
        assert [r.place for r in rows] == places(outcome)
        if winner is None:
            assert [r.after for r in rows] == [1500.0, 1500.0]
        else:
            assert rows[winner].after == 1516.0 and rows[1 - winner].after == 1484.0
        page = a.get("/account").text
        assert bert in page and "Trambahn" in page
        # rated once: a second try is refused
        assert not a.app.state.rater.rate(gid)
        assert not accounts.save_results(gid, "trambahn",
                                         [(1, "a:x", 1, Rating(1, 0, 0), Rating(2, 0, 1))])


@pytest.mark.parametrize("bot", ["bot:random"])
def test_bots_have_ratings_too(sqlite_url: str, bot: str) -> None:
    with make_app_client(sqlite_url) as a:
        signup(a, uniq("Anna"))
        created = a.post("/api/games", json={"game": "trambahn", "seats": ["human", bot]}).json()
        gid, token = created["id"], created["seats"][0]["token"]
        # a link-only seat is nobody to rate: claim it first
        from tests.server.accounts.helpers import post_form

        r = post_form(a, "/account/claim", "/account", game=gid, token=token)
        assert r.status_code == 303
        new = r.headers["location"].split("token=")[1]
        assert a.get(f"/api/games/{gid}", headers=auth(token)).status_code == 403
        for _ in range(3000):
            a.app.state.service.wait_for_bots(10)
            state = a.get(f"/api/games/{gid}", headers=auth(new)).json()
            if state["status"] != "active":
                break
            if state["to_act"] == [1]:
                ends = [m for m in state["legal"] if m.endswith(" end")]
                a.post(f"/api/games/{gid}/moves", json={"n": state["n"],
                       "action": (ends or state["legal"])[0]}, headers=auth(new))
        _wait_rated(a, gid)
        ratings = a.app.state.accounts.ratings_of([bot], "trambahn")
        rows = a.app.state.accounts.game_results(gid)
        assert ratings[bot].games == 1 and rows[1].player == bot
        assert ratings[bot].mu == rows[1].after != 1500.0 or rows[0].place == rows[1].place
        assert bot in a.get("/lobby").text  # the computer players' ratings


def test_a_finished_game_missed_by_the_rater_is_rated_when_listed(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        gid = open_and_fill(a, b)
        rater = a.app.state.rater
        rater.submit = lambda *_args: None  # as if the writing process died before rating
        a.app.state.service._listeners = [x for x in a.app.state.service._listeners
                                          if getattr(x, "__self__", None) is not rater]
        play_to_end(a, gid, {1: links(a)[gid], 2: links(b)[gid]})
        time.sleep(0.2)
        assert not a.app.state.accounts.is_rated(gid)
        listed = b.get("/api/account/games").json()
        assert listed[0]["status"] == "over"
        assert a.app.state.accounts.is_rated(gid)
        assert len(a.app.state.accounts.game_results(gid)) == 2


def test_a_move_of_a_game_that_goes_on_asks_the_rater_no_database_read(sqlite_url: str) -> None:
    """Issue 29 item 5 (server CPU a move): the rater looked at every write through the
    database (the game's ``rev``); a write of this process whose cached position goes on
    needs no look. A game that ended is still rated (the test above)."""
    from tests.server.helpers import new_game, token_of

    with make_app_client(sqlite_url) as c:
        created = new_game(c)
        gid = created["id"]
        rater = c.app.state.rater
        service = c.app.state.service
        state = c.get(f"/api/games/{gid}", params={"token": token_of(created, 1)}).json()
        r = c.post(f"/api/games/{gid}/moves", params={"token": token_of(created, 1)},
                   json={"n": state["n"], "action": state["legal"][0]})
        assert r.status_code == 200
        rev = r.json()["rev"]
        assert rater.goes_on(gid, rev)  # cached at that revision, not over: no look
        assert not rater.goes_on(gid, rev + 1)  # a newer write: look (through the database)
        assert not rater.goes_on("nosuchgame", 1)
        service.forget(gid)
        assert not rater.goes_on(gid, rev)  # nothing cached: look


def test_a_move_of_a_game_that_goes_on_wakes_no_rater_thread(sqlite_url: str) -> None:
    """Issue 29 (server CPU a move): a write whose cached position goes on is not queued for
    the rater's thread at all (waking it was 2% of the samples at 1,000 games); one the
    process cannot see going on is."""
    from tests.server.helpers import new_game, token_of

    with make_app_client(sqlite_url) as c:
        created = new_game(c)
        gid = created["id"]
        rater = c.app.state.rater
        queued: list[tuple[str, int]] = []
        real = rater._queue
        rater._queue = type("Q", (), {"put_nowait": lambda _self, item: queued.append(item)})()
        try:
            state = c.get(f"/api/games/{gid}", params={"token": token_of(created, 1)}).json()
            r = c.post(f"/api/games/{gid}/moves", params={"token": token_of(created, 1)},
                       json={"n": state["n"], "action": state["legal"][0]})
            assert r.status_code == 200 and queued == []
            rater.submit(gid, r.json()["rev"] + 1)  # a write this process has not seen
            assert queued == [(gid, r.json()["rev"] + 1)]
        finally:
            rater._queue = real


def test_a_rating_that_fails_once_in_the_database_is_tried_again(sqlite_url: str) -> None:
    """Issue 24 (a finished game is rated once, on SQLite and PostgreSQL): a database error
    while rating (a pool timeout, a lost connection) no longer leaves the game unrated until
    someone lists it; the retry rates it once (the primary key of ``results``)."""
    import sqlalchemy as sa

    from tramways.server.accounts import ratings

    with make_app_client(sqlite_url) as a:
        b = other_client(a)
        signup(a, uniq("Anna"))
        signup(b, uniq("Bert"))
        gid = open_and_fill(a, b)
        accounts = a.app.state.accounts
        save = accounts.save_results
        tries: list[str] = []

        def flaky(game_id: str, game: str, rows: list) -> bool:
            tries.append(game_id)
            if len(tries) == 1:
                raise sa.exc.OperationalError("INSERT", {}, Exception("connection lost"))
            return save(game_id, game, rows)

        accounts.save_results = flaky
        assert ratings.TRIES >= 2
        play_to_end(a, gid, {1: links(a)[gid], 2: links(b)[gid]})
        _wait_rated(a, gid)
        assert tries == [gid, gid]
        assert len(accounts.game_results(gid)) == 2
        assert sorted(r.after for r in accounts.game_results(gid)) in (
            [1484.0, 1516.0], [1500.0, 1500.0])


def test_a_profile_opened_before_the_rater_rated_the_game_shows_the_rating(
        db_url: str) -> None:
    """Issue 24 (the browser story on PostgreSQL with two processes): the rater's thread
    had not rated the game when the profile was read, and the page never showed it; the
    profile rates a game of the account that is over first, once (``results``' key)."""
    with make_app_client(db_url) as a:
        b = other_client(a)
        anna, bert = uniq("Anna"), uniq("Bert")
        signup(a, anna)
        signup(b, bert)
        gid = open_and_fill(a, b)
        rater = a.app.state.rater
        a.app.state.service._listeners = [x for x in a.app.state.service._listeners
                                          if getattr(x, "__self__", None) is not rater]
        play_to_end(a, gid, {1: links(a)[gid], 2: links(b)[gid]})
        accounts = a.app.state.accounts
        assert not accounts.is_rated(gid)  # the rater's queue is behind the page
        page = b.get("/account").text
        assert accounts.is_rated(gid)
        rows = accounts.game_results(gid)
        assert [r.seat for r in rows] == [1, 2]
        assert sorted(r.after for r in rows) in ([1484.0, 1516.0], [1500.0, 1500.0])
        assert anna in page and '<tr data-game="trambahn">' in page
        assert accounts.unrated_over(rows[0].player[2:]) == []
        assert not rater.rate(gid)  # once
