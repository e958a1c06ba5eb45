"""The pages in a real browser (Playwright driving Debian's chromium, never a download).

Two browser contexts play a Trambahn game through the pages (with a reload in the middle),
a third watches as a spectator and never sees a hand, then a game at one screen passes the
device between turns; one test plays on a phone-sized screen (390x844) to the end and downloads
the record.  The tests save screenshots of the table; with ``TRAMWAYS_SCREENSHOT_DIR=docs``
they are the README's.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402

WAIT = 15_000  # ms: the longest a page may take to show a change (bots, live updates)

pytestmark = needs_chromium


def _api(base: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        return {"http_error": e.code, **json.loads(e.read() or b"{}")}


def _rested(state: dict, limited: bool) -> dict:
    if limited:
        time.sleep(4.5)  # 5 moves a second refill the burst of 20
    return state


def _advance(base: str, gid: str, token: str, turns: int) -> dict:
    """Play ``turns`` of the seat's turns through the API (against a bot seat), plausibly:
    one passenger, stations onto columns, a tram for a column without one, end.  Faster than a
    person, it meets the seat's rate limit; then it waits for the seat's burst to come back
    before the page plays on (the page's next click was refused with 429)."""
    played = 0
    limited = False
    while True:
        state = _api(base, f"/api/games/{gid}", token)
        if state["status"] == "over":
            return _rested(state, limited)
        legal = state["legal"]
        if not legal:
            time.sleep(0.05)
            continue
        view = state["view"]
        if played >= turns and view["passengers_placed"] == 0:
            return _rested(state, limited)
        pick = None
        if view["passengers_placed"] == 0:
            rows = view["rows"]
            pick = min((a for a in legal if " passenger " in a),
                       key=lambda a: len(rows[a.split()[-1][-1]]))
        else:
            columns = len(view["columns"][view["you"]])
            pick = (
                next((a for a in legal if " station " in a and not a.endswith(" new")), None)
                or next((a for a in legal if a.endswith(" new") and columns < 3), None)
                or next((a for a in legal if " buy " in a), None)
            )
            if pick is None:
                pick = next(a for a in legal if a.endswith(" end"))
                played += 1
        answer = _api(base, f"/api/games/{gid}/moves", token, {"n": state["n"], "action": pick})
        if answer.get("http_error") == 429:  # the seat's rate limit (5 a second, bursts of 20)
            limited = True
            time.sleep(0.25)


def _create(page, base: str, seat2: str = "human", hotseat: bool = False,
            names: tuple[str, str] = ("Anna", "Ben")) -> list[str]:
    page.goto(base + "/")
    page.fill("#name1", names[0])
    page.fill("#name2", names[1])
    page.select_option("#seat2", seat2)
    if hotseat:
        page.check("#hotseat")
    page.click("button[type=submit]")
    playwright.expect(page.locator("h1")).to_have_text("The game is ready")
    return [i.input_value() for i in page.locator("main input[readonly]").all()]


def _expect_my_turn(page) -> None:
    playwright.expect(page.locator(".actions h2")).to_have_text("Your turn", timeout=WAIT)


def _click_move(page, button) -> None:
    """Click a move's button and wait until the table shows the position after it."""
    n = int(page.locator("#table").get_attribute("data-n"))
    button.click()
    # (at least n + 1: a bot may have answered before the table came back)
    page.wait_for_function(
        f"() => Number(document.getElementById('table')?.dataset.n) > {n}", timeout=WAIT
    )


def _play_turn(page, letter: str) -> None:
    """Click one passenger, a station or an income, then end the turn."""
    _expect_my_turn(page)
    _click_move(page, page.locator(f'button[data-notation^="P{letter} passenger"]').first)
    second = page.locator(
        f'button[data-notation^="P{letter} station"], button[data-notation^="P{letter} income"]'
    ).first
    _click_move(page, second)
    _click_move(page, page.locator("button.end-turn"))


def _no_hand(page) -> None:
    assert page.locator(".hand-cards").count() == 0
    assert "Your hand" not in page.content()


def test_two_browsers_play_a_spectator_watches_and_a_hotseat_passes(
    browser, live_server: str, shots: Path
) -> None:
    anna_ctx = browser.new_context(viewport=DESKTOP)
    ben_ctx = browser.new_context(viewport=DESKTOP)
    watch_ctx = browser.new_context(viewport=DESKTOP)
    anna, ben, watcher = anna_ctx.new_page(), ben_ctx.new_page(), watch_ctx.new_page()
    anna_link, ben_link, spectate = _create(anna, live_server)
    anna.goto(anna_link)
    ben.goto(ben_link)
    watcher.goto(spectate)
    _no_hand(watcher)
    playwright.expect(watcher.locator(".actions.waiting")).to_contain_text("Waiting for Anna")
    playwright.expect(ben.locator(".actions.waiting")).to_contain_text("Waiting for Anna")

    # Anna: a passenger, then a reload in the middle of the turn, then the rest.
    _expect_my_turn(anna)
    _click_move(anna, anna.locator('button[data-notation^="P1 passenger"]').first)
    placed = anna.locator(".log li").first.inner_text()
    assert placed.startswith("Anna: passenger")
    row = placed.split(",")[-1].strip()  # e.g. "green row 1/4"
    anna.reload()
    playwright.expect(anna.locator(".log li").first).to_contain_text(row)
    playwright.expect(anna.locator(".log li.log-passenger")).to_have_count(1)
    # Take it back (the undo policy allows it: nothing revealed, nobody else acted), redo.
    anna.locator(".undo button").click()
    playwright.expect(anna.locator(".log li").first).to_contain_text("Anna takes back 1 move")
    playwright.expect(anna.locator("button.end-turn")).to_have_count(0)
    _click_move(anna, anna.locator('button[data-notation^="P1 passenger"]').first)
    _click_move(anna, anna.locator("button.end-turn"))

    # Ben and the spectator see it live (WebSocket); then they alternate.
    playwright.expect(watcher.locator(".log li.log-passenger").first).to_contain_text("Anna")
    _no_hand(watcher)
    _play_turn(ben, "2")
    _play_turn(anna, "1")
    _play_turn(ben, "2")
    _expect_my_turn(anna)
    playwright.expect(watcher.locator(".status .turn-info")).to_contain_text("turn 5")
    _no_hand(watcher)
    assert watcher.locator("button[data-notation]").count() == 0

    # The lobbies list the game: Anna created it, Ben opened his link; it is Anna's turn.
    anna.goto(live_server + "/")
    mine = anna.locator("#my-games li.your-turn")
    playwright.expect(mine).to_have_count(1)
    playwright.expect(mine).to_contain_text("Anna vs Ben")
    ben.goto(live_server + "/")
    playwright.expect(ben.locator("#my-games li.waiting")).to_contain_text("Anna vs Ben")
    # A past position from the spectator's page: no hand there either.
    watcher.fill("form.history input[name=at]", "2")
    watcher.locator("form.history button").click()
    playwright.expect(watcher.locator(".history-nav")).to_contain_text("after move 2 of")
    _no_hand(watcher)

    # At one screen: the hand is hidden between the turns.
    (hotseat,) = _create(anna, live_server, hotseat=True, names=("Clara", "Dora"))[:1]
    anna.goto(hotseat)
    playwright.expect(anna.locator(".pass-card h1")).to_have_text("Pass the device to Clara")
    _no_hand(anna)
    anna.locator(".pass-card a").click()
    _play_turn(anna, "1")
    playwright.expect(anna.locator(".pass-card h1")).to_have_text("Pass the device to Dora")
    _no_hand(anna)
    anna.reload()
    playwright.expect(anna.locator(".pass-card h1")).to_have_text("Pass the device to Dora")
    anna.locator(".pass-card a").click()
    _expect_my_turn(anna)
    assert anna.locator('button[data-notation^="P2 "]').count() > 0
    for ctx in (anna_ctx, ben_ctx, watch_ctx):
        ctx.close()


def test_phone_game_against_the_computer(browser, live_server: str, shots: Path) -> None:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    anna_link = _create(page, live_server, seat2="bot:rule")[0]
    page.goto(anna_link)
    _play_turn(page, "1")
    _expect_my_turn(page)  # the bot moved in the background; the page updated itself
    assert page.title().startswith("● Your turn")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # A game further on, for the pictures: advance through the API, then click a passenger.
    gid = anna_link.split("/g/")[1].split("?")[0]
    token = anna_link.split("token=")[1]
    state = _advance(live_server, gid, token, turns=10)
    page.reload()
    _expect_my_turn(page)
    rows = state["view"]["rows"]
    passengers = page.locator('button[data-notation^="P1 passenger"]')
    best = min(range(passengers.count()),
               key=lambda i: len(rows[passengers.nth(i).get_attribute("data-notation")[-1]]))
    _click_move(page, passengers.nth(best))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "table-phone.png"))
    page.locator(".player.mine").evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(shots / "table-phone-moves.png"))
    desktop = browser.new_context(viewport=DESKTOP).new_page()
    desktop.goto(anna_link)
    playwright.expect(desktop.locator("button.end-turn")).to_be_visible()
    desktop.screenshot(path=str(shots / "table-desktop.png"))
    german = browser.new_context(viewport=DESKTOP, locale="de-DE").new_page()
    german.goto(anna_link.split("?")[0] + "?lang=de")
    playwright.expect(german.locator(".actions.waiting")).to_contain_text("Du schaust")
    # To the end (T-R-4): the result, the score pad, and the record to download.
    final = _advance(live_server, gid, token, turns=10_000)
    page.reload()
    playwright.expect(page.locator(".result h1")).to_contain_text(
        re.compile(r"wins, \d+ to \d+|A draw")
    )
    assert page.locator(".pad tfoot td").all_inner_texts() == [
        str(x) for x in final["view"]["scores"]
    ]
    with page.expect_download() as download:
        page.locator(".result a[download]").click()
    assert download.value.suggested_filename == f"trambahn-{gid}.json"
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "trambahn" and len(record["actions"]) == final["n"]
    ctx.close()
