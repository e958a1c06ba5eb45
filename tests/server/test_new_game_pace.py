"""A new game's pace in ``POST /api/games`` (issue 25, item 2; docs/async.md): the same
:class:`~tramways.server.bodies.PaceChoice` as the lobby of open games, the game's pace from
the start, refused alike (422 ``bad_pace``) with nothing created."""

from __future__ import annotations


def _games(client) -> int:
    import sqlalchemy as sa

    from tramways.server.tables import games

    with client.app.state.service.store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(games)).scalar_one())


def test_new_game_pace_is_the_game_s_pace_from_the_start(client) -> None:
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"],
                                        "pace": {"pace": "live", "minutes": 3,
                                                 "on_deadline": "bot_move", "bot": "bot:easy"}})
    assert r.status_code == 201, r.text
    clocks = client.get(f"/api/games/{r.json()['id']}/clocks").json()
    assert clocks["pace"] == {"seconds": 180, "on_deadline": "bot_move", "bot": "bot:easy"}
    assert [s["deadline"] is not None for s in clocks["seats"]] == [True, False]  # T-R-1
    plain = client.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"],
                                            "pace": {"pace": "none"}}).json()
    assert client.get(f"/api/games/{plain['id']}/clocks").json()["pace"] is None


def test_new_game_pace_refusals_create_nothing(sqlite_client) -> None:
    client = sqlite_client  # a database of its own: nothing else creates games in it
    before = _games(client)
    for pace, message in [({"pace": "async", "hours": 0}, "a pace over days is 1 to 720 hours"),
                          ({"pace": "live"}, "a live pace is 1 to 1440 minutes"),
                          ({"pace": "async", "hours": 24, "bot": "human"},
                           "the stand-in is one of bot:easy")]:
        r = client.post("/api/games", json={"game": "1840", "seats": ["human", "bot:rule"],
                                            "pace": pace})
        assert r.status_code == 422 and r.json()["error"] == "bad_pace", r.text
        assert message in r.json()["message"]
    assert _games(client) == before == 0
