"""The 1840 map's hex panel across a live refresh, in a real browser, on a Line Round turn of
a rule-bot game.

``table.js`` swaps the whole table in when the WebSocket announces a newer revision of the
game (a seat's change, a clock, a move elsewhere); the hex panel lives in the table, so such a
refresh closed the panel while the person was choosing a tile.  Now:

- a refresh whose table still offers lays at the hex to the same line opens the panel again
  for that hex, with its tile options, without moving the map or the page; a rotation picked
  before it is picked again (its preview on the new board, the confirm button), and the
  options alone come back when the new table no longer offers that rotation;
- the answer to the person's own move closes the panel as before, even when its table still
  offers lays at the hex;
- a refresh after which the turn is another line's leaves the panel closed.

The refresh is the page's own: a WebSocket message announcing a newer revision makes
``table.js`` fetch the table fragment, whose ``data-rev`` the test raises on its way (the
position itself does not move; a real newer revision needs a move, which would change the
lays).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame, api  # noqa: E402

pytestmark = needs_chromium

# The page's WebSockets, kept where the test can reach them (table.js is a module: its socket
# is no global), so that a message of the server can be played to it.
KEEP_SOCKETS = """
window.testSockets = [];
const Plain = window.WebSocket;
window.WebSocket = class extends Plain {
  constructor(...args) { super(...args); window.testSockets.push(this); }
};
"""

# What the test looks at: the panel, its hex, its options, the confirm button, the map's view
# and the page's scroll.
LOOK = """() => ({
  open: !document.querySelector('#hex-panel').hidden,
  title: document.querySelector('#hex-title').textContent,
  options: [...document.querySelectorAll('#hex-options button.rotation')]
    .map(b => b.dataset.notation).sort(),
  confirm: !document.querySelector('#hex-confirm').hidden,
  preview: document.querySelector('#map svg[data-preview]') !== null,
  viewBox: document.querySelector('#map svg').getAttribute('viewBox'),
  scroll: [window.scrollX, window.scrollY],
})"""


class Refresher:
    """Plays the server's "newer revision" to the page: the table fragment the page then
    fetches comes back with ``data-rev`` raised to it (and, if asked, another line's turn, or
    the map's lays without the one whose notation is ``drop``)."""

    def __init__(self, page, gid: str) -> None:
        self.page = page
        self.rev = int(page.locator("#table").get_attribute("data-rev") or "0")
        self.turn_line: str | None = None
        self.drop: str | None = None
        page.route(re.compile(rf"/g/{gid}/table\?"), self._answer)

    def _without(self, match: re.Match[str]) -> str:
        lays = json.loads(html.unescape(match.group(1)))
        lays = {hexes: [o for o in options if o["notation"] != self.drop]
                for hexes, options in lays.items()}
        return f'data-lays="{html.escape(json.dumps(lays), quote=True)}"'

    def _answer(self, route) -> None:
        body = route.fetch().text()
        body = re.sub(r'(<div id="table"[^>]*? data-rev=")\d+"', rf'\g<1>{self.rev}"', body,
                      count=1)
        if self.drop is not None:
            assert 'data-lays="' in body
            body = re.sub(r'data-lays="([^"]*)"', self._without, body, count=1)
        if self.turn_line is not None:
            body = re.sub(r'data-turn-line="[^"]*"', f'data-turn-line="{self.turn_line}"', body,
                          count=1)
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=body)

    def __call__(self) -> None:
        self.rev += 1
        self.page.evaluate("rev => window.testSockets.at(-1).dispatchEvent(new MessageEvent("
                           "'message', { data: JSON.stringify({ rev }) }))", self.rev)
        self.page.wait_for_selector(f'#table[data-rev="{self.rev}"][data-swap="refresh"]')
        self.page.wait_for_selector('#map svg[data-ready="1"]')


def _open_hex(page, coord: str) -> None:
    page.locator(f'button.hex-link[data-hex="{coord}"]').first.click()
    page.wait_for_selector("#hex-panel:not([hidden])")
    page.wait_for_selector("#hex-options button.rotation")


