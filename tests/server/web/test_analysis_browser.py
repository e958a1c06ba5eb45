"""Issue 26, item 4 in a real browser: the end page of a finished Trambahn game and of a
finished 1840 game (a game of two ``normal`` bots and the golden 4-player record, played into
a live server that analyses games) shows
the strong bot's evaluation over the game as an SVG chart, one line per seat, and each seat's
three costliest decisions, each linked to its position; a link opens that position."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402
from tramways.core import GameRecord, Session  # noqa: E402

pytestmark = needs_chromium
GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def _bot_game(service: Any) -> tuple[str, list[str], int]:
    """A Trambahn game of two ``normal`` bots' moves, played through the service by two
    people's seats (the server's own deal: the API takes no set-up)."""
    import random

    from tramways.bots import make_bot
    from tramways.core.actions import moves

    created = service.create("trambahn", {}, ["human", "human"], seed=26)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    bots = [make_bot("normal", service.live(gid).game) for _ in range(2)]
    rng = random.Random(26)
    while True:
        live = service.live(gid)
        if live.state.is_over():
            return gid, tokens, 2
        p = live.state.current_players()[0]
        action = bots[p].choose(live.state.view(p), moves(live.state.legal_actions(p)), rng)
        service.move(gid, p + 1, live.n, live.game.format_action(action))


def _write(service: Any, name: str) -> tuple[str, list[str], int]:
    record = GameRecord.load(str(GOLDEN / name))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    seats = len(session.game.player_names(dict(record.settings)))
    created = service.create(record.game, dict(record.settings), ["human"] * seats,
                             seed=record.seed)
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    for n, text in enumerate(record.actions):
        seat = session.state.seats_for(session.parse(text))[0]
        session.play(text)
        service.move(gid, seat + 1, n, text)
    return gid, tokens, seats


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    """Both golden games written into a database, then a real ``tramways serve`` on it that
    analyses finished games (``TRAMWAYS_ANALYSIS=thread``)."""
    from tests.server.conftest import start_server, stop_server
    from tramways.server.service import GameService
    from tramways.server.storage import Store

    database = f"sqlite:///{tmp_path_factory.mktemp('analysis') / 'tramways.sqlite3'}"
    store = Store(database)
    service = GameService(store)
    try:
        games = {"trambahn": _bot_game(service),
                 "1840": _write(service, "1840-4p.json")}
    finally:
        service.close()
        store.close()
    proc, base = start_server(database, None, "--moves-per-second", "0",
                              env={"TRAMWAYS_ANALYSIS": "thread"})
    try:
        yield base, games
    finally:
        stop_server(proc)


def _analysed(base: str, gid: str, timeout: float = 240.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{base}/api/games/{gid}/analysis", timeout=30)
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            return body
        assert r.status_code == 202, r.text
        assert time.monotonic() < deadline, "the analysis took too long"
        time.sleep(1)


@pytest.mark.parametrize("game", ["trambahn", "1840"])
def test_issue26_end_page_shows_the_analysis_chart_and_worst_three_linked(
        browser, served, game: str, shots: Path) -> None:
    base, games = served
    gid, tokens, seats = games[game]
    page = browser.new_page(viewport=DESKTOP)
    failures: list[str] = []
    page.on("pageerror", lambda e: failures.append(str(e)))
    page.goto(f"{base}/g/{gid}?token={tokens[0]}&lang=en")
    # the first look finds it queued (or done); the server analyses it in the background
    assert page.locator("#analysis").get_attribute("data-status") in ("pending", "done")
    body = _analysed(base, gid)
    assert body["status"] == "done"
    page.reload()
    section = page.locator("#analysis")
    assert section.get_attribute("data-status") == "done"
    chart = section.locator("#chart-analysis svg")
    assert chart.count() == 1
    assert chart.locator("polyline.series").count() == seats
    worst = section.locator(".analysis-seat")
    assert worst.count() == seats
    expected = {}
    for s in range(seats):
        mine = sorted((d for d in body["analysis"]["decisions"]
                       if d["seat"] == s and d["loss"] > 0),
                      key=lambda d: (-d["loss"], d["index"]))[:3]
        expected[s] = [d["index"] for d in mine]
        links = worst.nth(s).locator("li a.to-position")
        assert links.count() == len(mine) == 3
        assert [int(li.get_attribute("data-at"))
                for li in worst.nth(s).locator("li").all()] == expected[s]
    first = worst.nth(0).locator("li").first
    assert "better" in first.inner_text()
    assert first.locator(".loss").inner_text().startswith("(loss ")
    section.screenshot(path=str(shots / f"analysis-{game}-en.png"))
    at = expected[0][0]
    worst.nth(0).locator("li a.to-position").first.click()
    page.wait_for_url(re.compile(rf"at={at}\b"))
    assert page.locator(".history-nav").inner_text().startswith(
        f"A past position: after move {at} of ")
    assert not failures
