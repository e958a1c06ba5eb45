"""The 1840 pages in process (issue 12): the lobby creates an 1840 game, the table shows the
engine's view and offers exactly the seat's legal notations, the board preview of a tile lay."""

from __future__ import annotations

import html
import json
import random
import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")

FORM = {"content-type": "application/x-www-form-urlencoded"}


def _create(client, players: int = 4, **fields: str) -> tuple[str, list[str]]:
    body = {"players": str(players), "map": "full", "seed": "5"}
    for i in range(1, players + 1):
        body[f"seat{i}"] = "human"
    body.update(fields)
    page = client.post("/new1840", content=urlencode(body), headers=FORM)
    assert page.status_code == 200, page.text[:500]
    links = [html.unescape(x).removeprefix("http://testserver")
             for x in re.findall(r'value="(http://testserver/g/[^"]+)"', page.text)]
    return page.text, links


def _offered(page: str) -> list[str]:
    """Every notation the page offers: buttons, list options and the map's lays."""
    found = [html.unescape(a) for a in re.findall(r'name="action" value="([^"]+)"', page)]
    for select in re.findall(r'<select name="action"[^>]*>(.*?)</select>', page, re.S):
        found += [html.unescape(v) for v in re.findall(r'<option value="([^"]+)"', select)]
    for notations in re.findall(r'data-notations="([^"]*)"', page):  # a private's purchase
        found += json.loads(html.unescape(notations))
    m = re.search(r'data-lays="([^"]*)"', page)
    if m:

        lays = json.loads(html.unescape(m.group(1)))
        found += [o["notation"] for opts in lays.values() for o in opts]
    return found


def _token(link: str) -> str:
    return link.split("token=")[1]


def test_lobby_offers_1840(sqlite_client) -> None:
    page = sqlite_client.get("/")
    assert 'action="/new1840"' in page.text
    assert 'name="seed"' in page.text


def test_small_map_needs_three_players(sqlite_client) -> None:
    page = sqlite_client.post("/new1840", content=urlencode(
        {"players": "4", "map": "small", "seat1": "human"}), headers=FORM)
    assert page.status_code == 422


def test_created_game_uses_the_seed_and_shows_links(sqlite_client) -> None:
    text, links = _create(sqlite_client, players=3, map="small", name1="Anna")
    assert len(links) == 4  # three seats and the spectator link
    gid = links[-1].split("/g/")[1]
    record = sqlite_client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == 5 and record["settings"]["small_map"] is True
    assert record["settings"]["names"][0] == "Anna"


def test_every_legal_notation_is_offered_once_through_the_rounds(sqlite_client) -> None:
    """From the private auction (VI) through SR1, CR1 and LR1: each page offers exactly the
    seat's legal notations (lays on the map included), and its figures are the view's."""
    _, links = _create(sqlite_client, players=4)
    tokens = [_token(x) for x in links[:4]]
    gid = links[0].split("/g/")[1].split("?")[0]
    rng = random.Random(3)
    seen_rounds = set()
    for _step in range(400):
        api = sqlite_client.get(f"/api/games/{gid}").json()
        if api["view"]["round"].startswith("CR2"):
            break
        seat = api["to_act"][0]
        state = sqlite_client.get(f"/api/games/{gid}?token={tokens[seat - 1]}").json()
        page = sqlite_client.get(f"/g/{gid}?token={tokens[seat - 1]}").text
        offered = _offered(page)
        assert sorted(offered) == sorted(state["legal"])
        seen_rounds.add(state["view"]["round_info"]["type"])
        for p in state["view"]["players"]:
            row = re.search(rf'<tr[^>]*data-seat="{p["seat"]}">(.*?)</tr>', page, re.S)
            assert row is not None
            assert f'<td class="cash">{p["cash"]}</td>' in row.group(1)
            assert f'<td class="value">{p["value"]}</td>' in row.group(1)
        assert f'id="round">{state["view"]["round"]}<' in page
        # a seat that is not to act is told whom it waits for
        other = tokens[seat % 4]
        if seat % 4 + 1 not in state["to_act"]:
            waiting = sqlite_client.get(f"/g/{gid}?token={other}").text
            assert "Waiting for" in waiting
        lays = [a for a in state["legal"] if a.split()[1] == "lay"]
        if lays and "previews" not in seen_rounds:
            seen_rounds.add("previews")
            coord = lays[0].split()[2]
            asked = sqlite_client.get(
                f"/g/{gid}/previews?hex={coord}&token={tokens[seat - 1]}").json()
            assert sorted(asked) == sorted(a for a in lays if a.split()[2] == coord)
            shown = json.loads(html.unescape(re.search(r'data-lays="([^"]*)"', page).group(1)))
            assert {o["notation"]: o["delta"] for o in shown[coord]} == asked
        # prefer runs, lays and stations so that a Line Round happens as a player plays it
        legal = [a for a in state["legal"] if " program " not in a]  # the game's own moves
        pick = next((a for a in legal if a.endswith(" run")), None) or rng.choice(legal)
        r = sqlite_client.post(f"/api/games/{gid}/moves?token={tokens[seat - 1]}",
                               json={"n": state["n"], "action": pick})
        assert r.status_code == 200, r.text
    assert {"PRE", "SR", "CR", "LR", "previews"} <= seen_rounds


