"""Bot labels, the "your turn" form and the language switch in a real browser (issue 12):
Playwright driving Debian's chromium against a real ``tramways serve``.  With
``TRAMWAYS_SCREENSHOT_DIR=docs`` its screenshots are the README's."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402

WAIT = 30_000

pytestmark = needs_chromium


def test_lobby_labels_each_bot_and_the_seat_sets_its_notifications(live_server, browser,
                                                                   shots: Path) -> None:
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    try:
        page.goto(live_server + "/?lang=en")
        page.select_option("#players", "4")
        for seat, kind in ((2, "bot:random"), (3, "bot:rule"), (4, "bot:search")):
            page.select_option(f"#seat1840-{seat}", kind)
        page.fill("#create-1840 input[name=name1]", "Anna")
        page.click("#create-1840 button[type=submit]")
        page.wait_for_selector("#created", timeout=WAIT)
        assert page.locator(".seats .bot").all_inner_texts() == [
            "computer: random moves", "computer: rules of thumb",
            "computer: searching (strongest)"]
        link = page.locator("a.button", has_text="Play this seat").first.get_attribute("href")
        # the lobby's list (built by lobby.js from the game's payload) names each bot
        page.goto(live_server + "/")
        entry = page.locator("#my-games li.your-turn, #my-games li.waiting").first
        entry.wait_for(timeout=WAIT)
        bots = entry.locator(".bot")
        assert [bots.nth(i).get_attribute("data-bot") for i in range(bots.count())] == [
            "bot:random", "bot:rule", "bot:search"]
        assert "Anna" in entry.locator(".title").inner_text()
        entry.screenshot(path=str(shots / "lobby-bots.png"))
        # the seat's page: the players table labels the bots, the form refuses a private
        # webhook
        page.goto(link)
        page.wait_for_selector("#players-table", timeout=WAIT)
        assert page.locator("#players-table .bot-badge").count() == 3
        page.click("#notify summary")
        assert page.locator("#notify-email").is_disabled()  # this server has no SMTP
        page.fill("#notify-webhook", "http://192.168.0.10/hook")
        page.click("#notify button[type=submit]")
        page.wait_for_selector("#notify .error", timeout=WAIT)
        assert "not a public address" in page.locator("#notify .error").inner_text()
        page.locator("#notify").screenshot(path=str(shots / "notify-form.png"))
        # the language switch: the same seat's page in Russian, then Spanish on a phone
        page.goto(link)
        page.click('header nav.langs a[hreflang="ru"]')
        page.wait_for_selector('html[lang="ru"]', timeout=WAIT)
        assert page.locator("#players-table th").first.inner_text() == "Игрок"
        assert page.locator("#players-table .bot-badge").all_inner_texts() == [
            "компьютер: случайные ходы", "компьютер: простые правила",
            "компьютер: перебор (сильнейший)"]
        assert page.locator(".round-bar h2").inner_text() == "Трек раундов"
        page.screenshot(path=str(shots / "g1840-ru-desktop.png"))
        page.set_viewport_size(PHONE)
        page.click('header nav.langs a[hreflang="es"]')
        page.wait_for_selector('html[lang="es"]', timeout=WAIT)
        assert page.locator(".round-bar h2").inner_text() == "Barra de rondas"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(shots / "g1840-es-phone.png"), full_page=True)
    finally:
        page.close()
