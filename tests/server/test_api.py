"""The JSON API: creating games, seats and views, moves (200/403/409/422), the record."""

from __future__ import annotations

from tests.server.helpers import auth, new_game, token_of


def test_healthz_and_openapi_page(sqlite_client):
    assert sqlite_client.get("/healthz").json()["ok"] is True
    spec = sqlite_client.get("/openapi.json").json()
    assert "/api/games" in spec["paths"]
    assert "/api/games/{game_id}/moves" in spec["paths"]
    assert sqlite_client.get("/docs").status_code == 200


def test_create_gives_a_token_per_human_seat_and_a_spectator_link(client):
    created = new_game(client, ["human", "bot:rule"], names=["Ann"])
    assert created["spectate"] == f"/g/{created['id']}"
    one, two = created["seats"]
    assert one["seat"] == 1 and one["kind"] == "human" and one["name"] == "Ann"
    assert len(one["token"]) >= 24 and one["url"] == f"/g/{created['id']}?token={one['token']}"
    assert two["kind"] == "bot:rule" and two["token"] is None


def test_create_refuses_bad_games_seats_and_settings(client):
    assert client.post("/api/games", json={"game": "chess", "seats": ["human"]}).status_code == 422
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human", "bot:genius"]})
    assert r.status_code == 422 and r.json()["error"] == "bad_seats"
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human"] * 3})
    assert r.status_code == 422
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human"] * 2,
                                        "settings": {"colour": "red"}})
    assert r.status_code == 422 and r.json()["error"] == "bad_settings"


def test_a_seed_fixes_an_1840_set_up_and_a_game_with_hidden_cards_refuses_one(client):
    def record(seed: int) -> dict:
        body = {"game": "1840", "seats": ["human"] * 3, "seed": seed}
        created = client.post("/api/games", json=body).json()
        return client.get(f"/api/games/{created['id']}/record").json()

    first, again, other = record(7), record(7), record(8)
    assert first["seed"] == again["seed"] == 7 and other["seed"] == 8
    assert first["setup"] == again["setup"]
    r = client.post("/api/games", json={"game": "trambahn", "seats": ["human"] * 2, "seed": 7})
    assert r.status_code == 422 and r.json()["error"] == "bad_seed"
    r = client.post("/api/games", json={"game": "1840", "seats": ["human"] * 3, "seed": -1})
    assert r.status_code == 422


def test_seat_sees_own_hand_and_legal_moves_spectator_sees_neither(client):
    created = new_game(client)
    gid = created["id"]
    p1 = client.get(f"/api/games/{gid}", headers=auth(token_of(created, 1))).json()
    assert p1["n"] == 0 and p1["to_act"] == [1] and p1["seat"] == 1 and p1["status"] == "active"
    assert len(p1["view"]["hand"]) == 6 and p1["view"]["you"] == 0
    assert p1["legal"] and all(m.startswith("P1 ") for m in p1["legal"])
    assert [s["kind"] for s in p1["seats"]] == ["human", "human"]
    p2 = client.get(f"/api/games/{gid}?token={token_of(created, 2)}").json()
    assert p2["seat"] == 2 and p2["legal"] == [] and p2["view"]["you"] == 1
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["seat"] is None and spectator["legal"] == []
    assert spectator["view"]["hand"] is None
    assert client.get(f"/api/games/{gid}", headers=auth("not-a-token")).status_code == 403
    assert client.get("/api/games/nope").status_code == 404


def test_move_codes_200_403_409_422_and_the_same_move_twice_counts_once(client):
    created = new_game(client)
    gid = created["id"]
    t1, t2 = token_of(created, 1), token_of(created, 2)
    legal = client.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
    move = legal[0]
    # not your seat: P2 tries P1's move, a spectator tries, an unknown token tries
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": move}, headers=auth(t2))
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": move})
    assert r.status_code == 403
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": move},
                    headers=auth("x" * 32))
    assert r.status_code == 403
    # illegal: the rule id and message (Course of Play: end before any passenger)
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": "P1 end"},
                    headers=auth(t1))
    assert r.status_code == 422
    assert r.json()["rule"] == "1" and "passenger" in r.json()["message"]
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": "P1 dance"},
                    headers=auth(t1))
    assert r.status_code == 422 and r.json()["rule"] == "notation"
    # legal
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": move}, headers=auth(t1))
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["n"] == 1 and after["seat"] == 1
    # the same move again counts once
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": move}, headers=auth(t1))
    assert r.status_code == 200 and r.json()["n"] == 1
    # a different move with a stale number: 409 with the fresh view
    other = next(m for m in after["legal"] if m != move)
    r = client.post(f"/api/games/{gid}/moves", json={"n": 0, "action": other}, headers=auth(t1))
    assert r.status_code == 409
    assert r.json()["state"]["n"] == 1 and r.json()["state"]["view"]["you"] == 0
    r = client.post(f"/api/games/{gid}/moves", json={"n": 5, "action": other}, headers=auth(t1))
    assert r.status_code == 409
    assert client.get(f"/api/games/{gid}").json()["n"] == 1


def test_history_at_n_is_built_from_the_viewers_own_view(client):
    created = new_game(client)
    gid = created["id"]
    t1 = token_of(created, 1)
    start = client.get(f"/api/games/{gid}", headers=auth(t1)).json()
    n = 0
    for _ in range(3):
        legal = client.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
        move = next((m for m in legal if "passenger" in m), legal[-1])
        assert client.post(f"/api/games/{gid}/moves", json={"n": n, "action": move},
                           headers=auth(t1)).status_code == 200
        n += 1
        if move.endswith("end"):
            break
    past = client.get(f"/api/games/{gid}?at=0", headers=auth(t1)).json()
    assert past["n"] == 0 and past["at"] == 0 and past["legal"] == []
    assert past["view"] == start["view"]
    assert client.get(f"/api/games/{gid}?at=0").json()["view"]["hand"] is None
    assert client.get(f"/api/games/{gid}?at=99", headers=auth(t1)).status_code == 422


def test_record_is_refused_until_a_trambahn_game_is_over(client):
    created = new_game(client)
    r = client.get(f"/api/games/{created['id']}/record")
    assert r.status_code == 403 and "seed" not in r.text


def test_live_server_process_answers(live_server):
    import json
    import urllib.request

    req = urllib.request.Request(
        live_server + "/api/games",
        data=json.dumps({"game": "trambahn", "seats": ["human", "bot:random"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        created = json.load(r)
    with urllib.request.urlopen(f"{live_server}/api/games/{created['id']}", timeout=10) as r:
        assert json.load(r)["seats"][1]["kind"] == "bot:random"