def test_board_preview_of_a_lay(sqlite_client) -> None:
    _, links = _create(sqlite_client, players=4)
    gid = links[0].split("/g/")[1].split("?")[0]
    assert sqlite_client.get(f"/g/{gid}/board?lay=nonsense").status_code == 422
    page = sqlite_client.get(f"/g/{gid}/board?lay=L1 lay D18 235 r0")
    assert page.status_code == 200
    assert page.text.startswith("<svg") and 'data-coord="D18"' in page.text


def test_history_and_after_game_charts(sqlite_client) -> None:
    """A recorded 4-player game (tests/golden) replayed into the server: ``?at=N`` shows a past
    position with earlier/later links; once over, the page shows the result and the charts of
    wealth per player and share price per company by round, ending at the final figures."""
    import json
    from pathlib import Path

    record = json.loads((Path(__file__).resolve().parents[2] / "golden" / "1840-4p.json")
                        .read_text(encoding="utf-8"))
    service = sqlite_client.app.state.service
    created = service.create("1840", dict(record["settings"]), ["human"] * 4, seed=record["seed"])
    gid = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    for n, text in enumerate(record["actions"]):
        state = sqlite_client.get(f"/api/games/{gid}").json()
        for seat in state["to_act"]:
            r = sqlite_client.post(f"/api/games/{gid}/moves?token={tokens[seat - 1]}",
                                   json={"n": n, "action": text})
            if r.status_code == 200:
                break
        else:
            raise AssertionError(f"move {n} {text!r} refused")
    past = sqlite_client.get(f"/g/{gid}?token={tokens[0]}&at=40").text
    assert "A past position: after move 40 of 208." in past and 'rel="next"' in past
    assert 'name="action"' not in past
    page = sqlite_client.get(f"/g/{gid}?token={tokens[0]}").text
    assert "The game is over" in page
    final = sqlite_client.get(f"/api/games/{gid}").json()["view"]
    wealth = re.search(r'id="chart-wealth".*?</figure>', page, re.S)
    prices = re.search(r'id="chart-prices".*?</figure>', page, re.S)
    assert wealth is not None and prices is not None
    assert wealth.group(0).count('<polyline class="series"') == 4
    # issue 23, item 13: the Stadtbahn companies too, on an axis with round steps
    assert prices.group(0).count('<polyline class="series"') == (
        len(final["companies"]) + len(final["stadtbahn"]))
    for sid in final["stadtbahn"]:
        assert f'data-name="{sid}"' in prices.group(0)
    assert prices.group(0).count('class="tick"') >= 4
    top = max(p["value"] for p in final["players"])
    assert f">{top}</text>" in wealth.group(0)  # the axis reaches the winner's final wealth
    download = sqlite_client.get(f"/g/{gid}/record?token={tokens[0]}")
    assert download.json()["actions"] == record["actions"]
    assert 'filename="1840-' in download.headers["content-disposition"]


def _replay_until(client, name: str, want) -> None:
    """Replays a recorded game (tests/golden) into the server; before each move, ``want(gid,
    token, state)`` looks at the seat to act (it returns True once it has seen enough)."""
    from pathlib import Path

    record = json.loads((Path(__file__).resolve().parents[2] / "golden" / name)
                        .read_text(encoding="utf-8"))
    from tramways.games import get_game

    # the record's own set-up (an imported game's is the site's, not drawn from its seed)
    game = get_game("1840")
    players = record["settings"]["players"]
    gid, tokens = client.app.state.store.create_game(
        game.name, record["version"], record["settings"], record["seed"], record["setup"],
        [("human", f"P{i + 1}") for i in range(players)])
    for n, text in enumerate(record["actions"]):
        state = client.get(f"/api/games/{gid}").json()
        for seat in state["to_act"]:
            mine = client.get(f"/api/games/{gid}?token={tokens[seat - 1]}").json()
            if text in mine["legal"] or text.split()[1] == "run":
                if want(gid, tokens[seat - 1], mine):
                    return
            r = client.post(f"/api/games/{gid}/moves?token={tokens[seat - 1]}",
                            json={"n": n, "action": text})
            if r.status_code == 200:
                break
        else:
            raise AssertionError(f"move {n} {text!r} refused")
    raise AssertionError("the record ended before the position was found")


