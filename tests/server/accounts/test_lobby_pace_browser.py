"""An open game's pace in a real browser (Playwright driving Debian's chromium; issue 24,
item 2; docs/async.md): Anna opens a Trambahn game with a pace of 24 hours a move from the
lobby's form, Bert sees "24 h a move" in his lobby, joins, and the game page's clocks show the
pace.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` its screenshot is docs/lobby-pace.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.accounts.helpers import uniq  # noqa: E402
from tests.server.conftest import start_server, stop_server  # noqa: E402
from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

pytestmark = needs_chromium
WAIT = 20_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    proc, base = start_server(f"sqlite:///{tmp_path / 'site.sqlite3'}", None,
                              "--moves-per-second", "0")
    try:
        yield base
    finally:
        stop_server(proc)


def _signup(page, base: str, name: str) -> None:
    page.goto(base + "/account/signup?lang=en")
    page.fill("#name", name)
    page.fill("#password", "a good password")
    page.click("#account-form button[type=submit]")
    page.wait_for_url(base + "/lobby")


def test_lobby_pace_a_24_h_game_is_listed_joined_and_its_clocks_show_the_pace(
        browser, server: str, shots: Path) -> None:
    base = server
    anna_name, bert_name = uniq("Anna"), uniq("Bert")
    anna = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    bert = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    _signup(anna, base, anna_name)
    _signup(bert, base, bert_name)
    anna.select_option("#o-game", "trambahn")
    playwright.expect(anna.locator("#o-hours")).to_be_hidden()  # no pace chosen yet
    anna.select_option("#o-pace", "async")
    playwright.expect(anna.locator("#o-hours")).to_be_visible()
    playwright.expect(anna.locator("#o-minutes")).to_be_hidden()
    anna.fill("#o-hours", "24")
    anna.select_option("#o-deadline", "hand_over")
    anna.select_option("#o-bot", "bot:strong")
    anna.locator("#open-new").screenshot(path=str(shots / "lobby-pace.png"))
    anna.click("#open-form button[type=submit]")
    anna.wait_for_url(f"{base}/lobby/*")
    table = anna.url.rsplit("/", 1)[1]
    row = bert.locator(f'li[data-table="{table}"]')
    playwright.expect(row).to_contain_text(anna_name, timeout=WAIT)  # live, without a reload
    playwright.expect(row.locator(".table-pace")).to_have_text(
        "24 h a move (at the deadline: the seat goes to the computer (strong))")
    bert.select_option("#f-pace", "live")  # filtered out by another pace
    bert.click(".filters button[type=submit]")
    playwright.expect(bert.locator(f'li[data-table="{table}"]')).to_have_count(0)
    bert.select_option("#f-pace", "async")
    bert.click(".filters button[type=submit]")
    row = bert.locator(f'li[data-table="{table}"]')
    playwright.expect(row.locator(".table-pace")).to_contain_text("24 h a move")
    row.locator("button.join").click()
    bert.wait_for_url(f"{base}/lobby/{table}")
    bert.click("#play")
    clocks = bert.locator("#clocks")
    playwright.expect(clocks.locator(".pace")).to_have_text(
        "Pace: 24 h a move; at the deadline: the seat goes to the computer", timeout=WAIT)
    playwright.expect(clocks.locator(".seat-clocks")).to_contain_text(
        f"waiting for {anna_name} since 0 min", timeout=WAIT)  # Trambahn: P1 starts (T-R-1)
