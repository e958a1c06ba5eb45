"""The 18xx.games ruleset switches (RULINGS.md X-1..X-8, and X-9 proven by the oracle)."""

from __future__ import annotations

import pytest

from tramways.g1840.interop.ruleset import (
    RULESET_18XX,
    SWITCH_IDS,
    switch,
    uses_18xx_ruleset,
)

from .helpers import cached_trace


def test_switches_are_x1_to_x26_with_a_branch_each():
    """X-16 and X-21 come from the oracle's cases, X-22..X-26 from our games in the site's
    engine (issue 22)."""
    assert sorted(SWITCH_IDS, key=lambda s: int(s[2:])) == [f"X-{n}" for n in range(1, 27)]
    for sid in SWITCH_IDS:
        s = switch(sid)
        assert s.change and s.branch and s.oracle and s.replaces
    with pytest.raises(KeyError):
        switch("X-99")


def test_uses_18xx_ruleset():
    assert uses_18xx_ruleset({"ruleset": RULESET_18XX}) is True
    assert uses_18xx_ruleset({"ruleset": "rules"}) is False
    assert uses_18xx_ruleset({}) is False
    with pytest.raises(ValueError, match="unknown ruleset"):
        uses_18xx_ruleset({"ruleset": "house"})


def test_x9_right_move_at_a_row_end_continues_right_in_the_row_above(oracle_dir):
    """Action 314 (CR5): GWStStB pays 680 (4 steps, Table 6) from 70 (row 4, column 2).
    Row 4 has 5 cells: 75, 81, then up to 91 (row 3, column 4), then right to 98.
    R-CR-2 (one space up per remaining step) would end on 101 (row 2, column 4)."""
    trace = cached_trace(oracle_dir / "2player.trace.jsonl")
    before, after = trace.entries[313].figures, trace.entries[314].figures
    assert (before["company:GW.share_cell"], before["company:GW.share_price"]) == ("4,2", 70)
    assert (after["company:GW.share_cell"], after["company:GW.share_price"]) == ("3,5", 98)


def test_x4_sold_out_rise_of_a_stadtbahn_company(oracle_dir):
    """Action 333 ends SR5 with every G share held by players: G rises 91 -> 101."""
    trace = cached_trace(oracle_dir / "2player.trace.jsonl")
    before, after = trace.entries[332].figures, trace.entries[333].figures
    assert before["stadtbahn:G.unsold"] == 0 and "stadtbahn:G.pool" not in before
    assert (before["stadtbahn:G.share_price"], after["stadtbahn:G.share_price"]) == (91, 101)
