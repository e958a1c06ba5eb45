"""Issue 23, items 7 and 12, in a real browser (Debian chromium).

- Item 7: the Pre-Share auction is in the *public* view (``view(None)``), so a spectator's page
  (no seat token) shows the private being auctioned with its high bid, as a seat's page does.
- Item 12: a 1840 game created from the German lobby with no names typed names its seats in
  German ("Spieler 2"), and the created page speaks of 1840's spectators (everything is
  public), not of Trambahn's hidden hands.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_drive import BotGame  # noqa: E402

pytestmark = needs_chromium


def test_item_7_a_spectator_sees_the_pre_share_auction(browser, fast_server: str) -> None:
    game = BotGame(fast_server, seed=11)
    page = browser.new_page(viewport=DESKTOP)
    seen = False
    while not game.over and not seen:
        view = game.session.state.view(None)
        auction = view.round_info.auction
        if view.round_info.type != "PRE":
            break
        if getattr(auction, "private", None):
            page.goto(f"{fast_server}/g/{game.gid}?lang=en")  # no token: a spectator
            card = page.locator(
                f'#auction-privates .private-card[data-private="{auction.private}"]')
            assert "bidding" in (card.get_attribute("class") or "")
            assert card.locator(".card-bid").inner_text() == f"High bid: {auction.high}"
            seen = True
        else:
            game.step()
    page.close()
    assert seen, "no Pre-Share auction was reached"


def test_item_12_names_and_created_page_in_german(browser, fast_server: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{fast_server}/?lang=de")
    form = page.locator("#create-1840")
    form.locator('select[name="players"]').select_option("3")
    form.locator('select[name="seat2"]').select_option("human")
    form.locator('button[type="submit"]').click()
    page.wait_for_load_state()
    text = page.inner_text("body")
    assert "in 1840 ist alles öffentlich" in text
    assert "without seeing a hand" not in text and "ohne eine Hand" not in text
    first_seat = page.locator('input[value*="/g/"]').first.get_attribute("value")
    assert first_seat is not None
    page.goto(first_seat if "lang=" in first_seat else first_seat + "&lang=de")
    page.wait_for_selector('#map svg[data-ready="1"]')
    body = page.inner_text("body")
    for name in ("Spieler 1", "Spieler 2", "Spieler 3"):
        assert name in body
    assert "Player 2" not in body
    page.close()
