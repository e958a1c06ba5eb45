"""Property: the legal lists and the checks agree on random boards (IX.4, IX.5, IX.6).

Random lines lay random legal tiles (normal lays, Stadtbahn tiles, bonus tiles) and place random
legal markers on random seeds; after every lay each listed lay is accepted by its check (and
goes onto a copy of the board without error), and sampled unlisted (hex, tile, rotation)
triples - many of them near the line's network - are refused.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.legality import (
    BONUS_STATION,
    SimpleBuildState,
    TileLay,
    bonus_action,
    check_bonus_lay,
    check_stadtbahn_lay,
    check_station,
    check_tile_lay,
    legal_bonus_lays,
    legal_stadtbahn_lays,
    legal_station_placements,
    legal_tile_lays,
)

PHASE_AT = ((0, "yellow"), (8, "green"), (16, "brown"), (22, "grey"))
STEPS = 28


def phase_for(step: int) -> str:
    return [phase for start, phase in PHASE_AT if step >= start][-1]


def _consistent(lays: list[TileLay], board: Board, check, rng: random.Random) -> None:
    for lay in rng.sample(lays, min(len(lays), 12)):
        assert check(lay.coord, lay.tile_id, lay.rotation) == lay
        lay.apply(board.copy())


def _refuses_unlisted(lays: list[TileLay], coords: list[str], check, rng: random.Random,
                      tries: int) -> None:
    listed = {(lay.coord, lay.tile_id, lay.rotation) for lay in lays}
    tile_ids = sorted(tiles())
    for _ in range(tries):
        triple = (rng.choice(coords), rng.choice(tile_ids), rng.randrange(6))
        if triple in listed:
            continue
        with pytest.raises(IllegalAction):
            check(*triple)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), layout=st.sampled_from(["full", "two_player", "small3"]))
def test_legality_property_lists_and_checks_agree(seed: int, layout: str) -> None:
    rng = random.Random(seed)
    board = Board(load_layout(layout))
    state = SimpleBuildState(board, "yellow")
    lines = sorted(board.layout.home_bases)
    all_coords = sorted(board.layout.hexes)
    for step in range(STEPS):
        state.phase = phase_for(step)
        line = rng.choice(lines)
        first_turn = False
        if not state.has_operated(line):
            homes = legal_station_placements(state, line)
            if not homes:
                continue
            home = rng.choice(homes)
            assert check_station(state, line, home.coord, home.location) == home
            board.place_marker(home.coord, home.location, line)
            state.operated.add(line)
            first_turn = True
        laid: set[str] = set()

        lays = legal_tile_lays(state, line, first_turn=first_turn)

        def check(coord: str, tile_id: str, rot: int, _ft: bool = first_turn,
                  _line: int = line) -> TileLay:
            return check_tile_lay(state, _line, coord, tile_id, rot, first_turn=_ft)

        _consistent(lays, board, check, rng)
        near = sorted({lay.coord for lay in lays} | set(board.placed()) | {
            board.layout.home_bases[line]})
        _refuses_unlisted(lays, near, check, rng, 60)
        _refuses_unlisted(lays, all_coords, check, rng, 20)
        if lays:
            lay = rng.choice(lays)
            lay.apply(board)
            laid.add(lay.coord)

        sb_lays = legal_stadtbahn_lays(state, line)

        def check_sb(coord: str, tile_id: str, rot: int, _line: int = line) -> TileLay:
            return check_stadtbahn_lay(state, _line, coord, tile_id, rot)

        _consistent(sb_lays, board, check_sb, rng)
        _refuses_unlisted(sb_lays, all_coords, check_sb, rng, 20)
        if sb_lays and rng.random() < 0.5:
            sb = rng.choice(sb_lays)
            sb.apply(board)
            laid.add(sb.coord)
            bonus = bonus_action(state, sb.coord)
            assert bonus is not None
            if bonus == BONUS_STATION:
                free = legal_station_placements(state, line, free=True)
                assert all(p.cost == 0 for p in free)
            else:
                bonus_lays = legal_bonus_lays(state, line, bonus, laid_this_turn=laid)

                def check_bonus(coord: str, tile_id: str, rot: int, _line: int = line,
                                _bonus: str = bonus, _laid: set[str] = laid) -> TileLay:
                    return check_bonus_lay(state, _line, _bonus, coord, tile_id, rot,
                                           laid_this_turn=_laid)

                _consistent(bonus_lays, board, check_bonus, rng)
                bonus_near = sorted({b.coord for b in bonus_lays} | set(near))
                _refuses_unlisted(bonus_lays, bonus_near, check_bonus, rng, 30)
                if bonus_lays:
                    rng.choice(bonus_lays).apply(board)

        places = legal_station_placements(state, line)
        listed = {(p.coord, p.location) for p in places}
        for p in places:
            assert check_station(state, line, p.coord, p.location) == p
        for _ in range(15):
            coord = rng.choice(all_coords)
            for loc in board.locations(coord):
                if (coord, loc.id) not in listed:
                    with pytest.raises(IllegalAction):
                        check_station(state, line, coord, loc.id)
        if places and rng.random() < 0.6:
            p = rng.choice(places)
            board.place_marker(p.coord, p.location, line)
