"""A game of 1840 with four person seats played by rule bots through a live server's API,
so that a browser test can open any seat's page at the position it wants (the engine's copy,
``session``, is the server's position after every move)."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from tramways.bots.base import make_bot
from tramways.core import GameRecord, Session


def api(base: str, path: str, token: str | None = None, body: dict | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


class BotGame:
    """Seed ``seed``, seats Anna, Boris, Carmen and Dieter, each played by the rule bot."""

    def __init__(self, base: str, seed: int = 7) -> None:
        self.base = base
        game = api(base, "/api/games", body={
            "game": "1840", "settings": {}, "seed": seed, "seats": ["human"] * 4,
            "names": ["Anna", "Boris", "Carmen", "Dieter"]})
        self.gid = game["id"]
        self.tokens = [s["token"] for s in game["seats"]]
        self.session = Session.from_record(GameRecord.model_validate(
            api(base, f"/api/games/{self.gid}/record")))
        self.bots = [make_bot("rule", self.session.game) for _ in range(4)]
        self.rng = random.Random(seed)
        self.n = 0

    @property
    def over(self) -> bool:
        return bool(self.session.state.is_over())

    @property
    def seat(self) -> int:
        """The seat to act (0-based)."""
        return int(self.session.state.current_players()[0])

    def legal(self) -> list[str]:
        return list(self.session.legal_notation(self.seat))

    def url(self, seat: int | None = None, lang: str = "en") -> str:
        token = self.tokens[self.seat if seat is None else seat]
        return f"{self.base}/g/{self.gid}?token={token}&lang={lang}"

    def step(self) -> str:
        """The seat to act plays its rule bot's move (through the API); its notation."""
        seat, state = self.seat, self.session.state
        action = self.bots[seat].choose(state.view(seat), state.legal_actions(seat), self.rng)
        text = self.session.game.format_action(action)
        self.session.play(text, seat)
        api(self.base, f"/api/games/{self.gid}/moves", self.tokens[seat],
            {"n": self.n, "action": text})
        self.n += 1
        return text

    def to_rotation_choice(self) -> tuple[str, list[str]]:
        """Plays until a line may lay a tile on a hex in two rotations or more (IX.4): that hex
        and its legal lays, in the engine's order."""
        while not self.over:
            lays = [a for a in self.legal() if a.split()[1] == "lay"]
            hexes = [a.split()[2] for a in lays]
            many = [h for h in hexes if hexes.count(h) > 1]
            if many:
                return many[0], [a for a in lays if a.split()[2] == many[0]]
            self.step()
        raise AssertionError("no line turn with a choice of rotations")
