"""Property: the memoised listings equal a from-scratch evaluation (IX.4, IX.5, IX.6,
R-LR-1..3, R-LR-11, R-LR-12).

``legal_tile_lays`` lists lays from per-hex memos and ``legal_stadtbahn_lays`` from per-hex
kept lays (``tramways.g1840.legality.listing``, ``.stadtbahn``). On random boards (random legal
lays of random lines, normal and Stadtbahn tiles, markers, upgrades through the phases, copies
of the board that diverge, and a supply running out) every listing must equal the evaluator run
over every candidate of every reached hex (``scratch_tile_lays``) and every Stadtbahn option
checked one by one, and every station placement ``check_station`` accepts, in the same order:
for every line, mode, first turn and tiles laid this turn.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.legality import (
    SimpleBuildState,
    StationPlacement,
    TileLay,
    check_purple_lay,
    check_stadtbahn_lay,
    check_station,
    check_tile_lay,
    legal_purple_lays,
    legal_red_lays,
    legal_stadtbahn_lays,
    legal_station_placements,
    legal_tile_lays,
    scratch_tile_lays,
    stadtbahn,
    stadtbahn_frontier,
    tiles,
)
from tramways.g1840.legality.connection import Connection

PHASES = ("yellow", "green", "brown", "grey")
MODES = ("normal", "bonus_yellow", "bonus_upgrade")


def scratch_stadtbahn_lays(state: SimpleBuildState, line: int) -> list[TileLay]:
    """Every Stadtbahn option of every open end through ``check_stadtbahn_lay`` (IX.4,
    R-LR-3, R-LR-11)."""
    board = state.board
    out = []
    for company in board.layout.stadtbahn_lines:
        for coord in stadtbahn_frontier(board, company):
            sb = board.layout.hexes[coord].stadtbahn
            assert sb is not None
            for tile_id, rotations in sorted(sb.yellow_tile_options.items()):
                for rotation in rotations:
                    try:
                        out.append(check_stadtbahn_lay(state, line, coord, tile_id, rotation))
                    except IllegalAction:
                        continue
    return out


def scratch_purple_lays(state: SimpleBuildState, line: int) -> list[TileLay]:
    """``check_purple_lay`` on every purple tile in every rotation on every empty railway
    station hex (IX.4, R-LR-3, R-LR-11)."""
    board = state.board
    out = []
    for coord, hexdef in sorted(board.layout.hexes.items()):
        if hexdef.area != "railway_station" or board.tile(coord) is not None:
            continue
        for tile_id in stadtbahn._tiles_of_colour("purple"):
            for rotation in range(6):
                try:
                    out.append(check_purple_lay(state, line, coord, tile_id, rotation))
                except IllegalAction:
                    continue
    return out


def scratch_station_placements(state: SimpleBuildState, line: int,
                                free: bool) -> list[StationPlacement]:
    """``check_station`` on every interchange circle of the hexes the line reaches, its home
    before it has operated (IX.6, R-LR-4, R-LR-12)."""
    board = state.board
    if not state.has_operated(line):
        home = board.layout.home_bases.get(line)
        coords = [home] if home is not None else []
    else:
        coords = sorted({c for c, _ in board.reach(line).locations})
    out = []
    for coord in coords:
        for loc in board.locations(coord):
            if loc.is_interchange:
                try:
                    out.append(check_station(state, line, coord, loc.id, free=free))
                except IllegalAction:
                    continue
    return out


def assert_listings_equal(state: SimpleBuildState, rng: random.Random) -> None:
    board = state.board
    placed = sorted(board.placed())
    for line in sorted(board.layout.home_bases):
        for mode in MODES:
            first = rng.random() < 0.3
            laid = rng.sample(placed, min(len(placed), rng.randrange(3)))
            got = legal_tile_lays(state, line, first_turn=first, laid_this_turn=laid, mode=mode)
            want = scratch_tile_lays(state, line, first_turn=first, laid_this_turn=laid,
                                     mode=mode)
            assert got == want, (line, mode, first, laid)
        assert legal_stadtbahn_lays(state, line) == scratch_stadtbahn_lays(state, line)
        assert legal_red_lays(state, line) == stadtbahn._red_lays(state, line)
        assert legal_purple_lays(state, line) == stadtbahn._purple_lays(state, line) \
            == scratch_purple_lays(state, line)
        for free in (False, True):
            assert legal_station_placements(state, line, free=free) == \
                scratch_station_placements(state, line, free), (line, free)


def play_random_lay(state: SimpleBuildState, rng: random.Random) -> None:
    board = state.board
    line = rng.choice(sorted(board.layout.home_bases))
    if not state.has_operated(line):
        homes = legal_station_placements(state, line)
        if homes:
            home = rng.choice(homes)
            board.place_marker(home.coord, home.location, line)
            state.operated.add(line)
        return
    lays = legal_tile_lays(state, line) + legal_stadtbahn_lays(state, line)
    if lays:
        rng.choice(lays).apply(board)
    if rng.random() < 0.3:
        stations = legal_station_placements(state, line)
        if stations:
            pick = rng.choice(stations)
            board.place_marker(pick.coord, pick.location, line)


def use_up(state: SimpleBuildState, rng: random.Random) -> None:
    """Lay one listed tile on empty hexes (no rules check) until none is left in the supply
    (R-LR-11): the listings must drop it everywhere."""
    board = state.board
    listed = sorted({lay.tile_id for line in board.layout.home_bases
                     for lay in legal_tile_lays(state, line)})
    if not listed:
        return
    tile_id = rng.choice(listed)
    for coord, hexdef in sorted(board.layout.hexes.items()):
        if board.available(tile_id) <= 0:
            return
        if board.tile(coord) is None and hexdef.laying_allowed and not board.markers(coord):
            board.lay(coord, tile_id, 0)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_ix5_one_board_listed_in_every_phase_back_and_forth_equals_scratch(seed: int) -> None:
    """The per-hex memo keeps a hex's lays across phases where the phase cannot change them
    (an empty hex; a tile whose next colour's availability is the same): listing one board in
    the phases grey, yellow, green, brown, yellow must give each phase's own lays (IX.5)."""
    rng = random.Random(seed)
    state = SimpleBuildState(Board(load_layout("full")), "green")
    for _ in range(30):
        play_random_lay(state, rng)
    for phase in ("grey", "yellow", "green", "brown", "yellow"):
        state.phase = phase
        for line in sorted(state.board.layout.home_bases):
            if state.has_operated(line):
                for mode in MODES:
                    assert legal_tile_lays(state, line, mode=mode) == scratch_tile_lays(
                        state, line, mode=mode), (phase, line, mode)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), layout=st.sampled_from(["full", "two_player", "small3"]))
