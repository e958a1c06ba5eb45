"""Every refusal has the project's shape ``{"error", "message"}``, FastAPI's own ones too
(a body that is not JSON or not text, an unknown path, a method not allowed); the OpenAPI
schema documents the refusals (400-503, with the error model) and lists the games and the
seat kinds."""

from __future__ import annotations

import pytest

from tramways.bots import bot_names
from tramways.games import game_names


@pytest.mark.parametrize("body", [b"{", b'{"game": "trambahn"', b"\xff\xfe{}", b"{'a': 1}"])
def test_a_malformed_json_body_gets_400_bad_json_in_the_error_shape(sqlite_client, body):
    r = sqlite_client.post("/api/games", content=body,
                           headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_json" and "not valid JSON" in r.json()["message"]
    assert "detail" not in r.json()


def test_framework_refusals_get_the_error_shape(sqlite_client):
    r = sqlite_client.get("/api/no/such/path")
    assert r.status_code == 404 and r.json() == {"error": "not_found", "message": "Not Found"}
    r = sqlite_client.delete("/api/games")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"
    assert r.headers["allow"] == "POST"
    r = sqlite_client.post("/api/games", json=[1])
    assert r.status_code == 422 and r.json()["error"] == "bad_request"
    assert r.json()["message"].startswith("body:")


def test_the_openapi_schema_documents_refusals_and_lists_games_and_seat_kinds(sqlite_client):
    schema = sqlite_client.get("/openapi.json").json()
    error = schema["components"]["schemas"]["ErrorBody"]
    assert set(error["required"]) == {"error", "message"}
    paths = schema["paths"]
    move = paths["/api/games/{game_id}/moves"]["post"]["responses"]
    for code in ("400", "403", "404", "409", "413", "422", "429", "503"):
        ref = move[code]["content"]["application/json"]["schema"]["$ref"]
        assert ref == "#/components/schemas/ErrorBody" and move[code]["description"]
    create = paths["/api/games"]["post"]["responses"]
    assert {"400", "413", "422", "429", "503"} <= set(create)
    new_game = schema["components"]["schemas"]["NewGame"]["properties"]
    assert new_game["game"]["enum"] == list(game_names())
    kinds = new_game["seats"]["items"]["enum"]
    assert kinds[0] == "human" and "bot:rule" in kinds and "bot:search" in kinds
    assert set(kinds) == {"human"} | {f"bot:{b}" for g in game_names() for b in bot_names(g)}
