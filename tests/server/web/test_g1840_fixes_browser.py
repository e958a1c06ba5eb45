"""Wrong labels, console errors and language leftovers of the 1840 table, in a real browser
(issue 23, items 5, 12 and 14), on a Line Round turn of a rule-bot game:

- item 14: the first stop clicked for a claimed route asks the server nothing (a route joins
  two stops at least, IX.7): no 422 and no console error;
- item 5: a tile preview that fails leaves the map showing the board as it is, never the
  tile of an earlier preview; a lay's change of the best run is printed once;
- item 12: the map's heading and legend are in the page's language (German here).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402

pytestmark = needs_chromium


def _line_turn(game: BotGame) -> list[str]:
    """Plays until a line may lay a tile on a hex with two rotations or more and run."""
    while not game.over:
        legal = game.legal()
        verbs = {a.split()[1] for a in legal}
        hexes = [a.split()[2] for a in legal if a.split()[1] == "lay"]
        if {"lay", "run"} <= verbs and any(hexes.count(h) > 1 for h in hexes):
            return legal
        game.step()
    raise AssertionError("no line turn with lays and a run")


def _open_hex(page, coord: str) -> None:
    page.locator(f'button.hex-link[data-hex="{coord}"]').first.click()
    page.wait_for_selector("#hex-panel:not([hidden])")


def test_line_turn_leftovers(browser, fast_server: str) -> None:
    game = BotGame(fast_server, seed=5)
    legal = _line_turn(game)
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)  # the test's own waits
    errors: list[str] = []
    refused: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    page.goto(game.url(lang="de"))
    page.wait_for_selector('#map svg[data-ready="1"]')

    # item 12: the heading and the legend in German
    texts = page.locator("#map svg text").evaluate_all("ts => ts.map(t => t.textContent)")
    assert "1840 Wiener Straßenbahnen — Hauptkarte" in texts
    assert "Phase" in texts and "phase" not in texts
    assert not any("main map" in t for t in texts)

    # item 14: one stop clicked, nothing asked yet
    busy = {a.split()[2].split(".")[0] for a in legal if a.split()[1] in
            ("lay", "station", "remove")}
    stops = page.locator("#map g.stop").evaluate_all("gs => gs.map(g => g.dataset.stop)")
    stop = next(x for x in stops if x.split(".")[0] not in busy)
    page.click('button[data-zoom="0"]')  # the whole map: the stop is in sight
    box = page.locator(f'#map g.stop[data-stop="{stop}"]').bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector('#claim[data-state="incomplete"]')
    page.wait_for_timeout(300)
    assert [u for u in refused if "/route" in u] == []
    assert errors == []

    # item 5: a failed preview shows no tile of an earlier one
    lays = [a for a in legal if a.split()[1] == "lay"]
    coord = next(h for h in (a.split()[2] for a in lays) if
                 sum(1 for a in lays if a.split()[2] == h) > 1)
    _open_hex(page, coord)
    buttons = page.locator("#hex-options button.rotation")
    first, second = buttons.nth(0), buttons.nth(1)
    first.click()
    page.wait_for_selector("#map svg[data-preview]")
    assert page.locator("#map svg").get_attribute("data-preview") == \
        first.get_attribute("data-notation")
    page.route("**/board?lay=*", lambda route: route.fulfill(status=503, body="busy"))
    second.click()
    page.wait_for_function(
        "n => document.querySelector('#hex-confirm button[name=action]').value === n",
        arg=second.get_attribute("data-notation"))
    page.wait_for_timeout(300)
    assert page.locator("#map svg[data-preview]").count() == 0
    page.unroute("**/board?lay=*")
    # each rotation's change of the best run is printed once
    for text in buttons.evaluate_all("bs => bs.map(b => b.textContent)"):
        assert text.count("(") <= 1, text
    page.close()
