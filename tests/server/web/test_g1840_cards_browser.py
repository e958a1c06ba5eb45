"""The privates and the lines as cards, in a real browser (issue 23, items 1 and 2).

- IV.2, Table 4: in the Pre-Share Round's auction and beside the players table, a card per
  private of the game with its face value, dividend, landmark hex, owner and ability; the
  private being bid on is marked with the high bid; hovering a card highlights its landmark
  on the map.
- IV.3, VIII.6: when a company may open or bid in a line auction, the lines it may bid for
  are cards with their number, home hex and place; the companies' lines and the lines on
  display name their home hex; hovering one highlights the home on the map.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402
from tramways.g1840.entities import entities  # noqa: E402
from tramways.g1840.routes import LANDMARK_BONUS  # noqa: E402

pytestmark = needs_chromium


def _hover_highlights(page, selector: str, coord: str) -> None:
    page.locator(selector).first.hover()
    page.wait_for_selector(f'#map polygon.hex.hover-hex[data-coord="{coord}"]')
    assert page.locator("#map polygon.hex.hover-hex").count() == 1
    page.mouse.move(1, 1)
    assert page.locator("#map polygon.hex.hover-hex").count() == 0


def _check_private_cards(page, holder: str, view) -> None:
    ent = entities()
    cards = page.locator(f"{holder} .private-card")
    assert cards.count() == len(view.privates)
    for i in range(cards.count()):
        card = cards.nth(i)
        p = ent.privates[card.get_attribute("data-private")]
        assert card.locator(".face").inner_text() == str(p.face_value)
        assert card.locator(".dividend").inner_text() == str(p.dividend)
        assert card.locator(".landmark").inner_text() == p.landmark_hex
        assert p.name in card.inner_text()
        # the ability (IV.2): the engine's landmark bonus on a run through the landmark
        assert card.locator(".card-ability").inner_text() == (
            f"+{LANDMARK_BONUS} to a route of its company's lines through {p.landmark_hex}.")
        owner = view.privates[p.id]
        shown = card.locator(".owner").inner_text()
        if isinstance(owner, int):
            assert shown == view.players[owner].name
        elif owner:
            assert shown == owner
        else:
            assert shown == "the bank"


def test_privates_and_lines_are_cards_that_show_their_hex(browser, fast_server: str) -> None:
    game = BotGame(fast_server, seed=11)
    page = browser.new_page(viewport=DESKTOP)
    # the Pre-Share Round: the auction's cards
    page.goto(game.url())
    view = game.session.state.view(None)
    _check_private_cards(page, "#auction-privates", view)
    _check_private_cards(page, "#privates-cards", view)
    first = entities().privates[page.locator("#auction-privates .private-card")
                                .first.get_attribute("data-private")]
    _hover_highlights(page, "#auction-privates .private-card", first.landmark_hex)
    checked = {"bidding": False, "owned": False, "lines": False}
    while not game.over and not all(checked.values()):
        view = game.session.state.view(None)
        auction = view.round_info.auction
        if not checked["bidding"] and getattr(auction, "private", None):
            page.goto(game.url())
            card = page.locator(f'#auction-privates .private-card[data-private="{auction.private}"]')
            assert "bidding" in (card.get_attribute("class") or "")
            assert card.locator(".card-bid").inner_text() == f"High bid: {auction.high}"
            checked["bidding"] = True
        if not checked["owned"] and view.round_info.type == "SR":
            page.goto(game.url())
            _check_private_cards(page, "#privates-cards", view)
            assert page.locator("#auction-privates").count() == 0
            checked["owned"] = True
        legal = game.legal()
        if not checked["lines"] and any(a.split()[1] == "auction" for a in legal):
            page.goto(game.url())
            cards = page.locator("#auction-lines .line-card")
            shown = [int(x) for x in cards.evaluate_all("cs => cs.map(c => c.dataset.line)")]
            assert shown == list(view.line_display)
            for i, number in enumerate(shown):
                card = entities().lines[number]
                assert cards.nth(i).locator(".home-hex").inner_text() == card.home_hex
                assert card.home_name in cards.nth(i).inner_text()
            _hover_highlights(page, "#auction-lines .line-card",
                              entities().lines[shown[0]].home_hex)
            for cid, company in view.companies.items():
                for number in company.lines:
                    chip = page.locator(f'#companies-table tr[data-company="{cid}"] '
                                        f'.line-chip[data-line="{number}"]')
                    assert entities().lines[number].home_hex in chip.inner_text()
            checked["lines"] = True
        game.step()
    page.close()
    assert all(checked.values()), checked
