"""Resign, as the game's settings say (docs/async.md, ``on_resign`` chosen with the pace when
the game is made): ``bot`` (the default: the computer plays the seat to the end) or ``end``
(the game ends at once: the engine's resignation is the record's next move, the resigner
placed last).  SQLite always, PostgreSQL with ``TRAMWAYS_TEST_POSTGRES_URL``."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tramways.core import GameRecord, Session  # noqa: E402


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _made(client, game: str, seats: list[str], on_resign: str | None) -> tuple[str, list]:
    body: dict = {"game": game, "seats": seats}
    if on_resign is not None:
        body["pace"] = {"pace": "none", "on_resign": on_resign}
    made = client.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert client.app.state.service.wait_for_bots(60, gid)
    return gid, [s["token"] for s in made.json()["seats"]]


def test_resign_end_1840_the_game_ends_at_once_and_the_resigner_places_last(client) -> None:
    gid, tokens = _made(client, "1840", ["human", "human", "human", "bot:rule"], "end")
    assert client.get(f"/api/games/{gid}/clocks").json()["on_resign"] == "end"
    before = client.get(f"/api/games/{gid}").json()
    assert before["status"] == "active"
    resigner = next(s for s in (1, 2, 3) if [s] != before["to_act"])  # out of turn
    reply = client.post(f"/api/games/{gid}/resign", headers=_auth(tokens[resigner - 1]),
                        json={})
    assert reply.status_code == 200, reply.text
    state = client.get(f"/api/games/{gid}", headers=_auth(tokens[0])).json()
    name = state["seats"][resigner - 1]["name"]
    assert state["status"] == "over" and state["to_act"] == []
    assert state["log"][-1] == f"{name} resigns: the game ends"
    result = state["view"]["result"]
    assert result["resigned"] == resigner - 1
    assert result["rank"][resigner - 1] == 4 and sorted(result["rank"]) == [1, 1, 1, 4]
    assert all(s["kind"] != "bot:rule" for s in state["seats"][:3])  # nobody handed over
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["actions"][-1] == f"P{resigner} resign" and len(record["actions"]) == \
        before["n"] + 1
    replayed = Session.from_record(GameRecord.from_data(record))
    assert replayed.state.is_over()
    assert replayed.state.outcome().to_json() == result
    page = client.get(f"/g/{gid}").text  # the end page
    assert f"{name} resigned: the game ended at once." in page
    assert page.index('<li class="resigned">') > page.index("<ol>")
    clocks = client.get(f"/api/games/{gid}/clocks").json()
    assert clocks["over"] is True and clocks["on_resign"] == "end"
    again = client.post(f"/api/games/{gid}/resign", headers=_auth(tokens[0]), json={})
    assert (again.status_code, again.json()["error"]) == (422, "over")
    undo = client.post(f"/api/games/{gid}/undo", headers=_auth(tokens[resigner - 1]),
                       json={"n": state["n"]})
    assert undo.status_code in (403, 422)  # the end of a game is never taken back
    assert client.get(f"/api/games/{gid}/record").json() == record


def test_resign_end_trambahn_the_leader_loses_and_the_end_hides_what_any_end_hides(
        client) -> None:
    gid, tokens = _made(client, "trambahn", ["human", "human"], "end")
    spectator = client.get(f"/api/games/{gid}/record")
    assert spectator.status_code == 403  # hidden cards: the record only after the end
    reply = client.post(f"/api/games/{gid}/resign", headers=_auth(tokens[1]), json={})
    assert reply.status_code == 200, reply.text
    state = client.get(f"/api/games/{gid}").json()  # a spectator's payload
    assert state["status"] == "over"
    view = state["view"]
    assert view["hand"] is None and view["result"]["winner"] == 0
    assert view["result"]["reason"] == "resignation" and view["result"]["resigned"] == 1
    assert view["end_reason"] == "resignation"
    assert state["log"][-2:] == ["P2 resigns: the game ends",
                                 "Game over (resignation): P1 0, P2 0 - P1 wins"]
    mine = client.get(f"/api/games/{gid}", headers=_auth(tokens[0])).json()["view"]
    assert len(mine["hand"]) == 6 and mine["hand_sizes"] == [6, 6]  # no other hand shown
    record = client.get(f"/api/games/{gid}/record")
    assert record.status_code == 200 and record.json()["actions"] == ["P2 resign"]
    page = client.get(f"/g/{gid}?lang=de").text
    assert "P2 hat aufgegeben: die Partie endete sofort." in page


def test_resign_bot_is_the_default_and_hands_the_seat_over(client) -> None:
    gid, tokens = _made(client, "1840", ["human", "human", "bot:rule"], None)
    assert client.get(f"/api/games/{gid}/clocks").json()["on_resign"] == "bot"
    reply = client.post(f"/api/games/{gid}/resign", headers=_auth(tokens[1]),
                        json={"bot": "bot:random"})
    assert reply.status_code == 200, reply.text
    assert client.app.state.service.wait_for_bots(60, gid)
    state = client.get(f"/api/games/{gid}").json()
    assert state["seats"][1]["kind"] == "bot:random" and state["status"] == "active"
    assert "resign" not in " ".join(client.get(f"/api/games/{gid}/record").json()["actions"])


def test_resign_refusals_change_nothing(client) -> None:
    """A spectator cannot resign; a resignation is never a move (even of a game whose
    resignation ends it); another seat's resignation is not this seat's to play."""
    gid, tokens = _made(client, "1840", ["human", "human", "bot:rule"], "end")
    before = client.get(f"/api/games/{gid}/record").json()
    n = len(before["actions"])
    cases = [
        ("resign", None, {}, 403, "spectator", "spectators cannot resign: use your seat's link"),
        ("moves", tokens[0], {"n": n, "action": "P1 resign"}, 422, "illegal",
         "a resignation is not a move: use Resign (POST /api/games/ID/resign)"),
        ("moves", tokens[0], {"n": n, "action": "P2 resign"}, 403, "not_your_seat",
         "that action is not yours to take"),
    ]
    for path, token, body, status, error, message in cases:
        reply = client.post(f"/api/games/{gid}/{path}", headers=_auth(token), json=body)
        assert (reply.status_code, reply.json()["error"]) == (status, error), reply.text
        assert reply.json()["message"] == message
    assert client.get(f"/api/games/{gid}/record").json() == before
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"


def test_resign_bad_choice_is_refused_and_creates_nothing(sqlite_client) -> None:
    client = sqlite_client
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"],
                                        "pace": {"pace": "none", "on_resign": "later"}})
    assert r.status_code == 422
    import sqlalchemy as sa

    from tramways.server.tables import games

    with client.app.state.service.store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(games)).scalar_one() == 0


def test_resign_the_new_game_forms_offer_the_choice(client) -> None:
    """The lobby's forms (``/new``, ``/new1840``) have **When a player resigns**: ``end``
    becomes the game's choice; the default ``bot`` writes nothing; another value is refused
    and creates nothing."""
    from urllib.parse import urlencode

    form = {"content-type": "application/x-www-form-urlencoded"}
    lobby = client.get("/?lang=es").text
    assert lobby.count('name="on_resign"') == 2
    assert "fin; quien abandona queda último" in lobby
    made = []
    for path, fields in [("/new", {"seat1": "human", "seat2": "bot:rule"}),
                         ("/new1840", {"players": "3", "map": "full", "seat1": "human",
                                       "seat2": "human", "seat3": "bot:rule"})]:
        for choice in ("end", "bot"):
            posted = client.post(path, content=urlencode({**fields, "on_resign": choice}),
                                 headers=form, follow_redirects=False)
            assert posted.status_code == 303, posted.text
            gid = posted.headers["location"].split("/")[2]
            made.append(client.get(f"/api/games/{gid}/clocks").json()["on_resign"])
        refused = client.post(path, content=urlencode({**fields, "on_resign": "later"}),
                              headers=form, follow_redirects=False)
        assert refused.status_code == 422
    assert made == ["end", "bot", "end", "bot"]
