"""The "game is ready" page after ``POST /new`` or ``/new1840``: redirect after post.

The post answers ``303 See Other`` to ``GET /g/{id}/created``, so a reload shows the page
again instead of creating a second game.  The page's seat tokens travel
in the cookie ``tw_created``: the game's id, its seats (number, kind, name, token) and the
hotseat choice, as base64 JSON with its HMAC-SHA256 under the site's secret (the one that
signs the sessions, ``app.state.auth``), so any server process can read it.  The cookie is
``HttpOnly``, ``SameSite=Lax``, ``Secure`` behind HTTPS, limited to the page's path and
lives ten minutes: another browser (or this one later) gets no seat link from the page.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import Response

COOKIE = "tw_created"
MAX_AGE = 600  # seconds: long enough to copy the links, short enough to forget them


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    kind: str
    name: str
    token: str | None


@dataclass(frozen=True)
class Created:
    """What the "created" page shows, as kept in the signed cookie."""

    game_id: str
    game: str
    seats: tuple[CreatedSeat, ...]
    hotseat: bool

    @classmethod
    def of(cls, game: dict[str, Any], hotseat: bool) -> Created:
        seats = tuple(CreatedSeat(int(s["seat"]), str(s.get("kind", "human")),
                                  str(s.get("name") or ""), s.get("token"))
                      for s in game["seats"])
        return cls(str(game["id"]), str(game.get("game", "")), seats, hotseat)

    def path(self) -> str:
        return f"/g/{self.game_id}/created"


def _mac(request: Request, value: str) -> str:
    mac: str = request.app.state.auth.mac("created", value)
    return mac


def keep(request: Request, response: Response, created: Created) -> None:
    """Set the signed cookie of ``created`` on ``response`` (the redirect)."""
    raw = json.dumps({"id": created.game_id, "game": created.game, "hotseat": created.hotseat,
                      "seats": [[s.seat, s.kind, s.name, s.token] for s in created.seats]},
                     ensure_ascii=False, separators=(",", ":"))
    value = base64.urlsafe_b64encode(raw.encode()).decode()
    secure = request.url.scheme == "https" or bool(getattr(request.app.state.auth,
                                                           "public_https", False))
    response.set_cookie(COOKIE, f"{value}.{_mac(request, value)}", max_age=MAX_AGE,
                        path=created.path(), httponly=True, samesite="lax", secure=secure)


def read(request: Request, game_id: str) -> Created | None:
    """The page's content from this browser's cookie (``None``: none, forged or another
    game's)."""
    cookie = request.cookies.get(COOKIE) or ""
    value, _, sig = cookie.rpartition(".")
    if not value or not hmac.compare_digest(sig, _mac(request, value)):
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(value.encode()))
        seats = tuple(CreatedSeat(int(n), str(k), str(name), tok)
                      for n, k, name, tok in data["seats"])
        created = Created(str(data["id"]), str(data["game"]), seats, bool(data["hotseat"]))
    except (ValueError, KeyError, TypeError, binascii.Error):
        return None
    return created if created.game_id == game_id else None
