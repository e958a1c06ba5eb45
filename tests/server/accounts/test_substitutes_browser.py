"""A substitute through an invite link in a real browser (Playwright driving Debian's
chromium; issue 25, item 3; docs/async.md): Boris votes Anna's seat to the computer, invites a
substitute from the clocks panel, Carla (no account) opens the link, takes the seat and
plays a move on the game page."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

pytestmark = needs_chromium
WAIT = 30_000


def _api(base: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, headers=headers, method="POST" if body
                                     is not None else "GET",
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=30) as reply:
        return dict(json.load(reply))


def _wait_for(base: str, gid: str, seat: int) -> None:
    """Until ``seat`` is to act (the computer finished the turn it played)."""
    for _ in range(300):
        if seat in _api(base, f"/api/games/{gid}")["to_act"]:
            return
        time.sleep(0.1)
    raise AssertionError(f"seat {seat} never came to act")


def test_substitute_takes_a_voted_seat_from_the_link_and_plays(live_server, browser) -> None:
    base = live_server
    made = _api(base, "/api/games", body={"game": "trambahn", "seats": ["human", "human"],
                                          "names": ["Anna", "Boris"]})
    gid, t2 = made["id"], made["seats"][1]["token"]
    boris = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    carla = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    boris.goto(f"{base}/g/{gid}?token={t2}&lang=en")
    anna = boris.locator("#clocks li[data-seat='1']")
    anna.locator("button", has_text="Vote to hand over").click(timeout=WAIT)
    playwright.expect(anna).to_contain_text("played by the computer", timeout=WAIT)
    _wait_for(base, gid, 2)  # the computer played Anna's turn
    anna.locator("button", has_text="Invite a substitute").click(timeout=WAIT)
    shown = boris.locator("#clocks .invitation")
    playwright.expect(shown).to_contain_text("Send this link to the substitute (it works once):")
    link = shown.locator("a.invite-link").get_attribute("href")
    assert link and link.startswith(f"/g/{gid}/substitute/")
    # Carla, with no account, takes Anna's seat; Boris plays his turn; Carla plays
    carla.goto(f"{base}{link}?lang=en")
    playwright.expect(carla.locator("h1")).to_have_text("Play as a substitute")
    playwright.expect(carla.locator("#substitute")).to_contain_text("Anna's seat")
    carla.click("#substitute-form button[type=submit]")
    carla.wait_for_url(f"{base}/g/{gid}?token=*")
    token = carla.url.split("token=")[1]
    while 2 in _api(base, f"/api/games/{gid}")["to_act"]:
        mine = _api(base, f"/api/games/{gid}", t2)
        _api(base, f"/api/games/{gid}/moves", t2, {"n": mine["n"], "action": mine["legal"][0]})
    playwright.expect(carla.locator(".actions h2")).to_have_text("Your turn", timeout=WAIT)
    n = int(carla.locator("#table").get_attribute("data-n"))
    carla.locator('button[data-notation^="P1 passenger"]').first.click()
    carla.wait_for_function(
        f"() => Number(document.getElementById('table')?.dataset.n) > {n}", timeout=WAIT)
    state = _api(base, f"/api/games/{gid}", token)
    assert state["seat"] == 1 and state["n"] > n
    assert any("Anna's seat goes to a substitute invited by Boris" in line
               for line in state["log"])
    playwright.expect(boris.locator(".log")).to_contain_text(
        "a substitute invited by Boris", timeout=WAIT)  # visible in the log, live
