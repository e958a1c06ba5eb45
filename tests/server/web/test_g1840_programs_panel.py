"""The programs panel of the 1840 table (issue 25, item 1; docs/async.md): games created on
the site have programmed actions; the panel sets, shows (in the page's language) and cancels
them through the move path; a program that can never fire is refused and changes nothing."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("fastapi")

from tramways.g1840.program_actions import (  # noqa: E402
    ProgramAuctionPass,
    ProgramBuyShares,
    ProgramSharePass,
)
from tramways.server.web.g1840_programs import program_words  # noqa: E402

FORM = {"content-type": "application/x-www-form-urlencoded"}


def _game(client, **settings: object) -> tuple[str, list[str]]:
    made = client.post("/api/games", json={"game": "1840", "settings": settings,
                                           "seats": ["human"] * 4})
    assert made.status_code == 201, made.text
    body = made.json()
    return body["id"], [s["token"] for s in body["seats"]]


def _move(client, gid: str, token: str, action: str, lang: str = "en"):
    n = client.get(f"/api/games/{gid}").json()["n"]
    return client.post(f"/g/{gid}/move?lang={lang}", data={
        "n": str(n), "act_token": token, "token": token, "action": action, "fragment": "1"})


def test_programs_site_games_have_programmed_actions(sqlite_client) -> None:
    gid, _tokens = _game(sqlite_client)
    assert sqlite_client.get(f"/api/games/{gid}/record").json()["settings"]["programs"] is True
    off, _ = _game(sqlite_client, programs=False)  # a creator may still say no
    assert "programs" not in sqlite_client.get(f"/api/games/{off}/record").json()["settings"]
    page = sqlite_client.get(f"/g/{off}?token={_}").text
    assert 'id="programs"' not in page


def test_programs_panel_sets_shows_and_cancels_in_the_pages_language(sqlite_client) -> None:
    gid, tokens = _game(sqlite_client)
    page = sqlite_client.get(f"/g/{gid}?token={tokens[1]}").text
    assert 'id="programs"' in page and "No programmed action is set." in page
    assert 'value="P2 program pass always indefinitely"' in page
    buys = re.search(r'class="move program-buy"[^>]*data-notations="([^"]*)"', page)
    assert buys and "P2 program buy W 6 pool then-pass" in html.unescape(buys.group(1))
    reply = _move(sqlite_client, gid, tokens[1], "P2 program buy W 4 then-pass", lang="de")
    assert reply.status_code == 200
    assert "W aus den unverkauften Aktien kaufen, bis ich 4 Aktien halte, dann passen" in \
        reply.text
    assert 'value="P2 program off share"' in reply.text
    api = sqlite_client.get(f"/api/games/{gid}?token={tokens[1]}").json()
    assert api["view"]["programs"] == {
        "share": "buy W from the unsold shares until holding 4 shares, then pass"}
    assert "Player 2 programs: buy W " in " ".join(api["log"])
    # another seat sees none of it in its panel (the log, public, tells that P2 programs)
    other = sqlite_client.get(f"/g/{gid}?token={tokens[2]}").text
    assert 'id="programs"' in other
    panel = other[other.find('id="programs"'):]
    panel = panel[:panel.find("</section>")]
    assert "bis ich 4" not in panel and "until I hold 4" not in panel
    reply = _move(sqlite_client, gid, tokens[1], "P2 program off share", lang="es")
    assert "No hay ninguna acción programada." in reply.text
    assert "programs" not in sqlite_client.get(f"/api/games/{gid}?token={tokens[1]}").json()["view"]


def test_programs_panel_offers_the_auctions_pass_only_while_it_is_not_held(sqlite_client) -> None:
    """Set, the auctions' pass is shown with its Cancel and no longer offered as a button
    that would set it again; cancelled, it is offered again."""
    gid, tokens = _game(sqlite_client)
    page = sqlite_client.get(f"/g/{gid}?token={tokens[1]}").text
    assert 'value="P2 program auctions"' in page
    reply = _move(sqlite_client, gid, tokens[1], "P2 program auctions")
    assert reply.status_code == 200
    assert 'value="P2 program off auctions"' in reply.text
    assert 'value="P2 program auctions"' not in reply.text
    reply = _move(sqlite_client, gid, tokens[1], "P2 program off auctions")
    assert 'value="P2 program auctions"' in reply.text
    assert 'value="P2 program off auctions"' not in reply.text


def test_programs_that_can_never_fire_are_refused_and_change_nothing(sqlite_client) -> None:
    gid, tokens = _game(sqlite_client)
    before = sqlite_client.get(f"/api/games/{gid}/record").json()
    for bad in ("P2 program buy W 7", "P2 program buy W 0", "P2 program buy XX 3",
                "P2 program off auctions"):
        n = before["actions"].__len__()
        reply = sqlite_client.post(f"/api/games/{gid}/moves", json={"n": n, "action": bad},
                                   headers={"Authorization": f"Bearer {tokens[1]}"})
        assert reply.status_code == 422, (bad, reply.text)
        assert reply.json()["rule"] == "programs"
        assert reply.json()["message"]
    assert sqlite_client.get(f"/api/games/{gid}/record").json() == before


@pytest.mark.parametrize("program", [
    *(ProgramSharePass(0, a, b) for a in (False, True) for b in (False, True)),
    *(ProgramBuyShares(0, "W", 3, p, t) for p in (False, True) for t in (False, True)),
    ProgramAuctionPass(0),
])
def test_programs_every_kind_has_words_in_the_catalogs(program) -> None:
    said = program_words(program.describe())
    assert said.msgid != program.describe(), "an engine wording the panel does not know"
    from tramways.server.web.i18n import translations

    for lang in ("de", "ru", "es"):
        assert said.say(translations(lang).gettext) != said.english()
