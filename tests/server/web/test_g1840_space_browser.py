"""Space and legibility of the 1840 table in a real browser (issue 23, item 11), on a rule-bot
game (the 1920 px map, the whole share chart, the players table in de/es/ru and the phone page
that never scrolls sideways are checked by ``test_g1840_tour_browser.py``):

- the map's text on a phone (390x844): every label shown is at least 9 px high on the screen,
  at the page's starting view (which shows labels: hex ids, names, revenues) and at the whole
  map (where labels too small to read are hidden, and come back when zoomed in).  9 px is the
  smallest size the platform guidelines let body text go (Apple's smallest caption is 11 pt;
  Material's 11-12 sp): below it a label is a speck, not a word;
- when the turn passes to the player's next line, the map centres on that line's home hex and
  the moves come into view;
- a refusal of the engine is brought into view (it is printed at the top of the table).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402

pytestmark = needs_chromium

MIN_PX = 9

SHOWN_TEXT = """() => {
  const map = document.querySelector('#map').getBoundingClientRect();
  return [...document.querySelectorAll('#map svg text')].map(t => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.width, r.height, r.left, r.top];
  }).filter(([text, w, h, x, y]) => text.trim() && w > 0 && h > 0 && x + w > map.left
    && x < map.right && y + h > map.top && y < map.bottom);
}"""


def _line_round(game: BotGame) -> None:
    while not game.over:
        if game.session.state.view(None).round_info.type == "LR":
            return
        game.step()
    raise AssertionError("no Line Round")


def test_map_text_on_a_phone_is_legible_at_the_start_and_at_the_whole_map(
        browser, fast_server: str, shots: Path) -> None:
    game = BotGame(fast_server, seed=3)
    _line_round(game)
    page = browser.new_page(viewport=PHONE, has_touch=True)
    page.goto(game.url(lang="de"))
    page.wait_for_selector('#map svg[data-ready="1"]')
    shown = page.evaluate(SHOWN_TEXT)
    small = [(t, round(h, 1)) for t, _w, h, *_ in shown if h < MIN_PX]
    assert small == []
    coords = {t for t, *_ in shown if t[:1].isalpha() and t[1:].isdigit()}
    assert len(coords) >= 6, shown  # hex ids (and names, revenues) are there to be read
    assert len(shown) >= 15
    page.screenshot(path=str(shots / "g1840-phone-map.png"))

    page.click('button[data-zoom="0"]')  # the whole map
    whole = page.evaluate(SHOWN_TEXT)
    assert [(t, round(h, 1)) for t, _w, h, *_ in whole if h < MIN_PX] == []
    assert page.locator("#map svg text.lod-hidden").count() > 300  # hidden, not specks
    for _ in range(3):
        page.click('button[data-zoom="1.25"]')
    closer = page.evaluate(SHOWN_TEXT)
    assert [(t, round(h, 1)) for t, _w, h, *_ in closer if h < MIN_PX] == []
    assert len(closer) > len(whole)  # zooming in brings labels back
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})  # on its side
    page.wait_for_function("() => !document.querySelector('#map svg text.lod-hidden')")
    page.close()


def test_map_text_on_a_desktop_is_drawn_as_before(browser, fast_server: str) -> None:
    """A wide map hides nothing: the whole map at 1280 px shows every label."""
    game = BotGame(fast_server, seed=3)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(game.url())
    page.wait_for_selector('#map svg[data-ready="1"]')
    assert page.locator("#map svg text.lod-hidden").count() == 0
    page.close()


def _turn(game: BotGame) -> tuple[int, int] | None:
    """(seat, line) while a line of that seat's player is on turn in a Line Round (IX.1)."""
    from tramways.g1840.view_types import as_view1840

    line_turn = as_view1840(game.session.state.view(None)).round_info.line_turn
    return None if line_turn is None else (game.seat, int(line_turn.line))


def _at(page, game: BotGame) -> None:
    """Waits until the page shows the game after its last move (the live refresh)."""
    page.wait_for_function("n => document.querySelector('#table')?.dataset.n === n",
                           arg=str(game.n))


IN_VIEW = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight; }"""


def test_ix1_turn_passing_to_the_players_next_line_centres_its_home_and_shows_the_moves(
        browser, fast_server: str) -> None:
    from tramways.g1840.entities import entities

    game = BotGame(fast_server, seed=4)  # a Boris line hands the turn to his next (move 325)
    page = browser.new_page(viewport=PHONE, has_touch=True)
    opened: tuple[int, int] | None = None
    while not game.over:
        now = _turn(game)
        if opened is not None and now is not None and now[0] == opened[0] \
                and now[1] != opened[1]:
            break  # the turn passed to another line of the same player, with the page open
        if now is None or (opened is not None and now[0] != opened[0]):
            opened = None
        if now is not None and opened is None:
            page.goto(game.url(lang="es"))
            page.wait_for_selector('#map svg[data-ready="1"]')
            opened = now
        if opened is not None:
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        game.step()
        if opened is not None:
            _at(page, game)
    assert not game.over and now is not None
    page.wait_for_timeout(300)
    home = entities().lines[now[1]].home_hex
    assert page.locator("#map").get_attribute("data-turn-line") == str(now[1])
    hexagon = page.locator(f'#map polygon.hex[data-coord="{home}"]').bounding_box()
    frame = page.locator("#map").bounding_box()
    assert hexagon is not None and frame is not None
    dx = hexagon["x"] + hexagon["width"] / 2 - (frame["x"] + frame["width"] / 2)
    dy = hexagon["y"] + hexagon["height"] / 2 - (frame["y"] + frame["height"] / 2)
    assert abs(dx) < hexagon["width"] and abs(dy) < hexagon["height"], (home, dx, dy)
    assert page.evaluate(IN_VIEW, ".side-1840 .actions")
    page.close()


def test_refusal_banner_is_brought_into_view(browser, fast_server: str) -> None:
    """A move the engine refuses (here a lay on a hex it does not allow) is answered at the
    top of the table; the page scrolls to it from the moves below the fold."""
    game = BotGame(fast_server, seed=3)
    while not game.over and not any(a.split()[1] == "lay" for a in game.legal()):
        game.step()
    page = browser.new_page(viewport=PHONE, has_touch=True)
    page.goto(game.url(lang="de"))
    page.wait_for_selector('#map svg[data-ready="1"]')
    line = next(a for a in game.legal() if a.split()[1] == "lay").split()[0]
    button = page.locator("#hex-confirm button[name=action]")
    button.evaluate("(b, n) => { b.value = n; b.closest('#hex-confirm').hidden = false;"
                    " b.closest('#hex-panel').hidden = false; }", f"{line} lay A1 3 r0")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not page.evaluate(IN_VIEW, "#table > .status-1840")  # the top is out of sight
    button.evaluate("b => b.click()")
    page.wait_for_selector("#table > .error")
    page.wait_for_timeout(300)
    assert page.evaluate(IN_VIEW, "#table > .error")
    assert "A1" in page.locator("#table > .error").inner_text()
    page.close()
