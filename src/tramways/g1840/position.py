"""An 1840 position as plain data with queries: players, companies, market, trams, lines,
board, the Round Bar and the progress of the current round.

It imports no round module and no engine: the rounds (:mod:`tramways.g1840.rounds`) and the
mechanics they share (:mod:`tramways.g1840.mechanics`) read and change it; the engine
(:mod:`tramways.g1840.engine`) is the position that plays actions.  What the position's own
queries need of the round in progress is the small :class:`RoundProgress` protocol.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.edition import Edition
from tramways.g1840.entities import Entities, RoundDef, entities
from tramways.g1840.market import ShareMarket
from tramways.g1840.program_actions import Standing
from tramways.g1840.routes import RouteContext
from tramways.g1840.ruleset import Ruleset
from tramways.g1840.view_types import NO_DETAIL, RoundDetail, TurnDetail

Owner = int | str
"""A private's owner: a player seat, or a tram company id."""


@dataclass
class PlayerState:
    """A player's holdings (III.3)."""

    name: str
    cash: int
    pre_emptive: int  # the Pre-emptive Right card's value, 0 once used (VII.5)
    loans: int = 0
    shares: dict[str, int] = field(default_factory=dict)  # company -> percent
    privates: list[str] = field(default_factory=list)


@dataclass
class TramCompany:
    """A tram company in the game (IV.1.2)."""

    id: str
    director: int
    par: int
    treasury: int
    revenue: int = 0  # the charter's revenue space
    lines: list[int] = field(default_factory=list)
    trams: list[str | None] = field(default_factory=list)  # trams[i] runs lines[i]; None: none

    def owned(self) -> list[str]:
        """The colours of the company's trams (VIII.5.3: at most three)."""
        return [t for t in self.trams if t is not None]
    privates: list[str] = field(default_factory=list)
    ipo: int = 50  # percent still with the company (the unsold 10% shares)
    pool: int = 0  # percent in the share pool
    purchases_closed: bool = False  # the site closed this buying turn's purchases


@dataclass
class StadtbahnCompany:
    """A Stadtbahn company (IV.1.3): no director, ten 10% shares."""

    id: str
    ipo: int = 100
    pool: int = 0
    last_run: int = 0


@dataclass
class TramStacks:
    """The tram buying section (III.5, VIII.3): three spaces, left to right."""

    spaces: list[tuple[str, int] | None]
    queue: list[str]  # colours still to come, next first
    newest: str | None = None  # newest colour ever bought (Table 7)

    def on_sale(self) -> list[tuple[int, str, int]]:
        """(space, colour, count) of every non-empty space."""
        return [(i, s[0], s[1]) for i, s in enumerate(self.spaces) if s is not None and s[1] > 0]


class RoundProgress(Protocol):
    """What the position's queries and its views read of the round in progress.  Every round
    type of :mod:`tramways.g1840.rounds` implements it as part of its ``Round`` protocol."""

    def acting(self, pos: Position) -> int:
        """The seat whose turn it is."""
        ...

    def line_auctions_ahead(self) -> bool:
        """Whether this round still auctions lines (a CR before its auction is over)."""
        ...

    def offered_private(self) -> str | None:
        """The private a company has offered to buy whose owner has not answered (IV.2)."""
        ...

    def view(self, pos: Position) -> RoundDetail:
        """What the view shows of the round's progress."""
        ...

    def turn_view(self, pos: Position) -> TurnDetail:
        """What the view shows of the turn (the acting company or line)."""
        ...


