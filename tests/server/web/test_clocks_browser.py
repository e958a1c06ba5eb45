"""Every seat's clock on the game page in a real browser (issue 25, item 4; docs/async.md):
the pace, "waiting for X since ...", and the vote that hands a seat to the computer, drawn by
clocks.js from the API.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` its screenshot is
docs/async.md's."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect  # noqa: E402

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

WAIT = 30_000

pytestmark = needs_chromium


def _post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, method="POST", headers=headers,
                                     data=json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=30) as reply:
        return dict(json.load(reply))


def test_clocks_show_who_is_awaited_and_a_vote_hands_the_seat_over(live_server, browser,
                                                                    shots: Path) -> None:
    made = _post(live_server, "/api/games", {"game": "1840", "seats": [
        "human", "human", "bot:rule", "bot:rule"], "names": ["Anna", "Boris"]})
    gid, t1, t2 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    _post(live_server, f"/api/games/{gid}/pace",
          {"hours": 24, "on_deadline": "hand_over"}, t1)
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    try:
        page.goto(f"{live_server}/g/{gid}?token={t2}&lang=en")
        clocks = page.locator("#clocks")
        expect(clocks).to_be_visible(timeout=WAIT)
        expect(clocks.locator(".pace")).to_have_text(
            "Pace: 24 h a move; at the deadline: the seat goes to the computer", timeout=WAIT)
        anna = clocks.locator("li[data-seat='1']")
        # the first to act (the set-up decides: Anna or Boris) is awaited since now
        expect(clocks.locator(".seat-clocks")).to_contain_text(
            re.compile(r"waiting for (Anna|Boris) since 0 min"), timeout=WAIT)
        expect(clocks.locator("li[data-seat='2'] button")).to_have_text("Resign")
        clocks.screenshot(path=str(shots / "clocks.png"))
        anna.locator("button", has_text="Vote to hand over").click()
        expect(anna).to_contain_text("played by the computer", timeout=WAIT)
    finally:
        page.close()
