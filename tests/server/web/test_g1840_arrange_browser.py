"""The tram reassignment as a small editor in a real browser (issue 23, item 4; VIII.5.3).

A rule-bot game (seed 7) is played through the API until a company may rearrange its trams;
its director's page shows one list per line (the line's tram now selected) and one button:

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


def test_viii_5_3_the_reassignment_is_a_list_per_line_and_one_button(browser,
                                                                      fast_server: str) -> None:
    game = BotGame(fast_server, seed=7)
    while not game.over and not _arrangements(game):
        game.step()
    legal = _arrangements(game)
    assert legal
    actor = legal[0].split()[0]
    company = game.session.state.view(None).companies[actor]
    page = browser.new_page(viewport=DESKTOP)
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