class Position:
    """One position of a game of 1840: plain data and queries."""

    def __init__(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> None:
        ent = entities()
        self.ent: Entities = ent
        self.seed = seed
        self.settings = settings
        self.n: int = settings["players"]
        self.layout_name: str = setup["layout"]
        self.rules: Ruleset = Ruleset.of(settings)
        """The switches of the ruleset and edition the game is played under (X-n, R-VERSION-1)."""
        names = settings["names"]
        self.players: list[PlayerState] = [
            PlayerState(names[i], ent.starting_cash[self.n], ent.pre_emptive_right)
            for i in range(self.n)
        ]
        # order[k] is the seat holding playing order card k + 1
        self.order: list[int] = list(setup["playing_order"])
        self.companies: dict[str, TramCompany] = {}
        # R-SETUP-1: any of the six; X-1: the ones drawn at set-up
        drawn = setup.get("tram_companies") if self.rules.companies_drawn else None
        self.unchosen: list[str] = list(drawn or ent.tram_companies)
        self.stadtbahn: dict[str, StadtbahnCompany] = {
            s: StadtbahnCompany(s) for s in setup["stadtbahn"]
        }
        self.edition = Edition.of(settings)
        """The edition of the rulings the game is played under (R-VERSION-1)."""
        self.market = ShareMarket(climb_at_row_end=self.rules.climb_at_row_end)
        for s in self.stadtbahn:
            self.market.place(s, ent.stadtbahn_par_cells[ent.stadtbahn[s].par])
        self.private_owner: dict[str, Owner | None] = {p: None for p in setup["privates"]}
        self.closed_privates: list[str] = []
        self.line_display: list[int] = list(setup["line_display"])
        self.line_deck: list[int] = list(setup["line_deck"])
        self.line_owner: dict[int, str] = {}
        self.operated: set[int] = set()
        counts = ent.tram_counts[self.n]
        colours = list(counts)
        self.trams = TramStacks(
            spaces=[(colours[0], counts[colours[0]]), None, None], queue=colours[1:]
        )
        self.tram_counts = dict(counts)
        self.board = Board(load_layout(self.layout_name), ruleset=self.rules.name)
        self.round_index = 0
        self.current_round: RoundProgress = _NO_ROUND
        """The round being played, with its progress (its type's ``Round``, e.g. a
        ``LineRound``; see the engine).  ``round`` is its space of the Round Bar."""
        self.finished = False
        self.resigned: int | None = None
        """The seat whose resignation ended the game (``P2 resign``, docs/async.md), if one
        did."""
        self.log: list[str] = []
        self.programs: dict[int, dict[str, Standing]] = {}
        """The programmed actions each seat holds, by kind (:mod:`tramways.g1840.programs`;
        only in games whose settings turn them on)."""

    # --- the round ---------------------------------------------------------------------
    @property
    def round(self) -> RoundDef:
        """The space of the Round Bar being played (V): its name, type and phase."""
        return self.ent.round_bar[self.round_index]

    @property
    def sub(self) -> RoundProgress:
        """The former name of :attr:`current_round` (kept for code written against it)."""
        return self.current_round

    @sub.setter
    def sub(self, value: RoundProgress) -> None:
        self.current_round = value

    @property
    def phase(self) -> str:
        """The newest tile colour available (R-LR-7)."""
        return self.round.phase

    def has_operated(self, line: int) -> bool:
        """Whether the line has had its first turn (home marker placed, IX.6)."""
        return line in self.operated

    def may_still_operate(self, line: int) -> bool:
        """Whether ``line`` can still enter the game, so its home circle stays reserved (IX.6):
        it is owned, or it is still to be auctioned while a company has room.

        R-LR-12 (IX.6 with VIII.6 and VIII.7): IX.6 keeps a circle free for "a line that is not
        yet operating"; a line that can never be bought never operates, and keeping its circle
        free forever would block the hex for nothing.  So the reservation ends for lines removed
        for the layout (XII, XIII: in neither display nor deck), for every unsold line once each
        company holds three lines (VIII.6 skips the auction, VIII.7 draws no more cards), and
        for every unsold line after CR5's auctions (CR6 holds none, R-CR-4)."""
        if line in self.line_owner:
            return True
        if line not in self.line_display and line not in self.line_deck:
            return False
        if len(self.companies) == self.n and all(len(c.lines) >= 3
                                                  for c in self.companies.values()):
            return False
        if self.rules.reserved_until_three_lines:
            return True  # the site keeps the reservation until then (random_44010_5p)
        last = max(i for i, r in enumerate(self.ent.round_bar) if r.name == "CR5")
        if self.round_index < last:
            return True
        return self.round_index == last and self.current_round.line_auctions_ahead()

    # --- helpers -----------------------------------------------------------------------
    def price(self, company: str) -> int:
        return self.market.price(company)

    def company_of_line(self, line: int) -> TramCompany:
        return self.companies[self.line_owner[line]]

    def certificates(self, seat: int) -> int:
        """VII.3: certificates held (director share counts one, privates count)."""
        player = self.players[seat]
        count = len(player.privates)
        for company, pct in player.shares.items():
            tram = self.companies.get(company)
            if tram is not None and tram.director == seat:
                count += 1 + (pct - self.ent.director_percent) // self.ent.share_percent
            else:
                count += pct // self.ent.share_percent
        return count

    def cert_limit(self) -> int:
        return self.ent.certificate_limit[self.n]

    def share_value(self, seat: int) -> int:
        unit = self.ent.share_percent
        return sum(pct // unit * self.price(c) for c, pct in self.players[seat].shares.items())

    def wealth(self, seat: int) -> int:
        """R-END-1: cash + shares at market + privates at face value - 200 per loan."""
        player = self.players[seat]
        privates = sum(self.ent.privates[p].face_value for p in player.privates)
        return (player.cash + self.share_value(seat) + privates
                + player.loans * self.ent.loan_end_value)

    def lines_with_trams(self) -> list[int]:
        """Lines that currently have a tram to run."""
        out = []
        for company in self.companies.values():
            for i, line in enumerate(company.lines):
                if i < len(company.trams) and company.trams[i] is not None:
                    out.append(line)
        return sorted(out)

    def tram_of(self, line: int) -> str | None:
        company = self.company_of_line(line)
        i = company.lines.index(line)
        return company.trams[i] if i < len(company.trams) else None

    def landmark_hexes(self, company: str) -> frozenset[str]:
        """Hexes of the landmarks whose privates the company owns (IV.2, IX.8)."""
        return frozenset(self.ent.privates[p].landmark_hex for p in self.companies[company].privates)

    def route_context(self, line: int) -> RouteContext:
        """The routes module's context for ``line`` (IX.7, IX.8)."""
        company = self.company_of_line(line)
        colour = self.tram_of(line)
        maintenance = 0
        if colour is not None and self.trams.newest is not None:
            maintenance = self.ent.maintenance_for(colour, self.trams.newest)
        return RouteContext(
            board=self.board,
            line=line,
            phase=self.phase,
            landmark_hexes=self.landmark_hexes(company.id),
            maintenance=maintenance,
            ruleset=self.rules,
        )

    def clone(self) -> Self:
        """An independent copy (the board by its own cheap copy, the static data shared)."""
        return self._clone_with({})

    def _clone_with(self, memo: dict[int, Any]) -> Self:
        """A deep copy, taking the objects in ``memo`` (by id) as they are given there."""
        memo.update({id(self.ent): self.ent, id(self.board): self.board.copy()})
        return copy.deepcopy(self, memo)


class _NoRound:
    """The progress before the first round begins."""

    def acting(self, pos: Position) -> int:
        return pos.order[0]

    def view(self, pos: Position) -> RoundDetail:
        return NO_DETAIL

    def turn_view(self, pos: Position) -> TurnDetail:
        return TurnDetail()

    def line_auctions_ahead(self) -> bool:
        return True

    def offered_private(self) -> str | None:
        return None


_NO_ROUND = _NoRound()
