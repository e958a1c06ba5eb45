"""Views only: whole Trambahn games through the API and the WebSocket leak no hidden card.

Every card gets a unique label (as tests/trambahn/test_views.py does), so a payload can be
checked for exactly the cards its viewer may see: the own hand, the passenger rows and the
columns.  No payload carries the seed, the set-up, the deck, a hand or money pile as a list,
or the face of an income card, until the game is over; error bodies neither.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.server.helpers import auth, new_game, token_of
from tramways.trambahn import views

FORBIDDEN_KEYS = {"seed", "setup", "deck", "draw_pile", "hands", "money", "discard"}


def tag(card: int) -> str:
    return f"<card{card}>"


@pytest.fixture
def labelled(monkeypatch):
    real = views.build_view

    def build_view(state, player, label=None):
        return real(state, player, label=tag)

    monkeypatch.setattr(views, "build_view", build_view)


def visible_ids(state, player):
    ids = set()
    if player is not None:
        ids |= set(state.hands[player])
    for row in state.rows:
        ids |= set(row)
    for cols in state.columns:
        for col in cols:
            ids |= set(col.stations) | set(col.conductors)
    return ids


def keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)


class Inspector:
    """Checks every payload against what its viewer may see at that revision."""

    def __init__(self, seed: int):
        self.seed = str(seed)
        self.visible: dict[int, dict[int | None, set[int]]] = {}
        self.checked = 0

    def remember(self, rev: int, state) -> None:
        self.visible[rev] = {p: visible_ids(state, p) for p in (0, 1, None)}

    def check(self, payload: dict, player: int | None, over: bool = False) -> None:
        text = json.dumps(payload)
        if not over:
            assert self.seed not in text
            assert not FORBIDDEN_KEYS & set(keys(payload))
        state = payload.get("state", payload)
        if not over:  # the own legal moves name own cards; the log and the moves never do
            public = json.dumps([state.get("log"), state.get("moves"), payload.get("message")])
            assert not re.search(r"income (C|\d+[brgy])\b", public)
        if "rev" in state:
            # without undo, revision r is the position after r moves; a past position
            # (?at=N) is checked against what was visible after N moves
            when = state["rev"] if state.get("at") is None else state["at"]
            shown = {int(m) for m in re.findall(r"<card(\d+)>", text)}
            assert shown <= self.visible[when][player], "a hidden card was sent"
            if state["seat"] is not None:
                assert shown >= self.visible[when][player]
        self.checked += 1


def test_whole_games_through_http_and_websocket_show_only_visible_cards(sqlite_client, labelled):
    client = sqlite_client
    service = client.app.state.service
    rng = random.Random(7)
    for _game in range(2):
        created = new_game(client)
        gid = created["id"]
        tokens = {0: token_of(created, 1), 1: token_of(created, 2)}
        live = service.live(gid)
        inspector = Inspector(live.row.seed)
        inspector.remember(live.rev, live.state)
        sockets = {
            p: client.websocket_connect(
                f"/api/games/{gid}/live" + (f"?token={tokens[p]}" if p is not None else "")
            )
            for p in (0, 1, None)
        }
        try:
            for p, ws in sockets.items():
                ws.__enter__()
                inspector.check(ws.receive_json(), p)
            n = 0
            while True:
                state = service.live(gid).state
                if state.is_over():
                    break
                mover = state.current_players()[0]
                t = tokens[mover]
                me = client.get(f"/api/games/{gid}", headers=auth(t)).json()
                inspector.check(me, mover)
                faces_in_hand = {views.CARD_FACE[c] for c in state.hands[mover]}
                for move in me["legal"]:
                    card = re.search(r" (C|\d+[brgy])\b", move)
                    assert card is None or card.group(1) in faces_in_hand
                if rng.random() < 0.05:  # refusals carry nothing hidden either
                    absent = next(f for f in ("10y", "10b", "10g", "10r", "1y") if f not in faces_in_hand)
                    other = tokens[1 - mover]
                    for r in (
                        client.post(f"/api/games/{gid}/moves",
                                    json={"n": n, "action": me["legal"][0]}, headers=auth(other)),
                        client.post(f"/api/games/{gid}/moves",
                                    json={"n": n + 3, "action": me["legal"][0]}, headers=auth(t)),
                        client.post(f"/api/games/{gid}/moves",
                                    json={"n": n, "action": f"P{mover + 1} income {absent}"},
                                    headers=auth(t)),
                    ):
                        assert r.status_code in (403, 409, 422)
                        inspector.check(r.json(), mover if r.status_code == 409 else None)
                    at = rng.randrange(n + 1)
                    spectator = client.get(f"/api/games/{gid}?at={at}").json()
                    assert spectator["view"]["hand"] is None
                    assert spectator["at"] == (None if at == n else at)  # ?at=n: the present
                    inspector.check(spectator, None)
                    past = client.get(f"/api/games/{gid}?at={at}", headers=auth(t)).json()
                    inspector.check(past, mover)
                    assert client.get(f"/api/games/{gid}/record").status_code == 403
                move = rng.choice(me["legal"])
                r = client.post(f"/api/games/{gid}/moves", json={"n": n, "action": move},
                                headers=auth(t))
                assert r.status_code == 200, r.text
                n += 1
                live = service.live(gid)
                inspector.remember(live.rev, live.state)
                inspector.check(r.json(), mover, over=live.state.is_over())
                for p, ws in sockets.items():
                    while True:
                        pushed = ws.receive_json()
                        inspector.check(pushed, p, over=pushed["status"] == "over")
                        if pushed["rev"] == live.rev:
                            break
                if live.state.is_over():
                    break
        finally:
            for ws in sockets.values():
                ws.__exit__(None, None, None)
        assert n > 100 and inspector.checked > 4 * n
        record = client.get(f"/api/games/{gid}/record")
        assert record.status_code == 200
        assert record.json()["seed"] == live.row.seed and len(record.json()["actions"]) == n
        assert any(" income " in a for a in record.json()["actions"])
