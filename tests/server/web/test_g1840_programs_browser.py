"""The programs panel in a real browser (issue 25, item 1; docs/async.md): Playwright
driving Debian's chromium against a real ``tramways serve``; the purchase form's script
writes the notation from the fields, the move path sets it, the panel shows it in words and
cancels it.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` its screenshot is docs/async.md's."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

WAIT = 30_000

pytestmark = needs_chromium


def _new_game(base: str) -> tuple[str, str]:
    request = urllib.request.Request(
        base + "/api/games", method="POST", headers={"content-type": "application/json"},
        data=json.dumps({"game": "1840", "seats": ["human", "human", "bot:rule",
                                                  "bot:rule"]}).encode())
    with urllib.request.urlopen(request, timeout=30) as reply:
        made = json.load(reply)
    return made["id"], made["seats"][1]["token"]


def test_programs_panel_sets_a_purchase_and_cancels_it(live_server, browser,
                                                       shots: Path) -> None:
    gid, token = _new_game(live_server)
    page = browser.new_page(viewport=DESKTOP, locale="de-DE")
    try:
        page.goto(f"{live_server}/g/{gid}?token={token}&lang=de")
        panel = page.locator("#programs")
        panel.wait_for(timeout=WAIT)
        assert "Keine programmierte Aktion gesetzt." in panel.inner_text()
        form = panel.locator("form.program-buy")
        form.locator(".program-company").select_option("D")
        form.locator(".program-until").fill("3")
        form.locator(".program-pool").check()
        form.locator("button").click()
        page.wait_for_selector("#programs .programs-held li", timeout=WAIT)
        held = page.locator("#programs .programs-held li").inner_text()
        assert "D aus dem Pool kaufen, bis ich 3 Aktien halte, dann passen" in held
        items = page.locator("#programs .programs-held li")
        page.locator("#programs form.program-pass button").click()  # replaces the purchase
        expect(items).to_have_count(1, timeout=WAIT)
        expect(items.first).to_contain_text("In dieser Aktienrunde passen", timeout=WAIT)
        page.locator("#programs form.program-auctions button").click()
        expect(items).to_have_count(2, timeout=WAIT)
        for attempt in range(3):  # a live refresh may replace the panel while it is shot
            try:
                page.locator("#programs").screenshot(path=str(shots / "g1840-programs.png"))
                break
            except PlaywrightError:
                if attempt == 2:
                    raise
                page.wait_for_timeout(300)
        page.locator("#programs .programs-held li[data-kind=share] button").click()
        expect(items).to_have_count(1, timeout=WAIT)
        expect(items.first).to_contain_text("Vor-Aktienrunde", timeout=WAIT)
    finally:
        page.close()
