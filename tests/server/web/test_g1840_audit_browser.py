"""Issue 23's done-when for items 2-5 and 12-14, checked on whole pages over a whole game, in
a real browser (docs/g1840.md, "Issue 23: item -> test"):

- item 2: the line bid's prompt names the line and its home ("GW: bid on -" before);
- item 5: a marker removal's button names the Stadtbahn company owning the marker;
- item 12: the Stadtbahn bonus prompt in the page's language;
- item 4: no button, list entry, summary or submit of *any* part of an 1840 page (the moves,
  the tables, the map's tools, the history, the log's tools) reads as engine notation
  (:func:`tests.server.web.g1840_controls_check.is_notation`), at every new kind of decision
  of a whole rule-bot game (seed 7), for the seat to act and for a spectator, in the four
  languages in turn, and on the finished game;
- item 3: every control of those pages showing a price (``data-price``) or proceeds
  (``data-gets``) is played on a copy of the engine's position and the purses compared, over
  the whole game;
- items 5, 12 and 13 on the finished game's page: the log in the page's language (no line
  as the engine wrote it in de/ru/es; no "a orange tram" in English), the share-price chart
  with every tram and Stadtbahn company on an axis with round steps;
- item 14: the lobby, the new-game form's reply, a seat's page and a spectator's page name
  the icon, the icon is served, and no request of theirs fails (no 404, no 422) and nothing is
  logged as an error in the console.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_controls_check import check_price, is_notation  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402
from tramways.g1840.entities import entities  # noqa: E402
from tramways.g1840.view_types import LineAuctionView  # noqa: E402
from tramways.server.web.g1840_log import log_line  # noqa: E402

pytestmark = needs_chromium
LANGS = ("en", "de", "ru", "es")
LABELS = ("button, option, summary, input[type=submit], input[type=button], [role=button],"
          " .group-label")


def _labels(page) -> list[str]:
    return page.locator(LABELS).evaluate_all(
        "es => es.map(e => (e.tagName === 'INPUT' ? e.value : e.textContent) || '')")


def _check_whole_page(page, game: BotGame) -> tuple[int, int]:
    """No label of the page is notation; every priced control charges what it shows.
    Returns (labels read, prices checked)."""
    labels = _labels(page)
    for text in labels:
        assert not is_notation(text), text
    priced = page.locator("[data-price], [data-gets]").evaluate_all(
        "es => es.map(e => [e.value || e.dataset.notation || '', e.dataset.price ?? null,"
        " e.dataset.gets ?? null])")
    checked = 0
    for notation, price, gets in priced:
        if not notation or len(notation.split()) < 2:
            continue  # a composed control (the private purchase): tested in its own test
        check_price(game.session.state, game.session.game, notation,
                    int(price) if price else None, int(gets) if gets else None)
        checked += 1
    return len(labels), checked


def _line_bid_names_line_and_home(page, game: BotGame, auction: LineAuctionView) -> None:
    """Item 2: the line bid's prompt names the auctioned line and its home (it read
    "GW: bid on -")."""
    page.goto(game.url(lang="en"))
    card = entities().lines[auction.line]
    prompt = page.locator("#table .actions .choice-bid form.pick label").first.evaluate(
        "l => l.firstChild.textContent.trim()")
    assert prompt == (f"{auction.turn}: bid for line {auction.line} "
                      f"(home {card.home_hex} {card.home_name})"), prompt


def _removal_names_the_stadtbahn_owner(page, game: BotGame, removals: list[str]) -> int:
    """Item 5, R-LR-5: a removal button names the Stadtbahn company whose marker it removes,
    as the engine's view places it (it named the line sharing the place)."""
    page.goto(game.url(lang="en"))
    view = game.session.state.view(None)
    owners = {place: sid for sid, s in view.stadtbahn.items() for place in s.markers}
    for notation in removals:
        place = notation.split()[2]
        text = page.locator(f'button[value="{notation}"]').first.text_content() or ""
        assert f"Remove {owners[place]}'s marker on {place}" in text, (notation, text)
    return len(removals)


def _bonus_prompt_in_german(page, game: BotGame, bonus: str) -> int:
    """Item 12, R-LR-1: the Stadtbahn bonus prompt in the page's language (it read
    "bonus: lay additional yellow tile" in every language)."""
    from tramways.server.web.i18n import translations

    page.goto(game.url(lang="de"))
    shown = page.locator("#bonus-prompt .group-label").inner_text()
    english = f"Bonus action: {bonus.replace('_', ' ')}"
    assert shown == log_line(english, translations("de").gettext) != english
    assert shown.startswith("Bonusaktion"), shown
    return 1


