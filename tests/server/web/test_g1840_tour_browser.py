"""A whole 4-player 1840 game by rule bots, watched in a real browser at 1280 and 1920 pixels
and on a phone, in English and German (issue 23, items 9, 11 and 13); with
``TRAMWAYS_SCREENSHOT_DIR=docs`` its pictures are the README's.

- item 11: at 1920 px the map fills the height it is given and the share chart is whole; at
  1280 px the players table is not clipped in German, Spanish or Russian; a phone page never
  scrolls sideways;
- item 9: the whole log by round, each round a heading, and its filter;
- item 13: after the game, the share-price chart has a line per tram and Stadtbahn company;
- item 10: the game statistics, per company and Company Round;
- item 8: the tile manifest (what is left of each tile, what it upgrades to).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402

pytestmark = needs_chromium
WIDE = {"width": 1920, "height": 1080}


def _not_clipped(page, selector: str) -> bool:
    return bool(page.locator(selector).evaluate("e => e.scrollWidth <= e.clientWidth + 1"))


def _line_round_views(page, game: BotGame, shots: Path) -> None:
    """The table in a Line Round with a run, as the regulars' wide and narrow screens see it."""
    page.set_viewport_size(WIDE)
    page.goto(game.url(lang="de"))
    page.wait_for_selector('#map svg[data-ready="1"]')
    assert page.locator("#map").bounding_box()["height"] >= 700
    assert _not_clipped(page, ".market-1840 .chart-scroll")
    page.screenshot(path=str(shots / "g1840-1920-de.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    for lang in ("de", "es", "ru"):
        page.goto(game.url(lang=lang))
        assert _not_clipped(page, ".players-1840"), lang
    page.goto(game.url(lang="en"))
    page.screenshot(path=str(shots / "g1840-1280-en.png"), full_page=True)


def _phone_views(browser, game: BotGame, shots: Path) -> None:
    page = browser.new_page(viewport=PHONE, has_touch=True)
    for lang in ("en", "de"):
        page.goto(game.url(lang=lang))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.screenshot(path=str(shots / f"g1840-phone-{lang}.png"))
    page.close()


def _log_by_round(page, game: BotGame) -> None:
    rounds = page.locator("#log-rounds details.log-round")
    names = rounds.evaluate_all("ds => ds.map(d => d.dataset.round)")
    assert len(names) > 3 and names[0] == game.session.state.view(None).round_info.name
    total = page.locator("#log-rounds li").count()
    assert total == len(game.session.log)  # the whole log, not the last lines
    page.fill("#log-filter", "WT")
    shown = page.locator("#log-rounds li:not([hidden])").evaluate_all(
        "ls => ls.map(l => l.textContent)")
    assert shown and all("wt" in line.lower() for line in shown)
    assert len(shown) < total


def _statistics(page, game: BotGame) -> None:
    """Item 10: per company and Company Round, the revenue, dividend and price after, as the
    log says them (each checked against the engine in test_g1840_pages)."""
    from tramways.g1840.view_types import as_view1840
    from tramways.server.web.g1840_stats import statistics

    stats = statistics(game.session.log, as_view1840(game.session.state.view(None)))
    assert stats.rounds == [f"CR{i}" for i in range(1, 7)]
    for cid, cells in {**stats.companies, **stats.stadtbahn}.items():
        row = page.locator(f'#stats-table tr[data-company="{cid}"]')
        shown = row.locator("td").evaluate_all("ts => ts.map(t => t.textContent)")
        want = [str(v) if v is not None else "" for c in cells
                for v in (c.revenue, c.paid, c.price)]
        assert shown[:len(want)] == want, cid


def _tile_manifest(page, game: BotGame) -> None:
    """Item 8: the tile supply as a manifest, what is left of each and what it upgrades to."""
    from tramways.g1840.analysis import board_from_view
    from tramways.g1840.data import initial_supply

    board = board_from_view(game.session.state.view(None))
    page.click("details.tiles summary")
    rows = page.locator("#tile-manifest tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.tile, r.querySelector('.left').textContent])")
    total = initial_supply(board.ruleset)
    assert {key: left for key, left in rows} == {
        key: f"{board.supply.get(key, 0)}/{count}" for key, count in total.items()}
    assert any(left.split("/")[0] != left.split("/")[1] for _k, left in rows)  # tiles laid


def test_a_whole_bot_game_at_three_sizes_in_two_languages(browser, fast_server: str,
                                                           shots: Path) -> None:
    game = BotGame(fast_server, seed=3)
    page = browser.new_page(viewport=DESKTOP)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    viewed = False
    while not game.over:
        legal = game.legal()
        if not viewed and game.session.state.view(None).round_info.name == "LR2a" and any(
                a.split()[1] == "run" for a in legal):
            _line_round_views(page, game, shots)
            _phone_views(browser, game, shots)
            _log_by_round(page, game)
            viewed = True
        game.step()
    assert viewed
    page.set_viewport_size(DESKTOP)
    page.goto(game.url(seat=0, lang="en"))
    view = game.session.state.view(None)
    assert page.locator("#chart-prices polyline.series").count() == (
        len(view.companies) + len(view.stadtbahn))
    _statistics(page, game)
    _tile_manifest(page, game)
    page.screenshot(path=str(shots / "g1840-end-1280-en.png"), full_page=True)
    page.close()
    assert failures == []
