"""Issue 23, items 9 and 10 on the 1840 page, in process: the log's lines link to their
positions, a past position steps by round, and the game statistics show each player's worth
after each Company Round (XI / R-END-1), the last column the engine's final result."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from tramways.core import GameRecord, Session  # noqa: E402
from tramways.g1840.view_types import as_view1840  # noqa: E402
from tramways.server.web.g1840_log import RoundStart, round_starts, round_steps  # noqa: E402
from tramways.server.web.g1840_stats import Sample, company_round_ends  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def _load(service, record: GameRecord, upto: int | None = None) -> tuple[str, list[str]]:
    """The record's first ``upto`` moves played into the server (each by the seat to act)."""
    created = service.create("1840", dict(record.settings),
                             ["human"] * int(record.settings["players"]), seed=record.seed)
    gid = created["id"]
    session = Session.from_record(record.model_copy(update={"actions": []}))
    for n, text in enumerate(record.actions[:upto]):
        seat = session.state.seats_for(session.parse(text))[0]
        session.play(text)
        service.move(gid, seat + 1, n, text)
    return gid, [s["token"] for s in created["seats"]]


def _replayed(record: GameRecord) -> tuple[Session, list[int | None], list[list[int]]]:
    """The record replayed: its log, the position after the move that wrote each line, and
    each player's value after every move."""
    session = Session.from_record(record.model_copy(update={"actions": []}))
    marks: list[int | None] = []
    values = [[p.value for p in as_view1840(session.state.view(None)).players]]
    for k, text in enumerate(record.actions, start=1):
        before = len(session.log)
        session.play(text)
        marks += [k] * (len(session.log) - before)
        values.append([p.value for p in as_view1840(session.state.view(None)).players])
    return session, marks, values


def test_round_steps_go_to_the_previous_and_next_rounds_start() -> None:
    starts = [RoundStart("", 0), RoundStart("SR1", 51), RoundStart("CR1", 62),
              RoundStart("LR1a", 77)]
    inside = round_steps(starts, 70)
    assert (inside.previous, inside.next, inside.current) == (starts[2], starts[3], "CR1")
    at_start = round_steps(starts, 62)
    assert (at_start.previous, at_start.next, at_start.current) == (starts[1], starts[3], "CR1")
    assert round_steps(starts, 0).previous is None and round_steps(starts, 80).next is None
    assert company_round_ends(starts, 80, over=False) == [Sample("CR1", 77)]
    assert company_round_ends(starts, 70, over=False) == []
    assert company_round_ends(starts[:3], 70, over=True) == [Sample("CR1", 70)]


@pytest.fixture(scope="module")
def golden_4p() -> GameRecord:
    return GameRecord.load(str(GOLDEN / "1840-4p.json"))


def test_xi_r_end_1_worth_after_each_company_round_and_the_final_result(sqlite_client,
                                                                        golden_4p) -> None:
    """Every column of the worth table is the players' value (XI / R-END-1) after that
    Company Round's last move in the replayed record; the last column is the engine's final
    result; each Company Round's column header links to its position; the chart has a line
    per player."""
    session, marks, values = _replayed(golden_4p)
    result = session.state.result()
    service = sqlite_client.app.state.service
    gid, tokens = _load(service, golden_4p)
    page = sqlite_client.get(f"/g/{gid}?token={tokens[0]}").text
    table = re.search(r'<table class="data stats" id="worth-table">(.*?)</table>', page, re.S)
    assert table is not None
    heads = re.findall(r'<th data-n="(\d+)">(.*?)</th>', table.group(1))
    ends = company_round_ends(round_starts(session.log, marks), len(golden_4p.actions), True)
    assert [h[0] for h in heads] == [str(s.n) for s in ends] + [str(len(golden_4p.actions))]
    assert [re.sub(r"<[^>]+>", "", h[1]) for h in heads] == [f"CR{i}" for i in range(1, 7)] + [
        "End"]
    assert f'href="/g/{gid}?token={tokens[0]}&amp;at={ends[0].n}"' in heads[0][1]
    for seat in range(4):
        row = re.search(rf'<tr data-seat="{seat}">(.*?)</tr>', table.group(1), re.S)
        assert row is not None
        cells = [int(c) for c in re.findall(r"<td>(-?\d+)</td>", row.group(1))]
        assert cells == [values[s.n][seat] for s in ends] + [result["wealth"][seat]]
    assert [r[seat] for r in [result["wealth"]] for seat in range(4)] == [1026, 586, 756, 937]
    chart = re.search(r'id="chart-worth".*?</figure>', page, re.S)
    assert chart is not None and chart.group(0).count('<polyline class="series"') == 4


def test_item_9_log_lines_link_to_positions_and_a_past_position_steps_by_round(
        sqlite_client, golden_4p) -> None:
    session, marks, _values = _replayed(golden_4p)
    service = sqlite_client.app.state.service
    gid, tokens = _load(service, golden_4p, upto=100)
    page = sqlite_client.get(f"/g/{gid}?token={tokens[0]}").text
    links = re.findall(r'<li[^>]*><a href="([^"]+)" data-at="(\d+)"[^>]*>(.*?)</a></li>', page)
    assert len(links) == len(marks[:len(links)]) and links
    from tramways.server.web.g1840_log import log_line
    from tramways.server.web.i18n import translations

    say = translations("en").gettext
    wrote: dict[int, list[str]] = {}
    for line, k in zip(session.log, marks, strict=True):
        if k <= 100:
            wrote.setdefault(k, []).append(log_line(line, say))
    shown: dict[int, list[str]] = {}
    for href, k, text in links:
        assert html.unescape(href) == f"/g/{gid}?token={tokens[0]}&at={k}"
        shown.setdefault(int(k), []).append(html.unescape(text))
    assert {k: v[::-1] for k, v in shown.items()} == wrote  # newest first on the page
    # a past position inside CR1: the round named, previous/next round at the rounds' starts
    starts = {s.round: s.n for s in round_starts(session.log, marks)}
    inside = starts["CR1"] + 2
    past = sqlite_client.get(f"/g/{gid}?token={tokens[0]}&at={inside}").text
    assert "Round CR1" in past
    assert f'id="prev-round" href="/g/{gid}?token={tokens[0]}&amp;at={starts["CR1"]}"' in past
    assert f'id="next-round" href="/g/{gid}?token={tokens[0]}&amp;at={starts["LR1a"]}"' in past
    # the lines of the move that made this position are marked
    here = re.findall(r'<li class="here"><a[^>]*data-at="(\d+)"', past)
    assert here and set(here) == {str(inside)}