def _end_page(page, game: BotGame, lang: str) -> None:
    """The finished game's page: the whole log, none of it left in the engine's English in
    another language (item 12: 4% was) and no "a orange tram" in English (item 5); the share
    price chart with a line per tram and Stadtbahn company on a value axis of round steps
    (item 13)."""
    shown = [t.strip() for t in page.locator("#log-rounds li").evaluate_all(
        "ls => ls.map(l => l.textContent)")]
    log = list(game.session.log)
    assert len(shown) == len(log) > 500
    if lang == "en":
        assert not [t for t in shown if re.search(r"\ba (?:yellow|orange|red|pink|purple) tram", t)]
    else:
        assert set(shown) & set(log) == set(), lang
    view = game.session.state.view(None)
    chart = page.locator("#chart-prices")
    names = chart.locator("polyline.series").evaluate_all("ps => ps.map(p => p.dataset.name)")
    assert sorted(names) == sorted([*view.companies, *view.stadtbahn])
    assert chart.locator("line.tick").count() >= 4


def test_no_label_of_any_1840_page_is_notation_and_every_price_is_charged(
        browser, fast_server: str) -> None:
    game = BotGame(fast_server, seed=7)
    page = browser.new_page(viewport=DESKTOP)
    signatures: set[tuple[str, ...]] = set()
    totals = {"pages": 0, "labels": 0, "prices": 0, "removals": 0, "bonus": 0}
    line_bid_read = False
    while not game.over:
        legal = game.legal()
        auction = game.session.state.view(None).round_info.auction
        if not line_bid_read and isinstance(auction, LineAuctionView) and any(
                a.split()[1] == "bid" for a in legal):
            _line_bid_names_line_and_home(page, game, auction)
            line_bid_read = True
        turn = game.session.state.view(None).round_info.line_turn
        if turn is not None and turn.bonus and not totals["bonus"]:
            totals["bonus"] += _bonus_prompt_in_german(page, game, turn.bonus)
        removals = [a for a in legal if a.split()[1] == "remove"]
        if removals and totals["removals"] < 3:
            totals["removals"] += _removal_names_the_stadtbahn_owner(page, game, removals)
        signature = tuple(sorted({a.split()[1] for a in legal}))
        if signature not in signatures:
            signatures.add(signature)
            lang = LANGS[len(signatures) % len(LANGS)]
            for url in (game.url(lang=lang), f"{fast_server}/g/{game.gid}?lang={lang}"):
                page.goto(url)
                labels, prices = _check_whole_page(page, game)
                totals["pages"] += 1
                totals["labels"] += labels
                totals["prices"] += prices
        game.step()
    for lang in LANGS:
        page.goto(game.url(seat=0, lang=lang))
        assert page.locator("section.result").count() == 1
        _check_whole_page(page, game)
        _end_page(page, game, lang)
    page.close()
    assert line_bid_read
    assert totals["pages"] > 20 and totals["labels"] > 1000 and totals["prices"] > 50, totals


def _watch(page) -> tuple[list[str], list[str]]:
    failed: list[str] = []
    errors: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return failed, errors


def _icon_named_and_served(page, base: str) -> None:
    href = page.locator('head link[rel="icon"]').get_attribute("href")
    assert href == "/static/favicon.svg"
    icon = page.request.get(base + href)
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")


def test_item_14_every_page_has_its_icon_and_no_request_fails(browser,
                                                              fast_server: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    failed, errors = _watch(page)
    page.goto(f"{fast_server}/?lang=de")
    _icon_named_and_served(page, fast_server)
    reply = page.request.post(f"{fast_server}/new1840?lang=de", data=urlencode(
        {"players": "3", "map": "full", "seat1": "human", "seat2": "bot:rule",
         "seat3": "bot:rule"}), headers={"content-type": "application/x-www-form-urlencoded"})
    assert reply.status == 200
    links = [html.unescape(x) for x in re.findall(r'value="(http[^"]+/g/[^"]+)"', reply.text())]
    assert links
    seat_link = links[0]
    gid = seat_link.split("/g/")[1].split("?")[0]
    for url in (seat_link, f"{fast_server}/g/{gid}?lang=ru"):
        page.goto(url)
        page.wait_for_selector('#map svg[data-ready="1"]')
        _icon_named_and_served(page, fast_server)
    page.wait_for_timeout(300)
    page.close()
    assert failed == []
    assert errors == []
