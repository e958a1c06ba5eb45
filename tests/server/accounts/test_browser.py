"""Accounts in a real browser (Playwright driving Debian's chromium; issue 24): Anna signs
up and opens a Trambahn game, Bert signs up in another browser and joins it from the lobby,
both chat, the game is played to its end with each account's seat (the moves through the
API with the seat links the pages gave), both ratings change, and a third browser logged
in to Anna's account finds the game under "My games".  Anna's browsers talk to one
``tramways serve`` process, Bert's and the third to another on the same database, SQLite and
PostgreSQL (issue 24's "done when": the lobby and the chat cross processes)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.accounts.helpers import uniq  # noqa: E402
from tests.server.conftest import POSTGRES_ENV, start_server, stop_server  # noqa: E402
from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

pytestmark = needs_chromium
WAIT = 15_000


@pytest.fixture(params=["sqlite", "postgresql"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two server processes on one database: their base URLs."""
    if request.param == "sqlite":
        yield from _two_servers(f"sqlite:///{tmp_path / 'site.sqlite3'}")
        return
    shared = os.environ.get(POSTGRES_ENV, "")
    if not shared:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV}")
    url = _fresh_postgres(shared)  # its own: the shared one's sign-up buckets are others' too
    try:
        yield from _two_servers(url)
    finally:
        _drop_postgres(url)


def _fresh_postgres(url: str) -> str:
    import uuid

    import sqlalchemy as sa

    base = sa.engine.make_url(url)
    name = f"tramways_browser_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def _drop_postgres(url: str) -> None:
    import sqlalchemy as sa

    made = sa.engine.make_url(url)
    admin = sa.create_engine(made.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE "{made.database}" WITH (FORCE)')
    admin.dispose()


def _two_servers(url: str) -> Iterator[tuple[str, str]]:
    first, base = start_server(url, None, "--moves-per-second", "0")
    try:
        second, other_base = start_server(url, None, "--moves-per-second", "0")
        try:
            yield base, other_base
        finally:
            stop_server(second)
    finally:
        stop_server(first)


def _api(base: str, path: str, token: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _signup(page, base: str, name: str, password: str) -> None:
    page.goto(base + "/account/signup")
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("#account-form button[type=submit]")
    page.wait_for_url(base + "/lobby")
    playwright.expect(page.locator(".account-nav .who")).to_have_text(name)


def _say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")


def _play_to_end(base: str, gid: str, tokens: dict[int, str]) -> dict:
    for _ in range(3000):
        state = _api(base, f"/api/games/{gid}", tokens[1])
        if state["status"] != "active":
            return state
        seat = state["to_act"][0]
        mine = _api(base, f"/api/games/{gid}", tokens[seat])
        ends = [m for m in mine["legal"] if m.endswith(" end")]
        _api(base, f"/api/games/{gid}/moves", tokens[seat],
             {"n": mine["n"], "action": (ends or mine["legal"])[0]})
    raise AssertionError("the game did not end")


def test_two_accounts_meet_in_the_lobby_chat_play_and_are_rated(
        browser, servers: tuple[str, str], shots: Path) -> None:
    base, other_base = servers  # Anna's process, and Bert's
    anna_name, bert_name = uniq("Anna"), uniq("Bert")
    anna = browser.new_context(viewport=DESKTOP).new_page()
    bert = browser.new_context(viewport=DESKTOP).new_page()
    _signup(anna, base, anna_name, "anna password")
    _signup(bert, other_base, bert_name, "bert password")
    # Anna opens a Trambahn game for two
    anna.select_option("#o-game", "trambahn")
    anna.select_option("#o-seats", "2")
    anna.click("#open-form button[type=submit]")
    anna.wait_for_url(f"{base}/lobby/*")
    table = anna.url.rsplit("/", 1)[1]
    # Bert's lobby shows it (live, without a reload) and he joins
    row = bert.locator(f'li[data-table="{table}"]')
    playwright.expect(row).to_contain_text(anna_name, timeout=WAIT)
    bert.screenshot(path=str(shots / "accounts-lobby.png"))
    row.locator("button.join").click()
    bert.wait_for_url(f"{other_base}/lobby/{table}")
    playwright.expect(bert.locator("#play")).to_be_visible()
    # Anna's table page shows "Play" once Bert sat down (the lobby's socket)
    playwright.expect(anna.locator("#play")).to_be_visible(timeout=WAIT)
    anna.click("#play")
    bert.click("#play")
    gid = anna.url.split("/g/")[1].split("?")[0]
    tokens = {1: anna.url.split("token=")[1], 2: bert.url.split("token=")[1]}
    # both chat; each sees the other's message under the seat's name, as text
    _say(anna, "Servus <b>Bert</b>!")
    playwright.expect(bert.locator("#chat .messages li")).to_have_count(1, timeout=WAIT)
    _say(bert, "Grüß Gott")
    playwright.expect(anna.locator("#chat .messages li")).to_have_count(2, timeout=WAIT)
    first = anna.locator("#chat .messages li").nth(0)
    playwright.expect(first.locator("strong")).to_have_text(anna_name)
    playwright.expect(first.locator(".text")).to_have_text("Servus <b>Bert</b>!")
    assert anna.locator("#chat .messages b").count() == 0  # never markup
    playwright.expect(anna.locator("#chat .messages li").nth(1)).to_contain_text(bert_name)
    anna.screenshot(path=str(shots / "accounts-chat.png"))
    # the game to its end, each seat played with its account's link
    _play_to_end(base, gid, tokens)
    for page, its_base in ((anna, base), (bert, other_base)):
        page.goto(its_base + "/account")
        playwright.expect(page.locator('#ratings tr[data-game="trambahn"] .rating')).not_to_have_text(
            "", timeout=WAIT)
    ratings = [int(p.locator('#ratings tr[data-game="trambahn"] .rating').inner_text())
               for p in (anna, bert)]
    assert sum(ratings) == 3000 and (ratings == [1500, 1500] or sorted(ratings) == [1484, 1516])
    playwright.expect(anna.locator("#finished")).to_contain_text(bert_name)
    anna.screenshot(path=str(shots / "accounts-profile.png"))
    # another browser logged in to Anna's account: her game is under "My games"
    other = browser.new_context(viewport=DESKTOP).new_page()
    other.goto(other_base + "/account/login")
    other.fill("#name", anna_name)
    other.fill("#password", "anna password")
    other.click("#account-form button[type=submit]")
    other.wait_for_url(other_base + "/lobby")
    other.goto(other_base + "/mine")
    game = other.locator(f'.my-games li[data-game="{gid}"]')
    playwright.expect(game).to_contain_text(bert_name)
    game.locator("a").click()
    playwright.expect(other.locator("#chat .messages li")).to_have_count(2, timeout=WAIT)