def test_ix4_ix5_incremental_lays_equal_scratch_on_random_boards(seed: int, layout: str) -> None:
    rng = random.Random(seed)
    state = SimpleBuildState(Board(load_layout(layout)), "yellow")
    for step in range(36):
        state.phase = PHASES[min(3, step // 8)]
        play_random_lay(state, rng)
        if step % 6 == 5:
            assert_listings_equal(state, rng)
            # a copy diverges: both boards keep answering for themselves
            other = SimpleBuildState(state.board.copy(), state.phase, set(state.operated),
                                     {line for line in state.board.layout.home_bases
                                      if rng.random() < 0.2})
            play_random_lay(other, rng)
            assert_listings_equal(other, rng)
            assert_listings_equal(state, rng)
    use_up(state, rng)
    assert_listings_equal(state, rng)


def test_ix6_r_lr_12_listed_placements_keep_home_circles_as_the_check_does() -> None:
    """Line 7 reaches G15, line 5's home with one circle: the listing leaves it out while line
    5 may still operate (IX.6), lists it once line 5 cannot (R-LR-12) or the green tile gives
    G15 a second circle - as ``check_station`` decides, circle by circle."""
    state = SimpleBuildState(Board(load_layout("full")), "yellow")
    state.board.place_marker("F18", 0, 7)
    state.operated.add(7)
    state.board.lay("F18", "57", 1)
    state.board.lay("F16", "58", 4)
    state.board.lay("G15", "5", 2)

    def listed() -> list[tuple[str, int]]:
        got = legal_station_placements(state, 7)
        assert got == scratch_station_placements(state, 7, False)
        return [(p.coord, p.location) for p in got]

    assert ("G15", 0) not in listed()
    state.retired.add(5)
    assert ("G15", 0) in listed()
    state.retired.clear()
    assert ("G15", 0) not in listed()
    state.phase = "green"
    state.board.lay("G15", "14", 2)
    assert ("G15", 0) in listed()


def assert_floor_answers_hold(board: Board) -> list[int]:
    """What the board knows without walking (``surely_reaches``, ``Connection.surely_joins``)
    holds for the reach walked from scratch, on every location and border of every hex the
    line reaches and of their neighbours; returns [yes answers, questions]."""
    counts = [0, 0]
    for line in sorted(board.layout.home_bases):
        fresh = board.walk(board.line_markers(line), line)
        conn = Connection(board, line)
        around = set(fresh.hexes)
        around.update(nb for c in fresh.hexes for nb in board._nb[c] if nb is not None)
        for coord in sorted(around):
            for loc in board.locations(coord):
                sure = board.surely_reaches(line, coord, loc.id)
                assert not sure or (coord, loc.id) in fresh.locations, (line, coord, loc.id)
                counts[0] += sure
                counts[1] += 1
            for edge in range(6):
                olds = [loc.id for loc in board.locations(coord)]
                sure = conn.surely_joins(coord, frozenset({edge}), olds)
                assert not sure or (coord, edge) in fresh.edges or any(
                    (coord, old) in fresh.locations for old in olds), (line, coord, edge)
    return counts


def assert_reaches_equal_fresh_walks(board: Board) -> None:
    for owner in [*sorted(board.layout.home_bases), *sorted(board.layout.stadtbahn_companies)]:
        kept = board.reach(owner)
        fresh = board.walk(board.line_markers(owner), owner)
        assert kept == fresh, owner
        assert (kept.expanded, kept.entered) == (fresh.expanded, fresh.entered), owner
        assert kept.by_hex() == fresh.by_hex(), owner  # the per-hex masks carried over
        assert kept.bits == fresh.bits, owner  # walk state included, hex by hex


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), layout=st.sampled_from(["full", "two_player", "small3"]))
def test_ix2_reach_carried_over_legal_lays_equals_a_fresh_walk(seed: int, layout: str) -> None:
    """IX.2: a legal lay (``TileLay.apply``) carries every cached reach that touched the hex
    over it, and a line's own marker adds a start to it (when next asked; also over several
    lays and markers); after one to three lays and markers every line's and Stadtbahn
    company's reach equals a walk from scratch, walk state included (the per-hex masks of
    the carried reach, int for int), on the board and on a copy that diverges.  Before each walk, what the board answers from the reaches it keeps
    (``surely_reaches``, ``surely_joins``) holds for the walk from scratch."""
    rng = random.Random(seed)
    state = SimpleBuildState(Board(load_layout(layout)), "yellow")
    for step in range(40):
        state.phase = PHASES[min(3, step // 10)]
        assert_reaches_equal_fresh_walks(state.board)  # every reach cached before the lays
        for _ in range(rng.randrange(1, 4)):  # one lay carried over, or more
            play_random_lay(state, rng)
        assert_floor_answers_hold(state.board)
        if step % 10 == 9:
            other = SimpleBuildState(state.board.copy(), state.phase, set(state.operated))
            play_random_lay(other, rng)
            assert_reaches_equal_fresh_walks(other.board)
    assert_reaches_equal_fresh_walks(state.board)


def test_ix2_ix6_what_the_board_knows_without_walking_holds_in_a_game() -> None:
    """In a 3-player selfplay game, at every tenth position, ``surely_reaches`` and
    ``surely_joins`` (answered from the reaches the board keeps, without walking) hold for the
    reach walked from scratch, and answer yes for many locations."""
    from tramways.core.selfplay import play_game

    totals = [0, 0]
    seen = [0]

    def check(state) -> None:  # type: ignore[no-untyped-def]
        seen[0] += 1
        if state.board is not None and seen[0] % 10 == 0:
            yes, asked = assert_floor_answers_hold(state.board.copy())
            totals[0] += yes
            totals[1] += asked

    play_game("1840", {"players": 3}, 4, check=check)
    assert totals[0] > 60 and totals[1] > totals[0]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_ix4_ix5_r_lr_11_check_after_a_listing_is_the_evaluators_answer(seed: int) -> None:
    """``check_tile_lay`` right after a listing of the same position returns the listed lay
    (what the evaluator returns for it); a lay not listed there is refused with the evaluator's
    rule, and a listing of another phase, board or turn is never reused (IX.4, IX.5, R-LR-3)."""
    rng = random.Random(seed)
    state = SimpleBuildState(Board(load_layout("full")), "green")
    for _ in range(30):
        play_random_lay(state, rng)
    lines = [line for line in sorted(state.board.layout.home_bases) if state.has_operated(line)]
    for line in lines:
        laid = sorted(state.board.placed())[:1]
        listed = legal_tile_lays(state, line, laid_this_turn=laid)
        want = [scratch_check(state, line, lay, laid) for lay in listed]
        listed = legal_tile_lays(state, line, laid_this_turn=laid)
        for lay, evaluated in zip(listed, want, strict=True):
            got = check_tile_lay(state, line, lay.coord, lay.tile_id, lay.rotation,
                                 laid_this_turn=laid)
            assert got is lay
            assert got == evaluated
        for coord in laid:  # R-LR-3: a hex laid this turn is refused, as the evaluator does
            placed = state.board.placed()[coord]
            for lay in scratch_tile_lays(state, line):
                if lay.coord == coord:
                    with pytest.raises(IllegalAction) as refused:
                        check_tile_lay(state, line, coord, lay.tile_id, lay.rotation,
                                       laid_this_turn=laid)
                    assert refused.value.rule == "R-LR-3", placed
        upgrades = [lay for lay in listed if lay.upgrade]
        state.phase = "yellow"  # IX.5: no green tile now; the green listing is not reused
        for lay in upgrades:
            with pytest.raises(IllegalAction):
                check_tile_lay(state, line, lay.coord, lay.tile_id, lay.rotation,
                               laid_this_turn=laid)
        state.phase = "green"


def scratch_check(state: SimpleBuildState, line: int, lay: TileLay,
                  laid: list[str]) -> TileLay:
    """The evaluator's answer for ``lay`` without any listing kept (IX.4, IX.5)."""
    tiles._LISTED.clear()
    return check_tile_lay(state, line, lay.coord, lay.tile_id, lay.rotation,
                          laid_this_turn=laid)
