"""Small helpers for the server tests."""

from __future__ import annotations

from typing import Any


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_game(client: Any, seats: list[str] | None = None, game: str = "trambahn",
             **extra: Any) -> dict[str, Any]:
    body = {"game": game, "settings": {}, "seats": seats or ["human", "human"], **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def token_of(created: dict[str, Any], seat: int) -> str:
    return created["seats"][seat - 1]["token"]
