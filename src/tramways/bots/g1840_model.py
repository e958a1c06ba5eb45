"""What an 1840 bot knows, rebuilt from a player's view only.

1840 hides nothing but the order of the line-card deck, and the view shows only its size
(``"line_deck": n``).  :class:`ViewModel` rebuilds the board from the view (tiles, line and
Stadtbahn station markers) and answers the questions a player asks at the table: what does a
line earn now (the exact router, IX.8), what would it earn after this lay / marker, what does a
Stadtbahn company run (VIII.5.2), how many Line and Company Rounds are left.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from tramways.g1840.analysis import layout_of, markers_of, tiles_of
from tramways.g1840.board import Board, default_location_map
from tramways.g1840.entities import Entities, entities
from tramways.g1840.routes import RouteContext, best_route
from tramways.g1840.ruleset import Ruleset
from tramways.g1840.stadtbahn_runs import stadtbahn_run
from tramways.g1840.view_types import CompanyView, PlayerView, View1840

View = View1840

_BOARDS: dict[tuple[Any, ...], Board] = {}
"""Boards rebuilt from views, by (layout, ruleset, tiles, markers): a small cache (a bot asks
many questions about one position, and positions repeat between a bot's decisions)."""


_RUNS: dict[tuple[Any, ...], int] = {}
"""Run values by (board key, line, phase, landmarks, maintenance): play-outs and successive
decisions ask about the same boards again and again."""


def board_key(view: View) -> tuple[Any, ...]:
    """What the board of a view depends on (layout, ruleset, tiles, markers)."""
    return (layout_of(view), view.ruleset,
            tuple(sorted((c, t.tile, t.rotation) for c, t in view.tiles.items())),
            tuple(sorted((c, lo, str(o)) for c, lo, o in markers_of(view))))


def board_of(view: View, key: tuple[Any, ...] | None = None) -> Board:
    """The board a view shows (shared: copy it before changing it)."""
    tiles = tiles_of(view)
    markers = markers_of(view)
    if key is None:
        key = board_key(view)
    board = _BOARDS.get(key)
    if board is None:
        if len(_BOARDS) > 64:
            _BOARDS.clear()
        board = Board.of(key[0], view.ruleset, tiles, markers)
        _BOARDS[key] = board
    return board


class ViewModel:
    """Questions about the position in ``view`` for the player ``me`` (the one to act)."""

    def __init__(self, view: View, me: int | None = None) -> None:
        self.view = view
        seat = view.turn.player if view.turn is not None else view.viewer
        self.me: int = me if me is not None else (seat if seat is not None else 0)
        self.ent: Entities = entities()
        self.n = len(view.players)
        self.phase: str = view.round_info.phase
        self.round: str = view.round
        self.ruleset: str = view.ruleset
        names = [r.name for r in self.ent.round_bar]
        self.round_index = names.index(self.round) if self.round in names else 0

    # --- the calendar --------------------------------------------------------------------
    def rounds_left(self, kind: str, include_current: bool = False) -> int:
        """Rounds of ``kind`` ("LR", "CR", "SR") after the current one (or from it)."""
        start = self.round_index + (0 if include_current else 1)
        return sum(1 for r in self.ent.round_bar[start:] if r.type == kind)

    def stadtbahn_multipliers_left(self) -> int:
        """Sum of the Stadtbahn multipliers of the Company Rounds still to come (VIII.5.2)."""
        bar = self.ent.round_bar
        return sum(self.ent.stadtbahn_multiplier.get(r.name, 1)
                   for r in bar[self.round_index + 1:] if r.type == "CR")

    # --- the board -----------------------------------------------------------------------
    @cached_property
    def key(self) -> tuple[Any, ...]:
        return board_key(self.view)

    @cached_property
    def board(self) -> Board:
        return board_of(self.view, self.key)

    def company_of_line(self, line: int) -> str | None:
        return self.view.company_of_line(line)

    def tram_of(self, line: int) -> str | None:
        cid = self.company_of_line(line)
        if cid is None:
            return None
        return self.view.companies[cid].tram_of(line)

    def maintenance(self, colour: str | None) -> int:
        newest = self.view.trams.newest
        if colour is None or newest is None:
            return 0
        return self.ent.maintenance_for(colour, newest)

    def landmarks(self, cid: str) -> frozenset[str]:
        return frozenset(self.ent.privates[p].landmark_hex
                         for p in self.view.companies[cid].privates)

    def run_value(self, line: int, board: Board | Callable[[], Board | None] | None = None,
                  colour: str | None = None,
                  with_maintenance: bool = True, change: tuple[Any, ...] = ()) -> int:
        """The revenue of ``line``'s best run (IX.8) on the view's board, or on ``board``: the
        view's board after ``change`` (a tuple naming the change, for the cache); maintenance
        (Table 7) included unless not ``with_maintenance``; 0 if it has no valid route."""
        cid = self.company_of_line(line)
        if cid is None:
            return 0
        if colour is None:
            colour = self.tram_of(line)
        maint = self.maintenance(colour) if with_maintenance else 0
        landmarks = self.landmarks(cid)
        key = (self.key, change, line, self.phase, landmarks, maint)
        value = _RUNS.get(key)
        if value is not None:
            return value
        if callable(board):
            board = board()
            if board is None:
                return 0
        try:
            run = best_route(RouteContext(board=board if board is not None else self.board,
                                          line=line, phase=self.phase,
                                          landmark_hexes=landmarks,
                                          maintenance=maint,
                                          ruleset=Ruleset.named(self.ruleset)))
        except (ValueError, KeyError):
            run = None
        value = 0 if run is None else int(run.revenue) + maint
        if len(_RUNS) > 200_000:
            _RUNS.clear()
        _RUNS[key] = value
        return value

    def reach_size(self, line: int, board: Board | Callable[[], Board | None] | None = None,
                   change: tuple[Any, ...] = (), what: str = "locations") -> int:
        """How many stops ``line`` reaches (a lay's tie-breaker: room to grow); with
        ``what="edges"``, how many hex sides its track arrives at (IX.2: where it can grow)."""
        key = (self.key, change, line, "reach", what)
        value = _RUNS.get(key)
        if value is not None:
            return value
        if callable(board):
            board = board()
        board = board if board is not None else self.board
        try:
            value = len(getattr(board.reach(line), what))
        except (ValueError, KeyError):
            value = 0
        _RUNS[key] = value
        return value

    def after_lay(self, coord: str, tile: str, rotation: int) -> Board | None:
        """A copy of the board with the tile laid (None if it cannot be put there)."""
        board = self.board.copy()
        try:
            mapping = default_location_map(board, coord, tile, rotation) if board.tile(coord) \
                else None
            board.lay(coord, tile, rotation, mapping)
        except (ValueError, KeyError):
            return None
        return board

    def after_marker(self, coord: str, location: int, owner: Any, remove: bool = False
                     ) -> Board | None:
        board = self.board.copy()
        try:
            if remove:
                board.remove_marker(coord, location, owner)
            else:
                board.place_marker(coord, location, owner)
        except (ValueError, KeyError):
            return None
        return board

    def stadtbahn_value(self, sid: str, board: Board | Callable[[], Board | None] | None = None,
                        change: tuple[Any, ...] = ()) -> int:
        """What Stadtbahn company ``sid`` runs now (x1, VIII.5.2)."""
        key = (self.key, change, sid, self.phase, "stadtbahn")
        value = _RUNS.get(key)
        if value is not None:
            return value
        if callable(board):
            board = board()
        board = board if board is not None else self.board
        try:
            value = int(stadtbahn_run(board, sid, self.phase, 1).revenue)
        except (ValueError, KeyError):
            value = 0
        _RUNS[key] = value
        return value

    # --- money ---------------------------------------------------------------------------
    def player(self, seat: int | None = None) -> PlayerView:
        return self.view.players[self.me if seat is None else seat]

    def company(self, cid: str) -> CompanyView:
        return self.view.companies[cid]

    def price(self, cid: str) -> int:
        return self.view.price(cid)

    def tram_price(self, colour: str) -> int:
        """The cheapest price of ``colour`` on sale (VIII.5.3), or a large number."""
        best = 10**6
        for t in self.view.trams.on_sale:
            if t.colour == colour:
                price = self.ent.tram_prices_by_space[colour][t.space]
                if price is not None:
                    best = min(best, price)
        return best

    def line_income(self, cid: str) -> int:
        """What the company's lines earn per Line Round now, trams and maintenance included."""
        return sum(max(0, self.run_value(line)) for line in self.company(cid).lines
                   if self.tram_of(line) is not None)

    def share_income(self, cid: str) -> float:
        """Expected dividends of one 10% share until the end of the game (a rough guess:
        tram companies pay out their present income; Stadtbahn companies their present run
        times the multipliers still to come)."""
        if cid in self.view.stadtbahn:
            run = max(self.stadtbahn_value(cid), self.view.stadtbahn[cid].last_run)
            return run * self.stadtbahn_multipliers_left() / 10
        lrs = self.rounds_left("LR", include_current=self.view.round_info.type == "LR")
        return self.line_income(cid) * lrs / 10
