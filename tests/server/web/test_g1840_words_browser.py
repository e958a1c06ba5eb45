"""The 1840 controls in a real browser (issue 23, items 3 and 4): words, not notation, and the
price of every click, in the four languages.

Four seats of one game (seed 7) are played by the rule bot through the API; whenever a seat
faces a kind of decision not seen before, its page is opened in chromium in the next of
English, German, Russian and Spanish, and:

- no button, list entry, label or heading of the moves reads as engine notation
  (:func:`tests.server.web.g1840_controls_check.is_notation`);
- every control showing a price (``data-price``) or proceeds (``data-gets``) is played on a
  copy of the engine's position and the purses compared;
- the private purchase of a line's company is one control (a private and a price between 1
  and its face value, IV.2) whose move is the engine's notation;
- scrapping a tram asks first, and nothing is sent when the question is dismissed.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_controls_check import check_price, is_notation  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402

pytestmark = needs_chromium
LANGS = ("en", "de", "ru", "es")
WANTED = {"par", "buy_share", "sell", "tram", "scrap", "arrange", "buy_private", "dividend",
          "bid", "auction", "anytime"}




def _kinds(page) -> set[str]:
    return set(page.locator("#table .actions .choice").evaluate_all(
        "cs => cs.map(c => [...c.classList].find(k => k.startsWith('choice-')).slice(7))"))


def _check_page(page, session, seat: int, legal: list[str]) -> set[str]:
    texts = page.locator(
        "#table .actions button, #table .actions option, #table .actions label,"
        " #table .actions .group-label").evaluate_all("es => es.map(e => e.innerText || e.textContent || '')")
    for text in texts:
        assert not is_notation(text), text
    priced = page.locator("#table [data-price], #table [data-gets]").evaluate_all(
        "es => es.map(e => [e.value || e.dataset.notation, e.dataset.price ?? null,"
        " e.dataset.gets ?? null])")
    for notation, price, gets in priced:
        check_price(session.state, session.game, notation, int(price) if price else None,
                    int(gets) if gets else None)
    kinds = _kinds(page)
    if "buy_private" in kinds:
        _check_private_purchase(page, legal)
    if "scrap" in kinds:
        _check_scrap_asks(page)
    return kinds


def _check_private_purchase(page, legal: list[str]) -> None:
    """IV.2: one control; the move composed from the private and the price is legal."""
    form = page.locator("form.buy-private")
    assert form.count() == 1
    options = form.locator(".private-pick option").evaluate_all(
        "os => os.map(o => [o.value, o.dataset.low, o.dataset.high])")
    private, low, high = options[-1]
    form.locator(".private-pick").select_option(private)
    price = form.locator(".private-price")
    assert price.get_attribute("min") == low and price.get_attribute("max") == high
    price.fill(str(low))
    composed = form.locator("input[name=action]").input_value()
    assert composed.split()[1:] == ["buy", private, str(low)]
    assert composed in legal
    assert len(page.locator("#table button[data-notation*=' buy ']").all()) <= 2


def _check_scrap_asks(page) -> None:
    """VIII.5.3: scrapping asks first; dismissed, nothing is sent."""
    n = page.locator("#table").get_attribute("data-n")
    asked: list[str] = []

    def dismiss(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.locator("#table .choice-scrap details").evaluate_all("ds => ds.forEach(d => d.open = true)")
    page.locator("#table .choice-scrap button[data-confirm]").first.click()
    page.wait_for_timeout(300)
    assert asked and not is_notation(asked[0])
    assert page.locator("#table").get_attribute("data-n") == n


def test_every_kind_of_control_reads_as_words_and_shows_its_price(browser,
                                                                  fast_server: str) -> None:
    live_server = fast_server
    game = BotGame(live_server)
    page = browser.new_page(viewport=DESKTOP)
    seen: set[str] = set()
    signatures: set[tuple[str, ...]] = set()
    while not game.over and not WANTED <= seen:
        legal = game.legal()
        signature = tuple(sorted({a.split()[1] for a in legal}))
        if signature not in signatures:
            signatures.add(signature)
            page.goto(game.url(lang=LANGS[len(signatures) % len(LANGS)]))
            seen |= _check_page(page, game.session, game.seat, legal)
        game.step()
    page.close()
    assert WANTED <= seen, WANTED - seen
