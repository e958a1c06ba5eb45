"""1840 in a real browser (issue 12): Playwright driving Debian's chromium.

One person and three ``bot:random`` seats (seeded: the server runs with ``--bot-seed 1`` and
the game with seed 1, so every run plays the same game): the person creates the game in the
lobby and plays every one of their moves by clicking the page, from the private auction (VI)
through Share Round 1, Company Round 1 and Line Round 1 (a tile chosen on the map and previewed
before it is confirmed, a Stadtbahn marker's removal offered by clicking it on the map (R-LR-5),
a station marker placed by clicking its circle on the map, a route
claimed by clicking its stops: first a worse one than the best, refused by the engine (IX.8)
with its rule and message on the page, then the best one, accepted); after each move the
page's figures are the engine's view.  A phone-sized run creates a game and plays the private auction and the
first Share Round.  With ``TRAMWAYS_SCREENSHOT_DIR=docs`` the screenshots are the README's.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import DESKTOP, PHONE, needs_chromium  # noqa: E402

WAIT = 30_000
PlaywrightTimeout = playwright.TimeoutError

pytestmark = needs_chromium


def _api(base: str, path: str, token: str | None = None) -> dict:
    req = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"}
                                 if token else {})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _choose(legal: list[str]) -> str:
    """The person's plan: start a company at the highest par, give it a tram and a line, lay,
    station and run in the Line Round, otherwise pass or finish the step."""
    def having(pred):
        return [a for a in legal if pred(a.split())]
    for pred in (lambda w: w[1] == "lay", lambda w: w[1] == "station",
                 lambda w: w[1] == "run" and len(w) == 2):
        found = having(pred)
        if found:
            return found[0]
    pars = having(lambda w: w[1] == "par")
    if pars:
        return max(pars, key=lambda a: int(a.split()[-1]))
    for pred in (lambda w: w[1] == "buy" and w[0][0] not in "PL", lambda w: w[1] == "auction",
                 lambda w: w[1] == "pay", lambda w: w[-1] in ("pass", "done", "skip"),
                 lambda w: w[1] == "bid"):
        found = having(pred)
        if found:
            return min(found) if found[0].split()[1] == "buy" else found[0]
    return legal[0]


def _create(page, base: str) -> tuple[str, str]:
    page.goto(base + "/")
    page.select_option("#players", "4")
    page.select_option("#seat1840-1", "human")
    for i in (2, 3, 4):
        page.select_option(f"#seat1840-{i}", "bot:random")
    page.fill("#create-1840 input[name=name1]", "Anna")
    page.fill("#seed", "1")
    page.click("#create-1840 button[type=submit]")
    link = page.locator("a.button", has_text="Play this seat").first.get_attribute("href")
    assert link is not None
    gid = link.split("/g/")[1].split("?")[0]
    token = link.split("token=")[1]
    return gid, token


def _wait_for_me(page, base: str, gid: str, token: str, stop: str) -> dict | None:
    """The seat's payload once it is to act (None once the round ``stop`` has begun), after
    the page shows that same position."""
    for _ in range(600):
        state = _api(base, f"/api/games/{gid}", token)
        if state["view"]["round"] == stop:
            return None
        if state["seat"] in state["to_act"]:
            page.wait_for_selector(f'#table[data-n="{state["n"]}"]', timeout=WAIT)
            return state
        page.wait_for_timeout(100)
    raise AssertionError("the bots never handed the turn back")


def _check_figures(page, view: dict) -> None:
    """The page's tables show the engine's view (players, companies, the round)."""
    assert page.locator("#round").inner_text() == view["round"]
    for p in view["players"]:
        row = page.locator(f'#players-table tr[data-seat="{p["seat"]}"]')
        assert row.locator("td.cash").inner_text() == str(p["cash"])
        assert row.locator("td.value").inner_text() == str(p["value"])
        assert row.locator("td.certs").inner_text().split("/")[0] == str(p["certificates"])
    for cid, c in view["companies"].items():
        row = page.locator(f'#companies-table tr[data-company="{cid}"]')
        assert row.locator("td.price").inner_text() == str(c["price"])
        assert row.locator("td.treasury").inner_text() == str(c["treasury"])


def _click_map(page, selector: str) -> None:
    """Click the middle of a map element (the whole map in sight: a live refresh may be
    replacing the map at this very moment, so wait until it has a box)."""
    page.click('button[data-zoom="0"]')
    element = page.locator(f"#map {selector}")
    box = None
    for _ in range(50):
        element.wait_for(state="visible", timeout=WAIT)
        box = element.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _open_on_map(page, selector: str, title: str) -> None:
    """Click a map element until its panel is open with ``title``: a click measured on one
    drawing of the map and landing on the next (a live refresh, a layout shift under load)
    misses; it was seen once in 1,875 tests of a loaded .ci/run, so it is tried three times,
    and what the page showed at each miss is in the failure."""
    misses = []
    for _ in range(3):
        _click_map(page, selector)
        try:
            page.wait_for_selector("#hex-panel:not([hidden])", timeout=WAIT // 3)
            break
        except PlaywrightTimeout:
            misses.append(page.evaluate(
                '() => ({n: document.querySelector("#table")?.dataset.n, '
                'rev: document.querySelector("#table")?.dataset.rev, '
                'scroll: [window.scrollX, window.scrollY]})'))
    else:
        raise AssertionError(f"{selector} opened no panel: {misses}")
    assert page.locator("#hex-title").inner_text() == title


def _claim(page, route: str) -> dict:
    """Click the stops of ``route`` on the map; the claimed run as the page shows it, once the
    server has checked and valued it."""
    done: list[str] = []
    for place in route.split("-"):
        place = place.split(">")[0]
        _click_map(page, f'g.stop[data-stop="{place}"]')
        done.append(place)
        # a hex that may take a tile or a marker opens its panel: the stop is added there
        in_panel = page.locator(f'#hex-panel:not([hidden]) button.route-stop[data-stop="{place}"]')
        page.wait_for_timeout(50)
        if in_panel.count() and page.locator("#claim-route").inner_text() != "-".join(done):
            in_panel.click()
    page.wait_for_function(
        "r => { const b = document.querySelector('#claim');"
        " return b && !b.hidden && b.dataset.state === 'valid'"
        " && document.querySelector('#claim-route').textContent === r; }", arg=route,
        timeout=WAIT)
    rows = page.locator("#claim-table tr").evaluate_all(
        "rs => rs.map(r => [r.className, r.querySelector('th').textContent,"
        " r.querySelector('td').textContent])")
    labels = page.locator("#map g.stop-values g.stop-value").evaluate_all(
        "gs => gs.map(g => [g.dataset.stop, g.textContent])")
    return {"rows": rows, "labels": labels,
            "button": page.locator("#claim button[name=action]").get_attribute("value")}


def _expected_rows(run) -> list[list[str]]:
    rows = [["stop-row", f"{c}.{loc}", str(part)] for (c, loc), part in
            zip(run.stops, run.parts, strict=True)]
    if run.landmark_bonus:
        rows.append(["bonus-row", "bonus", f"+{run.landmark_bonus}"])
    if run.maintenance:
        rows.append(["maintenance-row", "Tram", f"{run.maintenance:+d}"])
    rows.append(["total-row", "Total", str(run.total)])
    return rows


def _worse_route(view: dict, line: int):
    """A valid route of ``line`` worse than its best (the best without its last or first
    stop), with the best run; (None, best) if there is none."""
    from tramways.core.errors import IllegalAction
    from tramways.g1840.analysis import best_run, claimed_run
    from tramways.g1840.view_types import as_view1840

    view = as_view1840(view)
    best = best_run(view, line)
    if best is None or len(best.stops) < 3:
        return None, best
    for sub in (best.stops[:-1], best.stops[1:]):
        try:
            run = claimed_run(view, line, "-".join(f"{c}.{loc}" for c, loc in sub))
        except IllegalAction:
            continue
        if run.total < best.total:
            return run, best
    return None, best


def _claim_routes(page, base: str, gid: str, token: str, state: dict, shots: Path) -> None:
    """IX.8 by clicks: a worse route than the best is refused (the page shows the engine's
    rule and message, nothing is played); then the best route, clicked stop by stop, is run."""
    view = state["view"]
    line = int(view["round_info"]["line_turn"]["line"])
    worse, best = _worse_route(view, line)
    assert worse is not None and best is not None
    shown = _claim(page, worse.text)
    assert shown["rows"] == _expected_rows(worse)
    assert shown["labels"] == [[f"{c}.{loc}", str(p)] for (c, loc), p in
                               zip(worse.stops, worse.parts, strict=True)]
    assert shown["button"] == f"L{line} run {worse.text}"
    page.click("#claim button[name=action]")
    page.wait_for_selector("#table .error", timeout=WAIT)
    assert page.locator("#table .error code").inner_text() == (
        f"IX.8: the claimed route earns {worse.total}; the best earns {best.total}")
    assert _api(base, f"/api/games/{gid}", token)["n"] == state["n"]
    _check_figures(page, view)
    assert page.locator("#run-table tr").evaluate_all(
        "rs => rs.map(r => [r.className, r.querySelector('th').textContent,"
        " r.querySelector('td').textContent])") == _expected_rows(best)
    shown = _claim(page, best.text)
    assert shown["rows"] == _expected_rows(best)
    assert shown["labels"] == [[f"{c}.{loc}", str(p)] for (c, loc), p in
                               zip(best.stops, best.parts, strict=True)]
    # the README's picture: the map zoomed onto the claimed route, the claim beside it
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.evaluate("window.scrollTo(0, 0)")
    middle = page.locator(f'#map g.stop[data-stop="{best.text.split("-")[1].split(">")[0]}"]')
    box = middle.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(6):
        page.mouse.wheel(0, -100)
    box = middle.bounding_box()
    frame = page.locator("#map").bounding_box()
    assert box is not None and frame is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()  # drag the route to the middle of the map
    page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / "g1840-route-desktop.png"))
    page.set_viewport_size(DESKTOP)
    before = page.locator("#table").get_attribute("data-n")
    page.click("#claim button[name=action]")
    page.wait_for_function(
        f'document.querySelector("#table") && document.querySelector("#table").dataset.n !== "{before}"',
        timeout=WAIT)
    after = _api(base, f"/api/games/{gid}", token)
    assert f"Line {line} runs ({best.text}) for {best.total}" in after["log"]


def _play(page, notation: str, shots: Path | None = None, legal: list[str] = ()) -> None:
    """Make the move ``notation`` by clicking: a button, a list and its OK, or the map."""
    words = notation.split()
    before = page.locator("#table").get_attribute("data-n")
    if words[1] == "station":  # the circle on the map, then its move in the hex's panel
        _open_on_map(page, f'g.stop[data-stop="{words[2]}"]', words[2])
        offered = page.locator("#hex-options button[name=action]").evaluate_all(
            "bs => bs.map(b => b.value)")
        hex_ = words[2].split(".")[0]
        assert sorted(offered) == sorted(a for a in legal if a.split()[1] in ("station", "remove")
                                         and a.split()[2].split(".")[0] == hex_)
        page.click(f'#hex-options button[value="{notation}"]')
    elif words[1] == "lay":
        coord = words[2]
        _open_on_map(page, f'polygon.hex[data-coord="{coord}"]', coord)
        offered = page.locator("#hex-options button.rotation").evaluate_all(
            "bs => bs.map(b => b.dataset.notation)")
        assert sorted(offered) == sorted(a for a in legal if a.split()[1:3] == ["lay", coord])
        page.click(f'#hex-options button[data-notation="{notation}"]')
        page.wait_for_selector("#hex-confirm:not([hidden])")
        if shots is not None:
            page.screenshot(path=str(shots / "g1840-map-desktop.png"))
        page.click("#hex-confirm button[name=action]")
    else:
        button = page.locator(f'#table button[data-notation="{notation}"]')
        if button.count():
            button.first.click()
        else:
            select = page.locator("#table select[name=action]", has=page.locator(
                f'option[value="{notation}"]'))
            select.select_option(notation)
            select.locator("xpath=ancestor::form").locator("button").click()
    page.wait_for_function(
        f'document.querySelector("#table") && document.querySelector("#table").dataset.n !== "{before}"',
        timeout=WAIT)


def test_a_person_plays_1840_against_three_random_bots(browser, live_server: str,
                                                       shots: Path) -> None:
    # the test's own string predicates (wait_for_function) are evals, which the page's
    # policy forbids: bypassed here; the page itself runs under it in the test below
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)
    gid, token = _create(page, live_server)
    page.goto(f"{live_server}/g/{gid}?token={token}")
    done: set[str] = set()
    rounds: set[str] = set()
    history: list[str] = []
    for _ in range(500):
        if {"lay", "station", "run", "claim"} <= done:
            break
        state = _wait_for_me(page, live_server, gid, token, stop="CR3")
        if state is None:
            break
        view = state["view"]
        rounds.add(view["round_info"]["type"])
        _check_figures(page, view)
        assert "Waiting for" not in page.locator(".side-1840").inner_text()
        turn = view["round_info"].get("line_turn") or {}
        if turn.get("bonus"):  # R-LR-1: the prompt offers exactly the bonus's legal hexes
            from tramways.g1840.analysis import line_option_costs
            from tramways.g1840.view_types import as_view1840

            costs = line_option_costs(as_view1840(view), int(turn["line"]), state["legal"])
            hexes = sorted({t.split()[2] for t, c in costs.items() if t.split()[1] == "lay"
                            and c["kind"] not in ("normal", "stadtbahn")})
            assert page.locator("#bonus-prompt button[data-hex]").evaluate_all(
                "bs => bs.map(b => b.dataset.hex)") == hexes
            done.add("bonus")
        removals = [a for a in state["legal"] if a.split()[1] == "remove"]
        if removals and "removal" not in done:  # R-LR-5: the marker on the map opens its moves
            place = removals[0].split()[2]
            _open_on_map(page, f'g.stop[data-stop="{place}"]', place)
            offered = page.locator("#hex-options button[name=action]").evaluate_all(
                "bs => bs.map(b => b.value)")
            assert sorted(offered) == sorted(
                a for a in state["legal"] if a.split()[1] in ("station", "remove")
                and a.split()[2].split(".")[0] == place.split(".")[0])
            assert page.locator("#hex-options button.chosen").get_attribute("value") == \
                removals[0]
            page.click("#hex-close")  # not this time
            page.wait_for_selector("#hex-panel", state="hidden")
            done.add("removal")
        notation = _choose(state["legal"])
        history.append(f'{state["n"]} {view["round"]} {notation}')
        verb = notation.split()[1]
        if verb == "run" and "claim" not in done and _worse_route(
                view, int(view["round_info"]["line_turn"]["line"]))[0] is not None:
            _claim_routes(page, live_server, gid, token, state, shots)
            done |= {"claim", "run"}
            continue
        _play(page, notation, shots if verb == "lay" and "lay" not in done else None,
              state["legal"])
        done.add(verb)
        if verb in ("station", "run") and "tables" not in done:
            page.screenshot(path=str(shots / "g1840-tables-desktop.png"), full_page=True)
            done.add("tables")
    assert {"PRE", "SR", "CR", "LR"} <= rounds, history
    assert {"par", "lay", "station", "removal", "run", "claim", "bonus"} <= done, history
    final = _api(live_server, f"/api/games/{gid}", token)
    page.wait_for_selector(f'#table[data-n="{final["n"]}"]', timeout=WAIT)
    assert "Waiting for" in page.locator(".side-1840").inner_text() or final["seat"] in final["to_act"]
    page.close()


def test_phone_creates_and_plays_the_auction_and_first_share_round(
        browser, live_server: str, shots: Path) -> None:
    page = browser.new_page(viewport=PHONE, has_touch=True, bypass_csp=True)
    gid, token = _create(page, live_server)
    page.goto(f"{live_server}/g/{gid}?token={token}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for _ in range(60):
        state = _wait_for_me(page, live_server, gid, token, stop="CR1")
        if state is None:
            break
        _check_figures(page, state["view"])
        _play(page, _choose(state["legal"]), legal=state["legal"])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "g1840-phone.png"))
    page.locator(".tables-1840").evaluate("e => e.scrollIntoView()")
    page.screenshot(path=str(shots / "g1840-phone-tables.png"))
    page.close()


def test_the_1840_pages_run_under_their_content_security_policy(browser, live_server: str) -> None:
    """The lobby, the 1840 table and its map run with the site's policy in force (scripts
    from /static only): no violation is reported and no script fails."""
    page = browser.new_page(viewport=DESKTOP)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    gid, token = _create(page, live_server)
    page.goto(f"{live_server}/g/{gid}?token={token}")
    page.wait_for_load_state("networkidle")
    page.reload()
    page.wait_for_load_state("networkidle")
    assert problems == []
    page.close()
