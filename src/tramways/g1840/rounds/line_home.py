"""A line's home marker (IX.6): placed free at the start of the line's first turn, on the
circle the director picks when several are free on a tiled home hex (R-LR-13); with the
18xx.games ruleset it may wait for a tile (X-20, proposed) and a tile laid under it lets the
director move it (the site's R-LR-13)."""

from __future__ import annotations

from tramways.core.errors import IllegalAction
from tramways.g1840 import legality
from tramways.g1840.actions import PlaceStation
from tramways.g1840.position import Position


def home_waits(pos: Position, line: int) -> bool:
    """X-20 (proposed, 18xx.games): the site's untiled D18 holds one home marker: when line 1
    or 2 first operates while the other's marker is on the untiled hex, its own home marker
    waits until a tile is there and goes on at the start of its next turn (fz2027_14_3ps:
    line 2 first operates at action 160 with no marker, places it at action 197 after line 1
    tiled D18 at 193).  The printed D18 has two circles, one for each line (IX.6).  Only a hex
    that can take a tile: the red off-board A29 has two slots and takes the second marker at
    once (e-x20-home-waits-offboard, RULINGS.md X-20)."""
    if not pos.rules.home_waits_for_tile:
        return False
    coord = pos.ent.lines[line].home_hex
    board = pos.board
    if not board.hex(coord).laying_allowed:
        return False  # a red off-board area (A29) never takes a tile: its slots take both
    return board.tile(coord) is None and any(
        isinstance(owner, int) and owner != line
        for owners in board.markers(coord).values() for owner in owners)


def home_options(pos: Position, line: int) -> list[legality.StationPlacement]:
    """The circles of the line's home base its home marker may go on."""
    return [o for o in legality.legal_station_placements(pos, line) if o.home]


def home_choice(pos: Position, line: int) -> bool:
    """Whether the director must choose the circle of the home marker (IX.6).

    R-LR-13 (D18, the OO home of lines 1 and 2; IX.6 names "the interchange
    bearing that line's number" but the printed hex has two circles for two lines): while no
    tile lies on the hex, its circles have no track and are alike -- the marker goes on the
    first free one and the tile laid later decides where each circle leads, so no decision is
    lost. Once a tile is there the circles lead to different edges: if more than one is free,
    the director chooses (a ``PlaceStation`` on the home hex, free) before anything else in
    the line's first turn. 18xx.games asks the same (fz2027_18_2p action 78: line 1 tiled
    E17, the home of line 3, with two circles; "3 must choose city for home token").
    """
    options = home_options(pos, line)
    if len({(o.coord, o.location) for o in options}) < 2:
        return False
    return pos.board.tile(options[0].coord) is not None


def place_home(pos: Position, line: int, log: list[str]) -> None:
    """IX.6: the first marker goes free on the home base at the start of the first turn
    (the first free circle; see :func:`home_choice` for when the director picks)."""
    board = pos.board
    coord = pos.ent.lines[line].home_hex
    for option in home_options(pos, line):
        if option.home:
            board.place_marker(option.coord, option.location, line)
            log.append(f"Line {line} places its home marker on {option.coord}.{option.location}")
            return
    log.append(f"Line {line} finds no free circle on its home base {coord}")


def choose_home(pos: Position, line: int, action: PlaceStation, log: list[str]) -> None:
    """IX.6: the director places the free home marker on the circle of their choice."""
    if action.line != line:
        raise IllegalAction("IX.6", f"line {line} first places its home marker")
    chosen = legality.check_station(pos, line, action.hex, action.location)
    if not chosen.home:
        raise IllegalAction("IX.6", f"line {line}'s first marker goes on its home base")
    pos.board.place_marker(action.hex, action.location, line)
    pos.operated.add(line)
    log.append(f"Line {line} places its home marker on {action.hex}.{action.location}")


def lifted_home(pos: Position, line: int, coord: str) -> str | None:
    """The site's R-LR-13: a tile laid on the untiled home hex holding the line's home marker,
    with several circles, lifts the marker until the director chooses its circle: the hex
    whose marker the next action may move (None: nothing lifted).  Here the marker stays on
    the first circle and the next action may move it, free, to another circle of that hex (a
    ``PlaceStation``); any other action keeps it where it is."""
    board = pos.board
    if sum(1 for loc in board.locations(coord) if loc.is_interchange) < 2:
        return None
    if any(line in owners for owners in board.markers(coord).values()):
        return coord  # (no log line: nothing happens unless the marker moves)
    if lifted_owner(pos, line, coord) is not None:
        return coord  # another line's home marker, placed by the laying line
    return None


def lifted_owner(pos: Position, line: int, coord: str) -> int | None:
    """Whose home marker a lay on ``coord`` lifts: the laying line's own (R-LR-13), or, under
    X-21, the one other line's home marker on that hex (the laying line's director places
    it)."""
    owners = [o for ows in pos.board.markers(coord).values() for o in ows if isinstance(o, int)]
    if line in owners:
        return line
    homes = [o for o in owners if pos.ent.lines[o].home_hex == coord]
    return homes[0] if len(homes) == 1 else None


def move_lifted(pos: Position, line: int, action: PlaceStation, log: list[str]) -> None:
    """Move the lifted home marker to another free circle of its hex (:func:`lifted_home`)."""
    board = pos.board
    loc = {loc.id: loc for loc in board.locations(action.hex)}.get(action.location)
    if loc is None or not loc.is_interchange or board.free_slots(action.hex, action.location) <= 0:
        raise IllegalAction("IX.6", f"{action.hex}.{action.location} is no free circle")
    for location, owners in board.markers(action.hex).items():
        if line in owners:
            board.remove_marker(action.hex, location, line)
    board.place_marker(action.hex, action.location, line)
    log.append(f"Line {line} moves its marker to {action.hex}.{action.location}")
