"""Redirect after post for game creation (issue 24, item 5: a reload created a second game).

``POST /new`` and ``/new1840`` answer 303 to ``GET /g/{id}/created``; the seat links come
from a signed cookie of the creating browser only (docs/server.md)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")
sa = pytest.importorskip("sqlalchemy")

FORM = {"content-type": "application/x-www-form-urlencoded"}
SEAT_LINK = re.compile(r'value="http://testserver/g/([^/?"]+)\?token=([^"&]+)"')


def _games(url: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("select count(*) from games")).scalar_one())
    finally:
        engine.dispose()


def test_issue24_new_game_redirects_and_a_reload_creates_nothing(sqlite_client, sqlite_url) -> None:
    body = urlencode({"seat1": "human", "seat2": "human", "name1": "Anna", "name2": "Ben"})
    posted = sqlite_client.post("/new", content=body, headers=FORM, follow_redirects=False)
    assert posted.status_code == 303
    target = posted.headers["location"]
    gid = re.fullmatch(r"/g/([^/]+)/created", target).group(1)
    cookie = posted.headers["set-cookie"]
    assert "tw_created=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert f"Path=/g/{gid}/created" in cookie and "Max-Age=600" in cookie
    assert _games(sqlite_url) == 1

    first = sqlite_client.get(target)
    assert first.status_code == 200 and "Anna" in first.text and "Ben" in first.text
    links = SEAT_LINK.findall(first.text)
    assert len(links) == 2 and {g for g, _t in links} == {gid}
    assert first.headers["cache-control"] == "no-store"
    again = sqlite_client.get(target)  # the reload
    assert SEAT_LINK.findall(again.text) == links
    assert _games(sqlite_url) == 1
    # the links are the seats': each opens its table
    table = sqlite_client.get(f"/g/{gid}?token={links[0][1]}")
    assert table.status_code == 200 and "Anna" in table.text


def test_issue24_another_browser_gets_no_seat_link(sqlite_client) -> None:
    body = urlencode({"seat1": "human", "seat2": "bot:rule"})
    posted = sqlite_client.post("/new", content=body, headers=FORM, follow_redirects=False)
    target = posted.headers["location"]
    gid = target.split("/")[2]
    [(_gid, token)] = SEAT_LINK.findall(sqlite_client.get(target).text)
    sqlite_client.cookies.clear()  # another browser: no cookie
    other = sqlite_client.get(target, follow_redirects=False)
    assert other.status_code == 303 and other.headers["location"] == f"/g/{gid}"
    spectator = sqlite_client.get(target)
    assert spectator.status_code == 200 and token not in spectator.text
    # a forged cookie (another signature) is no cookie
    sqlite_client.cookies.set("tw_created", "e30.forged", path=f"/g/{gid}/created")
    assert sqlite_client.get(target, follow_redirects=False).status_code == 303


def test_issue24_new1840_redirects_keeping_the_language(sqlite_client, sqlite_url) -> None:
    body = urlencode({"players": "3", "map": "full", "seat1": "human", "seat2": "human",
                      "seat3": "bot:rule", "name1": "Anna"})
    posted = sqlite_client.post("/new1840?lang=de", content=body, headers=FORM,
                                follow_redirects=False)
    assert posted.status_code == 303 and posted.headers["location"].endswith("/created?lang=de")
    page = sqlite_client.get(posted.headers["location"])
    assert page.status_code == 200 and "Das Spiel ist angelegt" in page.text
    assert "Anna" in page.text and len(SEAT_LINK.findall(page.text)) == 2
    assert _games(sqlite_url) == 1


def test_issue24_hotseat_link_survives_the_redirect(sqlite_client) -> None:
    body = urlencode({"hotseat": "1", "name1": "Anna", "name2": "Ben"})
    page = sqlite_client.post("/new", content=body, headers=FORM)  # follows the 303
    assert page.status_code == 200 and page.url.path.endswith("/created")
    both = re.findall(r'href="http://testserver/g/[^/?"]+\?token=[^"&]+&amp;token=[^"]+"', page.text)
    assert both  # "Open the table": both seats at this screen
    assert '&#34;hotseat&#34;: true' in page.text or '"hotseat": true' in page.text


def test_issue24_a_refused_form_is_shown_again_without_redirect(sqlite_client, sqlite_url) -> None:
    posted = sqlite_client.post("/new", content=urlencode({"seat1": "nobody"}), headers=FORM,
                                follow_redirects=False)
    assert posted.status_code == 422 and "tw_created" not in posted.headers.get("set-cookie", "")
    assert 'action="/new"' in posted.text
    assert _games(sqlite_url) == 0


def test_issue24_the_created_page_is_read_by_another_process_of_the_site(sqlite_url) -> None:
    """Two applications on one database (two server processes): the cookie made by one is
    read by the other (both sign with the site's secret kept in the database)."""
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as one, make_client(sqlite_url) as two:
        body = urlencode({"seat1": "human", "seat2": "bot:rule", "name1": "Anna"})
        posted = one.post("/new", content=body, headers=FORM, follow_redirects=False)
        target = posted.headers["location"]
        two.cookies.set("tw_created", posted.cookies["tw_created"], path=target)
        page = two.get(target, follow_redirects=False)
        assert page.status_code == 200 and "Anna" in page.text
        assert len(SEAT_LINK.findall(page.text)) == 1
