"""Issue 23, items 9 and 10 in a real browser, on a recorded 4-player game (tests/golden)
played into a live server: a click on a log line of the first Company Round shows the board
and tables of that moment (a share price that differs from now), "next round" steps on to
the next round's start; the game statistics show each player's wealth after each Company
Round, ending at the engine's result.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` the statistics'
picture is the docs'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tramways.core import GameRecord, Session  # noqa: E402

pytestmark = needs_chromium
GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "1840-4p.json"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """The golden record written into a database in process (the API takes no seed), then a
    real ``tramways serve`` on it: its URL, the game, the seats' tokens and the replay."""
    from tests.server.conftest import start_server, stop_server
    from tramways.server.service import GameService
    from tramways.server.storage import Store

    record = GameRecord.load(str(GOLDEN))
    database = f"sqlite:///{tmp_path_factory.mktemp('history') / 'tramways.sqlite3'}"
    store = Store(database)
    service = GameService(store)
    session = Session.from_record(record.model_copy(update={"actions": []}))
    try:
        created = service.create("1840", dict(record.settings), ["human"] * 4,
                                 seed=record.seed)
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        for n, text in enumerate(record.actions):
            seat = session.state.seats_for(session.parse(text))[0]
            session.play(text)
            service.move(gid, seat + 1, n, text)
    finally:
        service.close()
        store.close()
    proc, base = start_server(database, None, "--moves-per-second", "0")
    try:
        yield base, gid, tokens, session
    finally:
        stop_server(proc)


def _price(page, company: str) -> str:
    return page.locator(f'#companies-table tr[data-company="{company}"] td.price').inner_text()


def test_item_9_a_log_line_of_cr1_shows_that_position_and_next_round_moves_on(
        browser, played, shots: Path) -> None:
    fast_server, gid, tokens, session = played
    page = browser.new_page(viewport=DESKTOP)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    page.goto(f"{fast_server}/g/{gid}?token={tokens[0]}&lang=en")
    now = _price(page, "SJE")
    cr1 = page.locator('#log-rounds details.log-round[data-round="CR1"]')
    cr1.locator("summary").click()
    line = cr1.locator("li a", has_text=re.compile(r"^SJE pays 0 .*price 80 → 75$"))
    at = int(line.get_attribute("data-at"))
    line.click()
    page.wait_for_url(re.compile(rf"at={at}\b"))
    # the board and tables of that moment: CR1, SJE at 75 (60 at the end)
    assert page.locator("#round").inner_text() == "CR1"
    assert _price(page, "SJE") == "75" and now == "60"
    assert page.locator(".history-nav").inner_text().startswith(
        f"A past position: after move {at} of {len(session.record.actions)}.")
    assert page.locator("#log-rounds li.here").first.inner_text().startswith("SJE pays 0")
    page.screenshot(path=str(shots / "g1840-history-en.png"))
    # next round: the first Line Round's start, its map and its round
    page.click("#next-round")
    page.wait_for_url(re.compile(r"at=\d+"))
    stepped = int(re.search(r"at=(\d+)", page.url).group(1))
    assert stepped > at
    assert page.locator("#round").inner_text() == "LR1a"
    assert page.locator("#map svg").count() == 1
    # and back: previous round is LR1a's own start from inside it, CR1's from its start
    page.click("#prev-round")
    page.wait_for_url(re.compile(r"at=\d+"))
    assert page.locator("#round").inner_text() == "CR1"
    assert not failures


def test_item_10_wealth_after_each_company_round_ends_at_the_result(
        browser, played, shots: Path) -> None:
    fast_server, gid, tokens, session = played
    result = session.state.result()["wealth"]
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{fast_server}/g/{gid}?token={tokens[0]}&lang=en")
    heads = page.locator("#worth-table thead th").all_inner_texts()
    assert heads == ["Player", "CR1", "CR2", "CR3", "CR4", "CR5", "CR6", "End"]
    last = page.locator("#worth-table tbody tr td:last-child").all_inner_texts()
    assert [int(v) for v in last] == list(result) == [1026, 586, 756, 937]
    assert page.locator("#chart-worth polyline.series").count() == 4
    page.locator("#game-statistics").screenshot(path=str(shots / "g1840-statistics-en.png"))
    page.goto(f"{fast_server}/g/{gid}?token={tokens[0]}&lang=de")
    assert page.locator("#game-statistics h3").first.inner_text() == "Vermögen jeder Person"
    assert page.locator("#worth-table thead th").last.inner_text() == "Ende"
