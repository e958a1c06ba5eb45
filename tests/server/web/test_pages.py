"""The pages in process: lobby, seat links, the table, hotseat pass screen, spectators, end."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")

FORM = {"content-type": "application/x-www-form-urlencoded"}


def _create(client, **fields) -> tuple[str, list[str]]:
    """Create a game through the lobby form; return the page and the links it shows."""
    body = {"seat1": "human", "seat2": "human", "name1": "Anna", "name2": "Ben", **fields}
    page = client.post("/new", content=urlencode(body), headers=FORM)
    assert page.status_code == 200
    links = [html.unescape(x).removeprefix("http://testserver")
             for x in re.findall(r'value="(http://testserver/g/[^"]+)"', page.text)]
    return page.text, links


def _form(page: str) -> dict[str, list[str]]:
    """The hidden fields of the first move form and every offered action."""
    form = re.search(r'<form method="post" action="(/g/[^"]+/move)".*?</form>', page, re.S)
    assert form is not None
    fields: dict[str, list[str]] = {}
    for name, value in re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)):
        if name != "action":
            fields.setdefault(name, []).append(html.unescape(value))
    fields["_url"] = [form.group(1)]
    fields["actions"] = [html.unescape(a) for a in re.findall(r'name="action" value="([^"]+)"', page)]
    return fields


def _play(client, page: str, action: str, fragment: bool = False):
    f = _form(page)
    pairs = [(k, v) for k, vs in f.items() if not k.startswith("_") and k != "actions" for v in vs]
    pairs.append(("action", action))
    if fragment:
        pairs.append(("fragment", "1"))
    return client.post(f["_url"][0], content=urlencode(pairs), headers=FORM,
                       follow_redirects=False)


def test_lobby_in_english_and_german(sqlite_client) -> None:
    en = sqlite_client.get("/", headers={"accept-language": "en"})
    assert en.status_code == 200 and "Create the game" in en.text
    de = sqlite_client.get("/?lang=de")
    assert "Spiel anlegen" in de.text and "Create the game" not in de.text
    assert de.cookies.get("lang") == "de"
    # the cookie keeps the choice; Accept-Language is the default
    assert "Spiel anlegen" in sqlite_client.get("/").text
    sqlite_client.cookies.clear()
    assert "Spiel anlegen" in sqlite_client.get("/", headers={"accept-language": "de-AT"}).text


def test_seat_links_table_and_spectator_never_sees_a_hand(sqlite_client) -> None:
    text, links = _create(sqlite_client)
    anna, ben, spectate = links
    # this browser remembers Anna's seat only (Ben's link is for Ben)
    saved = json.loads(html.unescape(re.search(r'data-saved="([^"]*)"', text).group(1)))
    assert [s["name"] for s in saved["seats"]] == ["Anna"] and saved["hotseat"] is False
    assert "token=" in anna and "token=" in ben and "token" not in spectate
    page = sqlite_client.get(anna).text
    assert "Your hand" in page and 'class="hand-cards"' in page and "Your turn" in page
    hand = re.findall(r'<div class="hand-cards">(.*?)</div>', page, re.S)[0]
    assert hand.count('class="card ') == 6
    f = _form(page)
    assert f["actions"] and all(a.startswith("P1 passenger") for a in f["actions"])
    other = sqlite_client.get(ben).text
    assert 'class="hand-cards"' in other and "Waiting for Anna." in other
    assert 'name="action"' not in other
    watcher = sqlite_client.get(spectate).text
    assert 'class="hand-cards"' not in watcher and "Your hand" not in watcher
    assert "You are watching this game." in watcher and 'name="action"' not in watcher
    # a move through the page: 303 back to the table, the log says it
    reply = _play(sqlite_client, page, f["actions"][-1])
    assert reply.status_code == 303
    after = sqlite_client.get(reply.headers["location"]).text
    assert "Anna: passenger" in after and "Undo my last move" in after
    assert "End turn and draw" in after
    # a move from a stale page: the fresh table with the 409 message
    stale = _play(sqlite_client, page, f["actions"][0], fragment=True)
    assert "The game moved on meanwhile" in stale.text
    # a move for the other seat: 403 message
    forged = _play(sqlite_client, after, "P2 end", fragment=True)
    assert "This is not your seat." in forged.text or "not allowed" in forged.text


def test_hotseat_hides_the_hand_between_turns(sqlite_client) -> None:
    text, links = _create(sqlite_client, hotseat="1")
    saved = json.loads(html.unescape(re.search(r'data-saved="([^"]*)"', text).group(1)))
    assert [s["name"] for s in saved["seats"]] == ["Anna", "Ben"] and saved["hotseat"] is True
    hotseat = links[0]
    assert hotseat.count("token=") == 2
    first = sqlite_client.get(hotseat).text
    assert "Pass the device to Anna" in first and 'class="hand-cards"' not in first
    ready = html.unescape(re.search(r'href="(/g/[^"]+ready=0)"', first).group(1))
    table = sqlite_client.get(ready).text
    assert 'class="hand-cards"' in table and "Your turn" in table
    f = _form(table)
    step = _play(sqlite_client, table, f["actions"][0], fragment=True).text
    done = _play(sqlite_client, step, "P1 end", fragment=True).text
    assert "Pass the device to Ben" in done and 'class="hand-cards"' not in done
    ben = sqlite_client.get(
        html.unescape(re.search(r'href="(/g/[^"]+ready=1)"', done).group(1))
    ).text
    assert "Your turn" in ben and all(a.startswith("P2 ") for a in _form(ben)["actions"])


def test_the_end_shows_the_result_pad_and_the_record(sqlite_client) -> None:
    """A whole game through the API, then the end screen and the record download (T-R-4)."""
    _text, links = _create(sqlite_client, seat2="bot:random", name2="")
    anna = links[0]
    token = anna.split("token=")[1]
    gid = anna.split("/")[2].split("?")[0]
    rng = random.Random(4)
    auth = {"Authorization": f"Bearer {token}"}
    assert sqlite_client.get(f"/g/{gid}/record?token={token}").status_code == 403
    for _ in range(3000):
        state = sqlite_client.get(f"/api/games/{gid}", headers=auth).json()
        if state["status"] == "over":
            break
        if not state["legal"]:
            sqlite_client.app.state.service.wait_for_bots()
            continue
        legal = state["legal"]
        move = next((a for a in legal if " buy " in a), None) or rng.choice(legal)
        sqlite_client.post(f"/api/games/{gid}/moves", json={"n": state["n"], "action": move},
                           headers=auth)
    page = sqlite_client.get(anna).text
    assert 'class="result"' in page and "Download the record" in page
    assert re.search(r"(Anna|Computer) wins, \d+ to \d+|A draw", page)
    assert "Scoring 10 of 10" in page or "no cards were left" in page
    record = sqlite_client.get(f"/g/{gid}/record?token={token}")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    data = record.json()
    assert data["game"] == "trambahn" and data["actions"] and "seed" in data


def test_unknown_game_and_bad_token(sqlite_client) -> None:
    assert sqlite_client.get("/g/nope").status_code == 404
    _text, links = _create(sqlite_client)
    gid = links[0].split("/")[2].split("?")[0]
    bad = sqlite_client.get(f"/g/{gid}?token=forged")
    assert bad.status_code == 404 and "link is not valid" in bad.text


def test_past_positions_and_games_without_pages(sqlite_client) -> None:
    _text, links = _create(sqlite_client)
    anna = links[0]
    page = sqlite_client.get(anna).text
    moved = sqlite_client.get(_play(sqlite_client, page, _form(page)["actions"][0])
                              .headers["location"]).text
    assert 'name="at"' in moved
    past = sqlite_client.get(anna + "&at=0").text
    assert "A past position: after move 0 of 1." in past
    assert 'name="action"' not in past and 'rel="next"' in past and 'rel="prev"' not in past
    assert "Anna: passenger" not in past
    created = sqlite_client.post(
        "/api/games", json={"game": "1840", "settings": {"players": 2}, "seats": ["human", "human"]}
    ).json()
    other = sqlite_client.get(f"/g/{created['id']}")
    assert other.status_code == 200 and 'id="map"' in other.text  # 1840 has its page (issue 12)
