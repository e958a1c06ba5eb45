"""Every seat's clock on the game page in a real browser (issue 25, item 4; docs/async.md):
the pace, "waiting for X since ...", and the vote that hands a seat to the computer, drawn by
clocks.js from the API.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` its screenshot is
docs/async.md's."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import UTC, datetime, timedelta
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


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=30) as reply:
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


def test_clocks_vacation_and_pace_forms_post_through_the_api(live_server, browser,
                                                            shots: Path) -> None:
    """Issue 25, item 2: a seat's vacation (until a time; back now) and the game's pace, set
    from the clocks panel by a person's seat; a spectator sees neither form."""
    made = _post(live_server, "/api/games", {"game": "1840", "seats": [
        "human", "human", "bot:rule", "bot:rule"], "names": ["Anna", "Boris"]})
    gid, t1 = made["id"], made["seats"][0]["token"]
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    try:
        page.goto(f"{live_server}/g/{gid}?token={t1}&lang=en")
        clocks = page.locator("#clocks")
        expect(clocks.locator(".pace")).to_have_text(
            "No pace: the game waits as long as it takes.", timeout=WAIT)
        form = clocks.locator("#pace-form")
        expect(form).to_be_visible()
        form.locator("#pace-kind").select_option("live")
        expect(form.locator("#pace-hours")).to_be_hidden()
        form.locator("#pace-minutes").fill("10")
        form.locator("#pace-deadline").select_option("bot_move")
        form.locator("#pace-bot").select_option("bot:strong")
        form.locator("button[type=submit]").click()
        expect(clocks.locator(".pace")).to_have_text(
            "Pace: 10 min a move; at the deadline: the computer moves for the seat",
            timeout=WAIT)
        paced = _get(live_server, f"/api/games/{gid}/clocks")["pace"]
        assert paced == {"seconds": 600, "on_deadline": "bot_move", "bot": "bot:strong"}
        vacation = clocks.locator("#vacation-form")
        vacation.locator("#vacation-until").fill("2035-12-01T18:00")
        vacation.locator("button[type=submit]").click()
        expect(clocks.locator(".error")).to_have_text("a vacation lasts at most 60 days",
                                                      timeout=WAIT)
        until = (datetime.now() + timedelta(days=2)).replace(second=0, microsecond=0)
        vacation.locator("#vacation-until").fill(until.strftime("%Y-%m-%dT%H:%M"))
        vacation.locator("button[type=submit]").click()
        expect(clocks.locator("li[data-seat='1']")).to_contain_text("on vacation", timeout=WAIT)
        expect(vacation.locator(".vacation-now")).to_contain_text("You are on vacation until")
        expect(clocks.locator(".error")).to_be_hidden()
        mine = _get(live_server, f"/api/games/{gid}/clocks")["seats"][0]
        assert datetime.fromisoformat(mine["vacation_until"]) == until.astimezone(UTC)
        clocks.screenshot(path=str(shots / "clocks-vacation.png"))
        vacation.locator(".vacation-cancel").click()
        expect(clocks.locator("li[data-seat='1']")).not_to_contain_text("on vacation",
                                                                       timeout=WAIT)
        assert _get(live_server, f"/api/games/{gid}/clocks")["seats"][0]["vacation_until"] is None
        page.goto(f"{live_server}/g/{gid}?lang=en")  # a spectator: no forms
        expect(page.locator("#clocks .pace")).to_contain_text("10 min a move", timeout=WAIT)
        expect(page.locator("#vacation-form")).to_be_hidden()
        expect(page.locator("#pace-form")).to_be_hidden()
    finally:
        page.close()


def test_clocks_resign_ends_the_game_when_the_settings_say_so(live_server, browser) -> None:
    """docs/async.md: a game made with ``on_resign: "end"``; Anna's Resign asks the confirm of
    that setting, and on yes the game ends at once: the table shows the end, Bert the winner,
    and the clocks offer no control any more."""
    made = _post(live_server, "/api/games", {
        "game": "trambahn", "seats": ["human", "human"], "names": ["Anna", "Bert"],
        "pace": {"pace": "none", "on_resign": "end"}})
    gid, anna = made["id"], made["seats"][0]["token"]
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    try:
        page.goto(f"{live_server}/g/{gid}?token={anna}&lang=en")
        clocks = page.locator("#clocks")
        expect(clocks.locator(".pace")).to_have_text(
            "No pace: the game waits as long as it takes. A resignation ends the game.",
            timeout=WAIT)
        clocks.locator("li[data-seat='1'] button", has_text="Resign").click()
        expect(page.locator("section.result")).to_contain_text(
            "Anna resigned: the game ended at once.", timeout=WAIT)
        expect(page.locator("section.result h1")).to_contain_text("Bert wins")
        assert asked == ["Resign: the game ends at once and you place last?"]
        expect(clocks.locator(".seat-clocks button")).to_have_count(0, timeout=WAIT)
        expect(clocks.locator("#vacation-form")).to_be_hidden()
        expect(clocks.locator("#pace-form")).to_be_hidden()
    finally:
        page.close()
    state = _get(live_server, f"/api/games/{gid}")
    assert state["status"] == "over" and state["log"][-2] == "Anna resigns: the game ends"
