"""A whole 4-player game of 1840 played by clicking, in words (issue 23, the last done-when).

A person creates the game in the lobby (themself and three rule bots, seed 5) and plays
their seat from the private auction to the end after CR6 only by clicking the controls the page
shows, chosen by a simple policy (:mod:`tests.server.web.g1840_clicker`); no move is typed and
no notation is read.  Every control label seen reads as words
(:func:`tests.server.web.g1840_controls_check.is_notation`), the dividend list defaults to the
full payout, and the end page shows the result.

The same game is spot-checked in German, Russian and Spanish: a Company Round position where
the person buys a tram (the live page, its controls in sight) and the finished game; the headings,
the table headers, the controls and the log lines that read as English words in the English
page read otherwise there (and in Cyrillic in Russian).

Bounded: the whole game must end within ``LIMIT`` seconds (about 3 minutes on the quiet 2-core
machine; docs/server.md, "Browser tests").
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tests.server.web.g1840_clicker import Clicker  # noqa: E402

pytestmark = needs_chromium
LIMIT = 600
"""Seconds the whole game may take (a loaded machine is slower; the game takes ~3 minutes)."""
ENGLISH = re.compile(r"\b[a-z]{3,}\b")
CYRILLIC = re.compile(r"[а-яА-Я]")
SPOT = ("#table h1, #table h2, #table h3, #table thead th, #table .actions button,"
        " #table .actions option, #table .actions .group-label, #table .actions label,"
        " #table .status, #table figcaption, #log-rounds li")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``tramways serve`` without the move rate limit, its bots seeded (the same game on
    every run)."""
    from tests.server.conftest import start_server, stop_server

    folder = tmp_path_factory.mktemp("whole")
    proc, base = start_server(f"sqlite:///{folder / 'tramways.sqlite3'}", None,
                              "--moves-per-second", "0", "--bot-seed", "1")
    try:
        yield base
    finally:
        stop_server(proc)


def _create(page, base: str) -> None:
    """The lobby's 1840 form: four players, the person first, three rule bots; its link."""
    page.goto(base + "/?lang=en")
    page.select_option("#players", "4")
    page.select_option("#seat1840-1", "human")
    for i in (2, 3, 4):
        page.select_option(f"#seat1840-{i}", "bot:rule")
    page.fill("#create-1840 input[name=name1]", "Anna")
    page.fill("#seed", "5")
    page.click("#create-1840 button[type=submit]")
    page.locator("a.button", has_text="Play this seat").first.click()
    page.wait_for_selector("#table")


def _texts(page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator(SPOT).evaluate_all(
        "es => es.map(e => e.innerText || e.textContent || '')")]


def _leftovers(english: list[str], other: list[str], lang: str) -> list[str]:
    """The texts of ``other`` that are their English counterpart (or not Russian)."""
    assert len(english) == len(other), (lang, len(english), len(other))
    out = []
    for en, text in zip(english, other, strict=True):
        if not ENGLISH.search(en):
            continue  # figures, names, hexes and company ids only
        if text == en or (lang == "ru" and not CYRILLIC.search(text)):
            out.append(text)
    return out


def _spot_check(browser, url: str) -> dict[str, int]:
    """The page at ``url`` in English, then in German, Russian and Spanish: no leftovers.
    How many texts were compared."""
    checked: dict[str, int] = {}
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{url}&lang=en")
    english = _texts(page)
    page.close()
    for lang in ("de", "ru", "es"):
        page = browser.new_page(viewport=DESKTOP)
        page.goto(f"{url}&lang={lang}")
        other = _texts(page)
        page.close()
        assert _leftovers(english, other, lang) == [], lang
        checked[lang] = sum(1 for en in english if ENGLISH.search(en))
    return checked


def test_a_whole_4_player_game_is_played_by_clicking_words_in_each_language(
        browser, server: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.on("dialog", lambda d: d.accept())  # scrapping asks first (VIII.5.3)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    traffic = {"frames": 0, "tables": 0}
    page.on("websocket", lambda ws: ws.on(
        "framereceived", lambda _f: traffic.__setitem__("frames", traffic["frames"] + 1)))
    page.on("request", lambda r: traffic.__setitem__(
        "tables", traffic["tables"] + ("/table?" in r.url)))
    _create(page, server)
    url = page.url.split("&lang")[0]
    clicker = Clicker(page)
    start = time.monotonic()
    deadline = start + LIMIT
    spot: dict[str, int] = {}
    rounds: list[str] = []
    while True:
        assert time.monotonic() < deadline, (rounds[-1:], clicker.clicks)
        state = clicker.wait_for_turn(deadline)
        if state["over"]:
            break
        if not rounds or rounds[-1] != state["round"]:
            rounds.append(state["round"])
        if not spot and state["round"].startswith("CR2") and any(
                c["kind"] == "tram" for c in state["choices"]):
            spot = _spot_check(browser, url)  # the live position, its controls in sight
        clicker.play(state)
    took = time.monotonic() - start
    print(f"whole game: {took:.0f} s, {sum(clicker.clicks.values())} clicks {clicker.clicks}; "
          f"{traffic['frames']} live messages, {traffic['tables']} tables fetched; waited "
          f"{clicker.waited:.0f} s for the turn, {clicker.acting:.0f} s clicking "
          f"{ {k: round(v) for k, v in clicker.seconds.items()} }")
    assert page.locator("#table section.result h1").inner_text() == "The game is over"
    assert page.locator("#table section.result li").count() == 4
    assert any(r.startswith("CR6") for r in rounds), rounds
    assert {"par", "buy a share", "dividend", "tram", "lay", "run"} <= set(clicker.clicks)
    assert failures == []
    page.close()
    assert spot
    spot_end = _spot_check(browser, url)
    print(f"spot checks: mid-game {spot}, end {spot_end}")
