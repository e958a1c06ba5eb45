"""Tile pictures on the 1840 table, in a real browser (issue 23, item 8), on a Line Round turn
of a rule-bot game:

- the hex panel shows one picture per legal (tile, rotation) of the hex, each the project's
  renderer's drawing of that tile in that rotation (``render_tile_svg``), and clicking one
  previews and then lays exactly that notation (the map's preview is the same lay);
- the tile manifest shows a picture of each tile and of each tile it upgrades to (IX.5).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame, api  # noqa: E402

pytestmark = needs_chromium


def test_ix4_hex_panel_shows_a_picture_per_legal_tile_and_rotation_and_lays_it(
        browser, fast_server: str, shots: Path) -> None:
    from tramways.g1840.render.tile import render_tile_svg

    game = BotGame(fast_server, seed=5)
    coord, lays = game.to_rotation_choice()
    phase = game.session.state.view(None).round_info.phase
    page = browser.new_page(viewport=DESKTOP)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    page.goto(game.url())
    page.wait_for_selector('#map svg[data-ready="1"]')
    page.locator(f'button.hex-link[data-hex="{coord}"]').first.click()
    page.wait_for_selector("#hex-panel:not([hidden])")

    buttons = page.locator("#hex-options button.rotation")
    shown = buttons.evaluate_all("""bs => bs.map(b => {
        const img = b.querySelector('img.tile-pic');
        return [b.dataset.notation, img && img.getAttribute('src'), b.dataset.tile,
                b.dataset.rotation];
    })""")
    assert sorted(n for n, *_ in shown) == sorted(lays)  # one picture per legal lay
    for notation, src, tile, rotation in shown:
        _line, _lay, _hex, want_tile, want_rot = notation.split()
        assert (tile, f"r{rotation}") == (want_tile, want_rot)
        assert src == f"/tiles/1840/{tile}.svg?rotation={rotation}&phase={phase}"
        reply = page.request.get(fast_server + src)
        assert reply.ok and reply.headers["content-type"].startswith("image/svg+xml")
        assert reply.text() == render_tile_svg(tile, int(rotation), phase=phase)
    page.wait_for_function("() => [...document.querySelectorAll('#hex-options img.tile-pic')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")

    chosen = lays[-1]
    page.click(f'#hex-options button[data-notation="{chosen}"] img.tile-pic')
    page.wait_for_selector("#hex-confirm:not([hidden])")
    page.wait_for_selector(f'#map svg[data-preview="{chosen}"]')
    page.screenshot(path=str(shots / "g1840-tiles-desktop.png"))
    confirm = page.locator("#hex-confirm button[name=action]")
    assert confirm.get_attribute("value") == chosen
    _line, _lay, _hex, tile, rotation = chosen.split()
    assert page.locator("#hex-confirm img.lay-pic").get_attribute("src") == \
        f"/tiles/1840/{tile}.svg?rotation={rotation[1:]}&phase={phase}"
    before = page.locator("#table").get_attribute("data-n")
    confirm.click()
    page.wait_for_function("n => document.querySelector('#table').dataset.n !== n", arg=before)
    record = api(fast_server, f"/api/games/{game.gid}/record")
    assert record["actions"][-1] == chosen  # exactly the lay whose picture was clicked
    assert failures == []
    page.close()


def test_ix5_tile_manifest_shows_each_tile_and_its_upgrades_as_pictures(
        browser, fast_server: str) -> None:
    from tramways.g1840.analysis import board_from_view
    from tramways.server.web.g1840_cards import tile_manifest

    game = BotGame(fast_server, seed=5)
    board = board_from_view(game.session.state.view(None))
    rows = tile_manifest(board)
    page = browser.new_page(viewport=DESKTOP)
    page.goto(game.url())
    page.click("details.tiles summary")
    for row in rows:
        tr = page.locator(f'#tile-manifest tr[data-tile="{row.key}"]')
        own = tr.locator("th img.tile-pic").evaluate_all("is => is.map(i => i.getAttribute('src'))")
        assert [s.split("?")[0] for s in own] == [f"/tiles/1840/{t}.svg" for t in row.tiles]
        ups = tr.locator("td.upgrades .upgrade").evaluate_all(
            "us => us.map(u => [u.dataset.tile, u.querySelector('img').getAttribute('src')])")
        assert [k for k, _ in ups] == list(row.upgrades)
        assert [s.split("?")[0] for _, s in ups] == [f"/tiles/1840/{t}.svg"
                                                      for t in row.upgrade_tiles]
    assert rows and any(row.upgrades for row in rows)
    page.locator('#tile-manifest tr[data-tile="3"] img.tile-pic').first.scroll_into_view_if_needed()
    page.wait_for_function("() => { const i = document.querySelector("
                           "'#tile-manifest tr[data-tile=\"3\"] img.tile-pic');"
                           " return i.complete && i.naturalWidth > 0; }")
    page.close()


def test_ix4_hex_panel_pictures_fit_a_phone(browser, fast_server: str, shots: Path) -> None:
    """On a phone (390x844) the panel's pictures wrap: none is cut, the page never scrolls
    sideways."""
    game = BotGame(fast_server, seed=5)
    coord, lays = game.to_rotation_choice()
    page = browser.new_page(viewport=PHONE, has_touch=True)
    page.goto(game.url(lang="ru"))
    page.wait_for_selector('#map svg[data-ready="1"]')
    page.locator(f'button.hex-link[data-hex="{coord}"]').first.click()
    page.wait_for_selector("#hex-panel:not([hidden])")
    boxes = page.locator("#hex-options img.tile-pic").evaluate_all(
        "is => is.map(i => { const r = i.getBoundingClientRect(); return [r.left, r.right]; })")
    assert len(boxes) == len(lays)
    assert all(left >= 0 and right <= PHONE["width"] for left, right in boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("#hex-options button.rotation").first.click()
    page.wait_for_selector("#hex-confirm:not([hidden])")
    page.screenshot(path=str(shots / "g1840-tiles-phone-ru.png"))
    page.close()
