"""The 1840 game state: players, companies, market, trams, lines, board and the current round.

The state is mutated in place by :meth:`State1840.apply`, which validates first and mutates only
a legal action (an :class:`~tramways.core.errors.IllegalAction` leaves it untouched).  The round
logic lives in one module per round type; :mod:`tramways.g1840.flow` walks the Round Bar.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.edition import Edition
from tramways.g1840.entities import Entities, RoundDef, entities
from tramways.g1840.market import ShareMarket
from tramways.g1840.ruleset import Ruleset

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


class State1840:
    """One position of a game of 1840."""

    def __init__(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> None:
        from tramways.g1840 import flow

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
        self.board: Any = _new_board(self.layout_name, self.rules.name)
        self.round_index = 0
        self.sub: Any = None
        self.finished = False
        self.log: list[str] = []
        flow.start(self, self.log)

    # --- the round ---------------------------------------------------------------------
    @property
    def round(self) -> RoundDef:
        return self.ent.round_bar[self.round_index]

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
        last = max(i for i, r in enumerate(self.ent.round_bar) if r.name == "CR5")
        if self.round_index < last:
            return True
        return self.round_index == last and getattr(self.sub, "step", "") in ("d", "e")

    # --- helpers -----------------------------------------------------------------------
    def price(self, company: str) -> int:
        return self.market.price(company)

    def director_of(self, company: str) -> int:
        return self.companies[company].director

    def company_of_line(self, line: int) -> TramCompany:
        return self.companies[self.line_owner[line]]

    def certificates(self, seat: int) -> int:
        """VII.3: certificates held (director share counts one, privates count)."""
        player = self.players[seat]
        count = len(player.privates)
        for company, pct in player.shares.items():
            tram = self.companies.get(company)
            if tram is not None and tram.director == seat:
                count += 1 + (pct - 50) // 10
            else:
                count += pct // 10
        return count

    def cert_limit(self) -> int:
        return self.ent.certificate_limit[self.n]

    def share_value(self, seat: int) -> int:
        return sum(pct // 10 * self.price(c) for c, pct in self.players[seat].shares.items())

    def wealth(self, seat: int) -> int:
        """R-END-1: cash + shares at market + privates at face value - 200 per loan."""
        player = self.players[seat]
        privates = sum(self.ent.privates[p].face_value for p in player.privates)
        return (player.cash + self.share_value(seat) + privates
                + player.loans * self.ent.loan_end_value)

    def pay_from_director(self, company: TramCompany, amount: int, log: list[str]) -> None:
        """The director pays ``amount``, taking as many 100 loans as needed (VIII.5.3, IX.8)."""
        player = self.players[company.director]
        if player.cash < amount:
            shortfall = amount - player.cash
            loans = -(-shortfall // self.ent.loan_amount)
            player.loans += loans
            player.cash += loans * self.ent.loan_amount
            log.append(f"{player.name} takes {loans} loan(s) of {self.ent.loan_amount}")
        player.cash -= amount

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

    def route_context(self, line: int) -> Any:
        """The routes module's context for ``line`` (IX.7, IX.8)."""
        from tramways.g1840.routes import RouteContext

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

    # --- the GameState protocol ---------------------------------------------------------
    def _module(self) -> Any:
        from tramways.g1840.flow import round_module

        return round_module(self.round.type)

    def current_players(self) -> list[int]:
        if self.finished:
            return []
        return [self._module().acting(self)]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The acting player's actions; for any other ``player`` only what the rules allow
        "at any time" (:meth:`anytime_actions`: returning privates, scrapping trams)."""
        if self.finished:
            return []
        actor = self._module().acting(self)
        seat = actor if player is None else player
        actions: list[Action] = self._module().legal(self) if seat == actor else []
        present = set(actions)
        actions.extend(a for a in self.anytime_actions(seat) if a not in present)
        return actions

    def anytime_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do whenever the game is not over, in anybody's turn, without
        changing whose turn it is:

        * IV.2: privates "may be voluntarily returned to the Bank at any time": the player's
          own, and those of the company the player directs (to its treasury).  A private under
          a pending sale offer (IV.2, LR2a on) is the exception until the offer is answered.
        * VIII.5.3 / IX.8 / R-LR-8: "A company may voluntarily scrap a tram at any time": the
          director scraps one of the company's trams (one action per colour held).
        """
        from tramways.g1840.actions import CompanyReturnPrivate, ReturnPrivate, ScrapTram
        from tramways.g1840.entities import TRAM_COLOURS

        if self.finished or not 0 <= seat < self.n:
            return []
        offered = _offered_private(self)
        out: list[Action] = [ReturnPrivate(seat, p) for p in self.players[seat].privates
                             if p != offered]
        for company in self.companies.values():
            if company.director == seat:
                out.extend(CompanyReturnPrivate(company=company.id, private=p, player=seat)
                           for p in company.privates if p != offered)
                out.extend(ScrapTram(company=company.id, colour=c, player=seat)
                           for c in sorted(set(company.owned()), key=TRAM_COLOURS.index))
        return out

    def return_actions(self, seat: int) -> list[Action]:
        """The IV.2 returns among :meth:`anytime_actions`."""
        from tramways.g1840.actions import CompanyReturnPrivate, ReturnPrivate

        return [a for a in self.anytime_actions(seat)
                if isinstance(a, ReturnPrivate | CompanyReturnPrivate)]

    def turn_rule(self) -> str:
        """The section that fixes whose turn it is in the current round (for refusals)."""
        kind = self.round.type
        if kind == "PRE":
            return "VI"
        if kind == "SR":
            return "VII.2"
        if kind == "LR":
            return "IX.1"
        step = getattr(self.sub, "step", "d")
        if step in ("e", "final"):
            return "VIII.6"
        if step == "d":
            return "VIII.4"
        return "VIII.5.3"

    def seats_for(self, action: Action) -> list[int]:
        """The seat that decides ``action`` (empty if none may):

        * IV.1.2 ("Only the director decides what a company does or does not do"): a tram
          company's actions and its lines' actions, only its director at this moment (a
          director change in a Share Round moves this at once);
        * a player's own actions (bids, shares, returns, answers to an offer): that player.
        """
        seat = self._decider(action)
        return [] if seat is None else [seat]

    def _decider(self, action: Action) -> int | None:
        from tramways.g1840.actions import CompanyAction, LineAction

        if isinstance(action, CompanyAction):
            company = self.companies.get(action.company)
            return None if company is None else company.director
        if isinstance(action, LineAction):
            owner = self.line_owner.get(action.line)
            return None if owner is None else self.companies[owner].director
        return action.player if 0 <= action.player < self.n else None

    def _check_authority(self, action: Action, seat: int | None) -> Action:
        """Refuse ``action`` from a seat without authority over it (IV.1.2; a player's own
        actions only from that player); return it with its ``player`` set to the seat."""
        from tramways.g1840.actions import CompanyAction, LineAction

        is_company = isinstance(action, CompanyAction | LineAction)
        if seat is None and is_company and action.player != -1:
            seat = action.player  # a company action built with its director's seat
        decider = self._decider(action)
        if decider is None:
            if isinstance(action, CompanyAction):
                raise IllegalAction("IV.1.2", f"{action.company} is not in the game")
            if isinstance(action, LineAction):
                raise IllegalAction("IV.3", f"line {action.line} is owned by no company")
            raise IllegalAction("III.1", f"no player {action.player + 1}")
        if seat is None:
            seat = decider
        if seat != decider:
            if isinstance(action, CompanyAction | LineAction):
                what = (action.company if isinstance(action, CompanyAction)
                        else f"line {action.line}'s company {self.line_owner[action.line]}")
                raise IllegalAction("IV.1.2", f"only the director decides what a company does: "
                                              f"{what} is directed by "
                                              f"{self.players[decider].name}")
            raise IllegalAction("III.1", f"seat {seat + 1} may not act for "
                                         f"{self.players[decider].name}")
        if is_company and action.player != seat:
            action = dataclasses.replace(action, player=seat)
        return action

    def apply(self, action: Action, seat: int | None = None) -> list[str]:
        """Play ``action`` for ``seat`` (``None``: the seat that decides it, :meth:`seats_for`).
        """
        from tramways.g1840 import flow
        from tramways.g1840.actions import CompanyReturnPrivate, ReturnPrivate, ScrapTram

        if self.finished:
            raise IllegalAction("XI", "the game is over")
        action = self._check_authority(action, seat)
        module = self._module()
        actor = module.acting(self)
        log: list[str] = []
        if isinstance(action, ReturnPrivate | CompanyReturnPrivate | ScrapTram) and (
                action.player != actor or not self._module_handles(action)):
            self._anytime(action, log)
        else:
            if action.player != actor:
                raise IllegalAction(self.turn_rule(),
                                    f"it is {self.players[actor].name}'s turn")
            module.apply(self, action, log)
        flow.settle(self, log)
        return log

    def _module_handles(self, action: Action) -> bool:
        """Whether the round module takes this "any time" action as part of the acting
        company's own buying or line turn (where it always did; a line's pending bonus is lost,
        R-LR-1)."""
        from tramways.g1840.actions import CompanyAction

        if _offer_pending(self) or not isinstance(action, CompanyAction):
            return False  # a player's return: the same bookkeeping in every round
        if self.round.type == "LR":
            turn = self.sub.turn
            return (turn is not None and not turn.ran and not turn.home
                    and self.company_of_line(turn.line).id == action.company)
        if self.round.type == "CR":
            from tramways.g1840 import company_round

            sub = self.sub
            buying = ((sub.step == "d" and sub.paid) or sub.step == "post"
                      or sub.buying is not None)
            return buying and company_round.current_company(self) == action.company
        return False

    def _anytime(self, action: Action, log: list[str]) -> None:
        """IV.2 returns and VIII.5.3 scrapping at any time (whose turn it is does not change)."""
        from tramways.g1840 import trams
        from tramways.g1840.actions import CompanyAction, ReturnPrivate, ScrapTram
        from tramways.g1840.company_round import return_company_private
        from tramways.g1840.share_round import return_private

        private = getattr(action, "private", None)
        if private is not None and private == _offered_private(self):
            raise IllegalAction("IV.2", f"{private} is under offer; the owner answers first")
        if isinstance(action, ReturnPrivate):
            return_private(self, action.player, action.private, log)
            return
        assert isinstance(action, CompanyAction)
        company = self.companies.get(action.company)
        if company is None:
            raise IllegalAction("IV.1.2", f"{action.company} is not in the game")
        if isinstance(action, ScrapTram):
            trams.scrap(self, company, action.colour, log)
        else:
            return_company_private(self, company, getattr(action, "private", ""), log)

    def is_over(self) -> bool:
        return self.finished

    def result(self) -> Any:
        from tramways.g1840.view import result

        return result(self)

    def view(self, player: int | None) -> Any:
        from tramways.g1840.view import view

        return view(self, player)

    def clone(self) -> State1840:
        board = self.board
        self.board = None
        try:
            other = copy.deepcopy(self, {id(self.ent): self.ent})
        finally:
            self.board = board
        other.board = board.copy() if board is not None else None
        return other


def _offer_pending(state: State1840) -> bool:
    turn = getattr(state.sub, "turn", None)
    return getattr(turn, "offer", None) is not None


def _offered_private(state: State1840) -> str | None:
    """The private a company has offered to buy and whose owner has not answered yet."""
    turn = getattr(state.sub, "turn", None)
    offer = getattr(turn, "offer", None)
    return None if offer is None else str(offer[0])


def _new_board(layout: str, ruleset: str = "rules") -> Any:
    """The printed map (the board helper's :class:`Board`), or ``None`` if not available."""
    try:
        from tramways.g1840.board import Board
        from tramways.g1840.data import load_layout
    except ImportError:
        return None
    return Board(load_layout(layout), ruleset=ruleset)  # the site's tile supply