def test_refresh_keeps_the_hex_panel_open_and_own_move_closes_it(
        browser, fast_server: str, shots: Path) -> None:
    game = BotGame(fast_server, seed=5)
    coord, lays = game.to_rotation_choice()
    lays = sorted(lays)
    page = browser.new_page(viewport=DESKTOP)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    page.add_init_script(KEEP_SOCKETS)
    page.goto(game.url())
    page.wait_for_selector('#map svg[data-ready="1"]')
    page.wait_for_function("() => window.testSockets.at(-1)?.readyState === WebSocket.OPEN")
    refresh = Refresher(page, game.gid)

    # the panel open for the hex, the whole map shown and the page scrolled to its foot (the
    # panel out of sight above), then a refresh: open again, same hex, same options, the map and the
    # page where the person left them (no recentring on the hex, no scrolling to the panel)
    _open_hex(page, coord)
    page.click('button[data-zoom="0"]')
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    before = page.evaluate(LOOK)
    assert page.locator("#hex-panel").evaluate("p => p.getBoundingClientRect().bottom < 0")
    assert before["open"] and before["title"] == coord and before["options"] == lays
    refresh()
    after = page.evaluate(LOOK)
    assert after == before
    page.locator("#hex-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "g1840-panel-after-refresh.png"))

    # a rotation picked (its preview, the confirm button), then a refresh: the same rotation
    # picked again on the new table, its preview and the confirm button back
    picked = page.locator("#hex-options button.rotation").nth(1)
    notation = picked.get_attribute("data-notation")
    picked.click()
    page.wait_for_selector(f'#map svg[data-preview="{notation}"]')
    before = page.evaluate(LOOK)
    refresh()
    page.wait_for_selector(f'#map svg[data-preview="{notation}"]')
    after = page.evaluate(LOOK)
    assert after == before
    assert (after["open"], after["title"], after["options"]) == (True, coord, lays)
    assert (after["confirm"], after["preview"]) == (True, True)
    assert page.locator("#hex-options button.rotation.chosen").get_attribute(
        "data-notation") == notation
    assert page.locator("#hex-confirm button[name=action]").get_attribute("value") == notation
    page.screenshot(path=str(shots / "g1840-panel-pick-after-refresh.png"))

    # a rotation picked that the new table no longer offers: the hex's options alone, no
    # preview and no confirm button (the new table's lays leave that rotation out)
    refresh.drop = notation
    refresh()
    after = page.evaluate(LOOK)
    assert (after["open"], after["title"]) == (True, coord)
    assert after["options"] == [n for n in lays if n != notation]
    assert (after["confirm"], after["preview"]) == (False, False)

    # the answer to the person's own move closes it, though its table still offers the hex
    # (the move is answered here with the table as it is, as a refused move's answer would be)
    q = page.locator("#table").get_attribute("data-q")
    as_it_is = page.request.get(f"{fast_server}/g/{game.gid}/table?{q}").text()
    page.route(re.compile(rf"/g/{game.gid}/move$"), lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8", body=as_it_is))
    page.locator("#hex-options button.rotation").first.click()
    page.wait_for_selector("#hex-confirm:not([hidden])")
    page.locator("#hex-confirm button[name=action]").click()
    page.wait_for_selector('#table[data-swap="answer"]')
    page.wait_for_selector('#map svg[data-ready="1"]')
    after = page.evaluate(LOOK)
    assert after["open"] is False
    assert page.locator(f'button.hex-link[data-hex="{coord}"]').count() >= 1
    assert len(api(fast_server, f"/api/games/{game.gid}/record")["actions"]) == game.n

    # a refresh after which the turn is no longer the line's leaves the panel closed
    _open_hex(page, coord)
    refresh.turn_line = ""
    refresh()
    assert page.evaluate(LOOK)["open"] is False
    assert failures == []
    page.close()