def _rows(page: str, table_id: str) -> list[tuple[str, str]]:
    table = re.search(rf'<table[^>]*id="{table_id}"[^>]*>(.*?)</table>', page, re.S)
    assert table is not None
    return [(html.unescape(a).strip(), html.unescape(b).strip())
            for a, b in re.findall(r"<tr[^>]*><th>(.*?)</th><td>(.*?)</td></tr>", table.group(1))]


def _check_line_turn(client, gid: str, token: str, state: dict, seen: set[str]) -> None:
    """The page of a line turn against the engine: costs, the bonus prompt, the run table,
    and (once) a claimed route valued, an invalid one refused, a worse one refused (IX.8)."""
    from tramways.g1840.analysis import best_run, claimed_run, line_option_costs
    from tramways.g1840.view_types import as_view1840

    view, legal = state["view"], state["legal"]
    typed = as_view1840(view)
    turn = view["round_info"]["line_turn"]
    line = int(turn["line"])
    costs = line_option_costs(typed, line, legal)
    run = best_run(typed, line)
    interesting = (
        any(c["cost"] == 40 and c["kind"] != "removal" for c in costs.values())
        or turn.get("bonus")
        or (run is not None and (run.landmark_bonus or run.maintenance))
        or ("claim" not in seen and run is not None and len(run.stops) >= 3
            and not view["ruleset"] == "18xx.games"))
    if not interesting:
        return
    page = client.get(f"/g/{gid}?token={token}").text
    shown = json.loads(html.unescape(re.search(r'data-lays="([^"]*)"', page).group(1)))
    for opts in shown.values():
        for o in opts:
            assert (o["cost"], o["kind"]) == (costs[o["notation"]]["cost"],
                                              costs[o["notation"]]["kind"])
            if o["cost"] == 40:
                seen.add("danube 40")
    places = json.loads(html.unescape(re.search(r'data-places="([^"]*)"', page).group(1)))
    for opts in places.values():
        for o in opts:
            assert o["cost"] == costs[o["notation"]]["cost"]
    if turn.get("bonus"):
        prompt = re.search(r'<div class="choice choice-bonus" id="bonus-prompt"(.*?)</div>',
                           page, re.S)
        assert prompt is not None
        hexes = sorted({t.split()[2] for t, c in costs.items() if t.split()[1] == "lay"
                        and c["kind"] not in ("normal", "stadtbahn")})
        assert re.findall(r'data-hex="([^"]+)"', prompt.group(1)) == hexes
        assert f'value="L{line} skip"' in page
        seen.add(f"bonus {turn['bonus']}")
    if run is None:
        return
    expected = [(f"{c}.{loc}", str(part)) for (c, loc), part in zip(run.stops, run.parts,
                                                                  strict=True)]
    if run.landmark_bonus:
        expected.append(("bonus", f"+{run.landmark_bonus}"))
        seen.add("landmark bonus")
    if run.maintenance:
        expected.append(("Tram", f"{run.maintenance:+d}"))
        seen.add("maintenance")
    expected.append(("Total", str(run.total)))
    assert _rows(page, "run-table") == expected
    if "claim" in seen or len(run.stops) < 3 or view["ruleset"] == "18xx.games":
        return
    worse = None
    for sub in (run.stops[:-1], run.stops[1:]):
        text = "-".join(f"{c}.{loc}" for c, loc in sub)
        try:
            if claimed_run(typed, line, text).total < run.total:
                worse = text
                break
        except Exception:
            continue
    if worse is None:
        return
    valued = client.get(f"/g/{gid}/route?line={line}&route={worse}")
    assert valued.status_code == 200
    assert valued.json()["run"] == claimed_run(typed, line, worse).to_json()
    first = f"{run.stops[0][0]}.{run.stops[0][1]}"
    refused = client.get(f"/g/{gid}/route?line={line}&route={first}")
    assert refused.status_code == 422 and refused.json()["rule"] == "IX.7"
    body = {"n": str(state["n"]), "act_token": token, "token": token,
            "action": f"L{line} run {worse}"}
    after = client.post(f"/g/{gid}/move", content=urlencode(body), headers=FORM)
    claimed = claimed_run(typed, line, worse).total
    assert (f"<code>IX.8: the claimed route earns {claimed}; the best earns "
            f"{run.total}</code>") in after.text
    assert client.get(f"/api/games/{gid}").json()["n"] == state["n"]
    seen.add("claim")


