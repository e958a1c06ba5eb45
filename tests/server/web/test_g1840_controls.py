"""The 1840 controls over a whole game (issue 23, items 3 and 4), in process.

Four seats played by the rule bot through the API; at every position the acting seat's page
(in English, German, Russian and Spanish in turn) must:

- offer exactly the seat's legal notations;
- show no engine notation in any button, list entry or label (``P1 pass``, ``WT scrap
  yellow``, ``L4 buy SB 1``, ``arrange orange,none,yellow``);
- show on every par, share, sale, tram, private and return control the money the engine then
  charges or pays (each control is played on a copy of the position and the purses compared).
"""

from __future__ import annotations

import html
import json
import random
from html.parser import HTMLParser

import pytest

pytest.importorskip("fastapi")

from tests.server.web.g1840_controls_check import check_price, is_notation  # noqa: E402
from tramways.bots.base import make_bot  # noqa: E402
from tramways.core import GameRecord, Session  # noqa: E402
from tramways.g1840.view_types import as_view1840  # noqa: E402
from tramways.server.web.g1840_controls import group_legal  # noqa: E402

TRACKED = {"button", "option", "label", "summary"}


class Controls(HTMLParser):
    """The texts of the page's controls, and each priced control's notation and figures."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list] = []
        self.texts: list[str] = []
        self.priced: list[tuple[str, int | None, int | None]] = []
        self.notations: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag in TRACKED or "group-label" in cls:
            self.open.append([tag, []])
        value = a.get("value") if tag == "option" or a.get("name") == "action" else None
        if value:
            self.notations.append(value)
            if "data-price" in a or "data-gets" in a:
                price, gets = a.get("data-price"), a.get("data-gets")
                self.priced.append((value, int(price) if price else None,
                                    int(gets) if gets else None))
        if a.get("data-notations"):
            self.notations += json.loads(html.unescape(a["data-notations"] or "[]"))

    def handle_endtag(self, tag: str) -> None:
        if self.open and (self.open[-1][0] == tag or tag == "p" and self.open[-1][0] == "p"):
            self.texts.append("".join(self.open.pop()[1]))

    def handle_data(self, data: str) -> None:
        for item in self.open:
            item[1].append(data)


def _fragment_controls(text: str) -> Controls:
    parser = Controls()
    # only the moves' section: the tables and the log name things as they are
    start = text.find('class="actions"')
    end = text.find('class="round-bar"')
    parser.feed(text[start:end] if start >= 0 else "")
    return parser


def _play_whole_game(client, check) -> int:
    """Creates a 4-seat game, plays it to the end with rule bots, calls ``check`` on every
    position; returns the number of moves."""
    reply = client.post("/api/games", json={"game": "1840", "settings": {}, "seed": 7,
                                            "seats": ["human"] * 4,
                                            "names": ["Anna", "Boris", "Carmen", "Dieter"]})
    assert reply.status_code == 201, reply.text
    game = reply.json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    record = client.get(f"/api/games/{gid}/record").json()
    session = Session.from_record(GameRecord.model_validate(record))
    bots = [make_bot("rule", session.game) for _ in range(4)]
    rng = random.Random(7)
    for n in range(3000):
        if session.state.is_over():
            return n
        seat = session.state.current_players()[0]
        check(gid, tokens[seat], session, seat, n)
        action = bots[seat].choose(session.state.view(seat), session.state.legal_actions(seat),
                                   rng)
        text = session.game.format_action(action)
        session.play(text, seat)
        r = client.post(f"/api/games/{gid}/moves", json={"n": n, "action": text},
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def _words_of(choices, say) -> list[str]:
    out = []
    for c in choices:
        if c.title is not None:
            out.append(c.title.say(say))
        out += [o.label.say(say) for o in c.options]
        out += [o.confirm.say(say) for o in c.options if o.confirm is not None]
    return out


def test_every_control_of_a_whole_game_is_words_and_shows_what_it_costs(sqlite_client) -> None:
    """Items 3 and 4 of issue 23 over a whole rule-bot game: every control of every position
    in the four languages; the page itself rendered at each new kind of decision."""
    from tramways.server.web.i18n import translations

    langs = ["en", "de", "ru", "es"]
    says = {lang: translations(lang).gettext for lang in langs}
    seen: dict[str, int] = {"priced": 0, "labels": 0, "pages": 0}
    kinds: set[str] = set()
    signatures: set[tuple[str, ...]] = set()

    def check(gid: str, token: str, session, seat: int, n: int) -> None:
        legal = session.legal_notation(seat)
        choices = group_legal(legal, as_view1840(session.state.view(seat)))
        kinds.update(c.kind for c in choices)
        for lang, say in says.items():
            for label in _words_of(choices, say):
                assert not is_notation(label), (n, lang, label)
                seen["labels"] += 1
        for c in choices:
            for o in c.options:
                if o.price is not None or o.gets is not None:
                    if c.kind == "buy_private" and o.notation.split()[-1] not in {
                            str(p["low"]) for p in c.privates} | {str(p["high"]) for p in c.privates}:
                        continue  # a private's purchase: its lowest and highest price
                    check_price(session.state, session.game, o.notation, o.price, o.gets)
                    seen["priced"] += 1
        signature = tuple(sorted({c.kind for c in choices}))
        if signature in signatures:
            return
        signatures.add(signature)
        lang = langs[len(signatures) % 4]
        page = sqlite_client.get(f"/g/{gid}/table?token={token}&lang={lang}").text
        found = _fragment_controls(page)
        seen["pages"] += 1
        # programs have their own panel (tests/server/web/test_g1840_programs_panel.py)
        moves = [a for a in legal
                 if a.split()[1] not in ("lay", "station", "remove", "program")]
        assert set(found.notations) >= set(moves), (n, set(moves) - set(found.notations))
        for label in found.texts:
            assert not is_notation(label), (n, lang, label)
        for notation, price, gets in found.priced:
            check_price(session.state, session.game, notation, price, gets)

    moves = _play_whole_game(sqlite_client, check)
    assert moves > 300
    assert {"par", "buy_share", "sell", "tram", "dividend", "bid", "auction", "anytime",
            "buy_private", "scrap", "arrange"} <= kinds, \
        kinds
    assert seen["priced"] > 100 and seen["pages"] > 10, seen
