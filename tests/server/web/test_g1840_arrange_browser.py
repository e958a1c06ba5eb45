"""The tram controls in a real browser (issue 23, item 4; VIII.5.3): scrapping and the
reassignment editor.

A rule-bot game (seed 7) is played through the API.  At its first scrap a tram that runs at no
cost (Table 7) below the tram limit is folded away ("1 more tram may be scrapped"); opened and
clicked, the page asks first and, dismissed, sends nothing.  When a company may rearrange its
trams, its director's page shows one list per line (the line's tram now selected) and one
button:

- as loaded (the trams as they run now) the button is disabled and the page says why;
- lines given trams the company cannot give them (one tram on two lines): still disabled,
  with the reason;
- the colours of a legal arrangement: the button sends that arrangement; the company's lines
  then run those trams and the log says it arranged them.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_controls_check import is_notation  # noqa: E402
from tests.server.web.g1840_drive import BotGame, api  # noqa: E402

pytestmark = needs_chromium


def _arrangements(game: BotGame) -> list[str]:
    return [a for a in game.legal() if a.split()[1] == "arrange"]


def _check_folded_scrap(page, game: BotGame, shots) -> None:
    """A yellow tram under a yellow newest runs at no cost: its scrap is folded; it asks."""
    page.goto(game.url(lang="en"))
    box = page.locator("#table .choice-scrap")
    assert box.locator("button[data-confirm]:visible").count() == 0
    more = box.locator("details.scrap-more")
    assert more.get_attribute("open") is None
    assert more.locator("summary").inner_text() == \
        "1 more tram may be scrapped (it costs nothing to keep)"
    more.locator("summary").click()
    box.screenshot(path=str(shots / "g1840-scrap-more.png"))
    button = more.locator("button[data-confirm]")
    assert button.inner_text() == "Scrap one yellow tram (maintenance +0)"
    asked: list[str] = []

    def dismiss(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    n = page.locator("#table").get_attribute("data-n")
    button.click()
    page.wait_for_timeout(300)
    assert asked == ["Scrap this yellow tram? It is lost without compensation."]
    assert page.locator("#table").get_attribute("data-n") == n


def test_viii_5_3_scrapping_folds_and_asks_and_the_reassignment_is_a_list_per_line(
        browser, fast_server: str, shots) -> None:
    game = BotGame(fast_server, seed=7)
    page = browser.new_page(viewport=DESKTOP)
    while not any(a.split()[1] == "scrap" for a in game.legal()):
        game.step()
    scraps = [a for a in game.legal() if a.split()[1] == "scrap"]
    view = game.session.state.view(None)
    owner = view.companies[scraps[0].split()[0]]
    assert [a.split()[1:] for a in scraps] == [["scrap", "yellow"]]
    assert view.trams.newest == "yellow" and len([t for t in owner.trams if t]) < 3
    _check_folded_scrap(page, game, shots)
    while not game.over and not _arrangements(game):
        game.step()
    legal = _arrangements(game)
    assert legal
    actor = legal[0].split()[0]
    company = game.session.state.view(None).companies[actor]
    page.goto(game.url(lang="en"))
    editor = page.locator("form.arrange-editor")
    assert editor.count() == 1
    picks = editor.locator("select.arrange-pick")
    assert picks.count() == len(company.lines)
    now = [company.trams[i] if i < len(company.trams) and company.trams[i] else "none"
           for i in range(len(company.lines))]
    assert picks.evaluate_all("ss => ss.map(s => s.value)") == now
    texts = editor.locator("label, option, button, .arrange-note").evaluate_all(
        "es => es.map(e => e.textContent)")
    assert not [t for t in texts if is_notation(t)]
    button = editor.locator("button.primary")
    note = editor.locator(".arrange-note")
    assert button.is_disabled()
    assert note.inner_text() == "This is how the trams run now: change a line."
    editor.locator("xpath=ancestor::div[contains(@class, 'choice')]").screenshot(
        path=str(shots / "g1840-arrange-editor.png"))

    owned = [t for t in company.trams if t]
    doubled = [owned[0]] * len(company.lines)
    if len(company.lines) > owned.count(owned[0]):  # one tram on two lines: refused
        for i, col in enumerate(doubled):
            picks.nth(i).select_option(col)
        assert button.is_disabled()
        assert note.inner_text() == "Not possible: each tram runs one line only."

    chosen = legal[0].split()[2].split(",")[:len(company.lines)]
    for i, col in enumerate(chosen):
        picks.nth(i).select_option(col)
    assert button.is_enabled() and note.is_hidden()
    n = page.locator("#table").get_attribute("data-n")
    button.click()
    page.wait_for_selector(f'#table:not([data-n="{n}"])')
    assert page.locator("#table > .error").count() == 0
    state = api(fast_server, f"/api/games/{game.gid}", game.tokens[game.seat])
    trams = state["view"]["companies"][actor]["trams"]
    assert [(trams[i] if i < len(trams) else None) or "none"
            for i in range(len(chosen))] == chosen
    assert any(line.startswith(f"{actor} arranges its trams (") for line in state["log"])
    page.close()