@pytest.mark.parametrize(("name", "wanted"), [
    ("1840-3p-full-map.json", {"claim", "danube 40", "bonus lay_additional_yellow_tile"}),
    ("1840-2p-imported-18xx-games-133875.json",
     {"landmark bonus", "maintenance", "bonus lay_purple_railway_station_tile"}),
])
def test_run_table_costs_bonus_prompt_and_claimed_routes_are_the_engines(
        sqlite_client, name: str, wanted: set[str]) -> None:
    """IX.8: beside *Run the best route* the page lists each stop's value, the landmark bonus,
    the tram's maintenance (Table 7) and the total, as the exact router has them; every lay,
    station and removal carries what the treasury pays (R-LR-10's Danube 40, IX.6, R-LR-5);
    a pending Stadtbahn bonus (R-LR-1) is prompted with exactly its legal hexes and the skip;
    a route claimed stop by stop is valued by ``/g/ID/route`` as the engine does, an invalid
    one refused with its rule (IX.7), and a worse one than the best is refused by the engine
    when it is played (IX.8), the page showing the rule and the message."""
    seen: set[str] = set()

    def want(gid: str, token: str, state: dict) -> bool:
        turn = state["view"]["round_info"].get("line_turn")
        if turn and not turn.get("offer") and f'L{turn["line"]} run' in state["legal"]:
            _check_line_turn(sqlite_client, gid, token, state, seen)
        return wanted <= seen

    _replay_until(sqlite_client, name, want)


def test_viii_5_1_the_dividend_list_defaults_to_the_full_payout(sqlite_client) -> None:
    """A long dividend list (a select) starts on the largest payout, not on withholding,
    which would drop the share price: a default must not cost money."""
    found: list[str] = []

    def want(gid, token, state) -> bool:
        pays = [a for a in state["legal"] if a.split()[1] == "pay"]
        if len(pays) <= 6:
            return False
        page = sqlite_client.get(f"/g/{gid}?token={token}").text
        select = re.search(r'<select name="action" data-kind="dividend">(.*?)</select>', page, re.S)
        assert select is not None
        chosen = re.findall(r'<option value="([^"]+)" selected>', select.group(1))
        most = max(int(a.split()[-1]) for a in pays if a.split()[-1].isdigit())
        assert [html.unescape(c) for c in chosen] == [a for a in pays if a.endswith(f" {most}")]
        assert most > 0
        found.append(chosen[0])
        return True

    _replay_until(sqlite_client, "1840-4p.json", want)
    assert found


def test_every_page_names_its_icon_and_the_icon_is_served(sqlite_client) -> None:
    page = sqlite_client.get("/").text
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    icon = sqlite_client.get("/static/favicon.svg")
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")


def test_r_lr_5_a_removal_names_the_stadtbahn_owner_where_a_line_shares_the_place() -> None:
    """Issue 23, item 5: a line's marker and Stadtbahn V's on one place; the removal is of
    V's marker (only Stadtbahn markers are removed, R-LR-5), never "L11's"."""
    from tramways.g1840.view_types import StadtbahnView
    from tramways.server.web.g1840_table import _places

    stadtbahn = {"V": StadtbahnView(id="V", price=60, ipo=100, pool=0, last_run=0,
                                    markers=("F6.0",))}
    found = _places(["L11 remove F6.0", "L11 station F6.0"], stadtbahn)
    assert [(o["kind"], o["owner"]) for o in found["F6"]] == [("remove", "V"), ("station", "")]


