"""1840 pages (issue 12): buy, par and sell show the certificate count they lead to against
the limit (VII.3) before the move is confirmed; bot seats say which computer plays them."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "1840-4p.json"
FORM = {"content-type": "application/x-www-form-urlencoded"}


def _replay_until(client, want) -> tuple[str, list[str], dict]:
    """The golden 4-player game played into the server up to the first position whose acting
    seat's legal moves satisfy ``want``; the game id, the tokens, and that seat's payload."""
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    service = client.app.state.service
    created = service.create("1840", dict(record["settings"]), ["human"] * 4, seed=record["seed"])
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for n, text in enumerate(record["actions"]):
        for seat in client.get(f"/api/games/{gid}").json()["to_act"]:
            state = client.get(f"/api/games/{gid}?token={tokens[seat - 1]}").json()
            if want(state["legal"]):
                return gid, tokens, state
        for seat in client.get(f"/api/games/{gid}").json()["to_act"]:
            r = client.post(f"/api/games/{gid}/moves?token={tokens[seat - 1]}",
                            json={"n": n, "action": text})
            if r.status_code == 200:
                break
    raise AssertionError("no such position in the golden game")


def test_vii_3_buy_and_sell_show_the_resulting_certificate_count(sqlite_client) -> None:
    gid, tokens, state = _replay_until(
        sqlite_client,
        lambda legal: any(" sell " in a for a in legal) and any(
            re.fullmatch(r"P\d buy \S+", a) for a in legal),
    )
    me = state["seat"] - 1
    certs = state["view"]["players"][me]["certificates"]
    from tramways.g1840.entities import entities

    assert entities().certificate_limit[4] == 14  # VII.3's table, 4 players
    page = sqlite_client.get(f"/g/{gid}?token={tokens[me]}").text
    buys = [a for a in state["legal"] if re.fullmatch(r"P\d buy \S+", a)]
    for notation in buys:
        button = re.search(
            rf'<button name="action" value="{re.escape(notation)}"[^>]*>(.*?)</button>', page, re.S)
        assert button is not None, notation
        assert f"then {certs + 1}/14 certificates" in html.unescape(button.group(1))
    sells = [a for a in state["legal"] if " sell " in a]
    for notation in sells:
        count = int(notation.split()[-1])
        option = re.search(rf'<option value="{re.escape(notation)}"[^>]*>(.*?)</option>', page, re.S)
        assert option is not None, notation
        assert f"then {certs - count}/14 certificates" in html.unescape(option.group(1))
    # the count shown is the count the engine then has
    sell = max(sells, key=lambda a: int(a.split()[-1]))
    r = sqlite_client.post(f"/api/games/{gid}/moves?token={tokens[me]}",
                           json={"n": state["n"], "action": sell})
    assert r.status_code == 200
    assert r.json()["view"]["players"][me]["certificates"] == certs - int(sell.split()[-1])


def test_vii_5_par_shows_the_director_certificate_as_one_more(sqlite_client) -> None:
    gid, tokens, state = _replay_until(
        sqlite_client, lambda legal: any(" par " in a for a in legal))
    me = state["seat"] - 1
    certs = state["view"]["players"][me]["certificates"]
    page = sqlite_client.get(f"/g/{gid}?token={tokens[me]}").text
    for notation in (a for a in state["legal"] if " par " in a):
        option = re.search(rf'<option value="{re.escape(notation)}"[^>]*>(.*?)</option>', page, re.S)
        assert option is not None and f"then {certs + 1}/14 certificates" in option.group(1)


def test_bot_seats_say_which_computer_plays_them(sqlite_client) -> None:
    body = {"players": "4", "map": "full", "seed": "5", "seat1": "human", "seat2": "bot:random",
            "seat3": "bot:rule", "seat4": "bot:search"}
    page = sqlite_client.post("/new1840", content=urlencode(body), headers=FORM).text
    assert "computer: random moves" in page and "computer: rules of thumb" in page
    assert "computer: searching (strongest)" in page
    link = html.unescape(re.search(r'value="(http://testserver/g/[^"]+token=[^"]+)"', page)
                         .group(1)).removeprefix("http://testserver")
    table = sqlite_client.get(link).text
    badges = dict(re.findall(
        r'<tr[^>]*data-seat="(\d)">\s*<th>[^<]*(?:<em>[^<]*</em>)?\s*'
        r'<span class="bot-badge" data-bot="([^"]+)">', table))
    assert badges == {"1": "bot:random", "2": "bot:rule", "3": "bot:search"}
    lobby = sqlite_client.get("/").text  # the game list's labels (filled in by lobby.js)
    assert 'data-bot-rule="computer: rules of thumb"' in lobby


def test_the_language_links_of_a_refused_move_keep_the_table(sqlite_client) -> None:
    """A refused move (a plain form post) shows the table again: its language links lead back
    to the same seat's table, not to the lobby."""
    service = sqlite_client.app.state.service
    game = service.create("1840", {"players": 2}, ["human", "human"], seed=3)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    page = sqlite_client.post(f"/g/{gid}/move", headers=FORM, content=urlencode(
        {"n": "0", "action": "P1 par WT 90", "act_token": tokens[0], "token": tokens[0]})).text
    link = re.search(r'<a href="([^"]+)" hreflang="de">', page)
    assert link is not None
    assert html.unescape(link.group(1)) == f"/g/{gid}?token={tokens[0]}&lang=de"


def test_waiting_for_a_bot_names_the_computer(sqlite_client) -> None:
    """While a bot is to act, "Waiting for NAME" says which computer plays it."""
    service = sqlite_client.app.state.service
    service.close()  # no bot plays: the page is looked at while the bot is to act
    game = service.create("1840", {"players": 2}, ["human", "bot:rule"], ["Anna", None], seed=3)
    gid, token = game["id"], game["seats"][0]["token"]
    state = sqlite_client.get(f"/api/games/{gid}?token={token}").json()
    if 1 in state["to_act"]:  # the person acts first: play until the bot is to act
        for action in state["legal"]:
            r = sqlite_client.post(f"/api/games/{gid}/moves?token={token}",
                                   json={"n": state["n"], "action": action})
            if r.status_code == 200 and 2 in r.json()["to_act"]:
                break
    page = sqlite_client.get(f"/g/{gid}?token={token}").text
    assert 2 in sqlite_client.get(f"/api/games/{gid}").json()["to_act"]
    waiting = re.search(r'<section class="actions waiting">(.*?)</section>', page, re.S)
    assert waiting is not None
    assert 'data-bot="bot:rule">computer: rules of thumb</span>' in waiting.group(1)


def test_the_trambahn_table_names_the_computer_opponent(sqlite_client) -> None:
    page = sqlite_client.post("/new", headers=FORM, content=urlencode(
        {"seat1": "human", "seat2": "bot:search"})).text
    link = html.unescape(re.search(r'value="(http://testserver/g/[^"]+token=[^"]+)"', page)
                         .group(1)).removeprefix("http://testserver")
    table = sqlite_client.get(link).text
    assert '<span class="bot-badge" data-bot="bot:search">computer: searching (strongest)' in table
