"""Invariants of an 1840 position, checked after every action in the random-game tests.

Each company's shares sum to 100% over players, pool and company; nobody's cash is negative;
certificate limits hold after buying (VII.3); the tile supply plus the tiles on the map equal
the tile chart; no line has more than six station markers (IX.6).
"""

from __future__ import annotations

from collections import Counter

from tramways.g1840.data import initial_supply, supply_key
from tramways.g1840.position import Position, StadtbahnCompany, TramCompany


class InvariantError(AssertionError):
    """A broken invariant (a bug in the engine)."""


def check(pos: Position) -> None:
    """Raise :class:`InvariantError` naming the first broken invariant."""
    for part in (_shares, _players, _companies, _certificates, _privates, _tiles, _markers):
        part(pos)


def _shares(pos: Position) -> None:
    """Each company's shares sum to 100% over players, pool and company."""
    holders: list[tuple[str, TramCompany | StadtbahnCompany]] = [
        *pos.companies.items(), *pos.stadtbahn.items()]
    for cid, holder in holders:
        held = sum(p.shares.get(cid, 0) for p in pos.players)
        total = held + holder.ipo + holder.pool
        if total != 100:
            raise InvariantError(f"{cid}: shares sum to {total}%")


def _players(pos: Position) -> None:
    """No negative cash; holdings in 10% steps up to the maximum (VII.3)."""
    for p in pos.players:
        if p.cash < 0:
            raise InvariantError(f"{p.name}: cash {p.cash}")
        for cid, pct in p.shares.items():
            if pct > pos.ent.max_percent or pct <= 0 or pct % 10:
                raise InvariantError(f"{p.name}: {pct}% of {cid}")


def _companies(pos: Position) -> None:
    """No negative treasury or revenue; at most three trams and lines; no line without a tram
    while a spare waits."""
    for cid, c in pos.companies.items():
        if c.treasury < 0 or c.revenue < 0:
            raise InvariantError(f"{cid}: treasury {c.treasury}, revenue {c.revenue}")
        if len(c.owned()) > pos.ent.max_trams or len(c.lines) > 3:
            raise InvariantError(f"{cid}: {len(c.owned())} trams, {len(c.lines)} lines")
        if None in c.trams[len(c.lines):] or (None in c.trams and len(c.trams) > len(c.lines)):
            raise InvariantError(f"{cid}: a line has no tram while a spare waits: {c.trams}")


def _certificates(pos: Position) -> None:
    """VII.3: selling never adds certificates; buying is refused at the limit."""
    for seat in range(pos.n):
        if pos.certificates(seat) > pos.cert_limit():
            raise InvariantError(f"seat {seat}: {pos.certificates(seat)} certificates")


def _privates(pos: Position) -> None:
    """A private's owner holds it."""
    for private, owner in pos.private_owner.items():
        if isinstance(owner, int) and private not in pos.players[owner].privates:
            raise InvariantError(f"{private}: owner {owner} does not hold it")
        if isinstance(owner, str) and private not in pos.companies[owner].privates:
            raise InvariantError(f"{private}: owner {owner} does not hold it")


def _tiles(pos: Position) -> None:
    """The supply plus the tiles on the map equal the tile chart (R-LR-11, or the site's list
    with X-7)."""
    board = pos.board
    ruleset = board.ruleset
    on_map = Counter(supply_key(p.tile_id, ruleset) for p in board.placed().values())
    chart = initial_supply(ruleset)
    for key, count in chart.items():
        if board.supply.get(key, 0) + on_map.get(key, 0) != count:
            raise InvariantError(f"tile {key}: supply {board.supply.get(key, 0)} + map "
                                 f"{on_map.get(key, 0)} != {count}")


def _markers(pos: Position) -> None:
    """IX.6: no line has more than six station markers."""
    for line in pos.line_owner:
        if len(pos.board.line_markers(line)) > 6:
            raise InvariantError(f"line {line} has more than six markers")