def test_1840_created_page_and_default_names_in_the_page_language(sqlite_client) -> None:
    """Issue 23, item 12: a seat left without a name is named in the page's language, and the
    created page says what a spectator of 1840 sees (everything) in it."""
    page = sqlite_client.post("/new1840?lang=de", content=urlencode(
        {"players": "3", "map": "full", "seat1": "human", "seat2": "human",
         "seat3": "bot:rule"}), headers=FORM)
    assert page.status_code == 200
    assert "in 1840 ist alles öffentlich" in page.text
    assert "without seeing a hand" not in page.text
    link = re.search(r'value="http://testserver/g/([^"?]+)', page.text)
    assert link is not None
    view = sqlite_client.get(f"/api/games/{link.group(1)}").json()["view"]
    assert [p["name"] for p in view["players"]] == ["Spieler 1", "Spieler 2", "Spieler 3"]


def test_statistics_per_company_round_are_the_engines_figures() -> None:
    """Issue 23, item 10 (VIII.5.1, X.2): replaying a recorded game, before each dividend the
    company's revenue is what its lines ran, and after it the amount and the price are those
    the statistics read from the log (dividends a director chose; the others are paid by the
    engine and read alike)."""
    from pathlib import Path

    from tramways.core import GameRecord, Session
    from tramways.g1840.actions import Dividend
    from tramways.g1840.view_types import as_view1840
    from tramways.server.web.g1840_stats import statistics

    record = GameRecord.load(str(Path(__file__).resolve().parents[2] / "golden" / "1840-4p.json"))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    expected: dict[tuple[str, str], tuple[int, int, int]] = {}
    for text in record.actions:
        action = session.parse(text)
        before = as_view1840(session.state.view(None))
        session.play(text)
        if isinstance(action, Dividend):
            after = as_view1840(session.state.view(None))
            expected[(before.round, action.company)] = (
                before.companies[action.company].revenue, action.amount,
                after.companies[action.company].price)
    stats = statistics(session.log, as_view1840(session.state.view(None)))
    found = {(r, cid): (c.revenue, c.paid, c.price) for cid, cells in stats.companies.items()
             for r, c in zip(stats.rounds, cells, strict=False) if c.paid is not None}
    assert len(expected) >= 4
    assert {k: found.get(k) for k in expected} == expected
    assert set(stats.stadtbahn) >= {"W", "V"}


def _end_text(page: str) -> list[str]:
    """The end page's standing, one line a place, as a reader sees it (tags dropped)."""
    section = re.search(r'<section class="result">.*?<ol>(.*?)</ol>', page, re.S)
    assert section is not None
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", li)).split())
            for li in re.findall(r"<li[^>]*>(.*?)</li>", section.group(1), re.S)]


def test_r_end_1_equal_wealth_shares_a_place_on_the_end_page(sqlite_client) -> None:
    """XI / R-END-1: equal wealth shares a place and the next place is skipped; the page
    prints the places of the engine's result (``Outcome.places``), not a running count.
    A real game (seed 5, Anna first): Anna buys PR for 50 (its face value 10: her wealth
    220), then Bert resigns in a game whose resignation ends it (docs/async.md: the
    resigner last): Cora and Dora share the first place with 260 each, Anna is third."""
    client = sqlite_client
    _, links = _create(client, players=4, on_resign="end", name1="Anna", name2="Bert",
                       name3="Cora", name4="Dora")
    tokens = [_token(x) for x in links[:4]]
    gid = links[0].split("/g/")[1].split("?")[0]
    for n in range(4):  # Anna opens PR at 50, the three others pass on it in turn
        seat = client.get(f"/api/games/{gid}").json()["to_act"][0]
        action = "P1 bid PR 50" if n == 0 else f"P{seat} pass"
        reply = client.post(f"/api/games/{gid}/moves?token={tokens[seat - 1]}",
                            json={"n": n, "action": action})
        assert reply.status_code == 200, reply.text
    resigned = client.post(f"/api/games/{gid}/resign",
                           headers={"Authorization": f"Bearer {tokens[1]}"}, json={})
    assert resigned.status_code == 200, resigned.text
    result = client.get(f"/api/games/{gid}").json()["view"]["result"]
    assert result["wealth"] == [220, 260, 260, 260] and result["rank"] == [3, 4, 1, 1]
    page = client.get(f"/g/{gid}?token={tokens[0]}").text
    assert _end_text(page) == ["1. Cora: 260", "1. Dora: 260", "3. Anna: 220",
                               "4. Bert: 260 (resigned)"]
    german = client.get(f"/g/{gid}", headers={"Accept-Language": "de"}).text
    assert _end_text(german) == ["1. Cora: 260", "1. Dora: 260", "3. Anna: 220",
                                 "4. Bert: 260 (aufgegeben)"]
