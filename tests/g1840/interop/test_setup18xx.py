"""The random set-up of an 18xx.games record, against the oracle (X-1, R-SETUP-2, R-CR-8)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.setup18xx import (
    ENGINE_COMPANY_ID,
    TRAM_COMPANIES_18XX,
    compute_setup,
    layout_of,
    lines_in_game,
)


def _trace_states(oracle_dir):
    with (oracle_dir / "2player.trace.jsonl").open(encoding="utf-8") as fh:
        header = json.loads(fh.readline())
        states = [json.loads(line) for line in fh]
    return header, [s["state"] for s in states if s["processed"]]


def test_x1_oracle_setup_reproduced(oracle_dir):
    export = load_export(oracle_dir / "2player.json")
    setup = compute_setup(export.seed, len(export.players))
    header, _ = _trace_states(oracle_dir)
    initial = header["initial_state"]
    assert setup.display == (4, 5, 18)
    assert [str(n) for n in setup.display] == initial["game"]["tram_lines_available"]
    assert setup.tram_companies == ("GWStStB", "WT")
    assert list(setup.tram_companies) == list(initial["tram_companies"])
    assert setup.later_draws == ((2, 15, 3), (1, 7, 6))


def test_r_cr_8_oracle_refills_are_the_later_draws(oracle_dir):
    """Every line that joins ``tram_lines_available`` during the game is the next card of the
    computed deck, in draw order."""
    export = load_export(oracle_dir / "2player.json")
    setup = compute_setup(export.seed, 2)
    _, states = _trace_states(oracle_dir)
    shown: list[str] = [str(n) for n in setup.display]
    joined: list[int] = []
    for state in states:
        for line in state["game"]["tram_lines_available"]:
            if line not in shown:
                shown.append(line)
                joined.append(int(line))
    assert joined == [2, 15, 3, 1, 7, 6]
    assert tuple(joined) == setup.line_deck
    assert setup.refill(1) == (2, 15, 3) and setup.refill(2) == (1, 7, 6)
    assert setup.refill(3) == ()


def test_engine_setup_maps_company_ids():
    setup = compute_setup(133875, 2)
    assert setup.engine_setup() == {
        "line_display": [4, 5, 18],
        "line_deck": [2, 15, 3, 1, 7, 6],
        "tram_companies": ["GW", "WT"],
        "playing_order": [0, 1],
    }
    assert set(ENGINE_COMPANY_ID) == set(TRAM_COMPANIES_18XX)


def test_xii_xiii_lines_in_game_match_the_reference_layouts(shared_dir):
    layouts = json.loads((shared_dir / "reference/1840/map.json").read_text("utf-8"))["layouts"]
    names = {"full": "full", "small3": "three_player_small", "two_player": "two_player"}
    for players, small in [(2, False), (3, True), (3, False), (4, False), (6, False)]:
        layout = layout_of(players, small)
        assert list(lines_in_game(players, small)) == layouts[names[layout]]["lines_in_game"]


def test_lines_in_game_match_the_engine_data_when_present():
    entities = pytest.importorskip("tramways.g1840.entities")
    for players, small in [(2, False), (3, True), (4, False)]:
        layout = entities.layout_name(players, small)
        assert list(lines_in_game(players, small)) == entities.lines_in(layout)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**35), st.integers(min_value=2, max_value=6),
       st.booleans())
def test_r_setup_2_every_line_card_is_shown_once_line_2_not_first(seed, players, small):
    small = small and players == 3
    setup = compute_setup(seed, players, small)
    assert sorted(setup.line_order) == list(setup.lines_in_game)
    assert 2 not in setup.display
    assert len(setup.display) == players + 1
    assert all(len(b) == players + 1 for b in setup.later_draws[:-1])
    assert 1 <= len(setup.later_draws[-1]) <= players + 1
    assert len(set(setup.tram_companies)) == players
    assert set(setup.tram_companies) <= set(TRAM_COMPANIES_18XX)


def test_compute_setup_refuses_a_bad_player_count():
    with pytest.raises(ValueError):
        compute_setup(1, 7)
