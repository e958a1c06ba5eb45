"""The 1840 engine: the position that plays actions.

:class:`State1840` is a :class:`~tramways.g1840.position.Position` implementing the core's
``GameState`` protocol.  Playing an action (:meth:`State1840.apply`):

1. authority (IV.1.2): the seat must be the one that decides the action (``seats_for``);
2. dispatch: the "at any time" rules (IV.2 returns, :mod:`tramways.g1840.mechanics.privates`;
   VIII.5.3 scrapping, :mod:`tramways.g1840.mechanics.trams`) unless the round takes the action
   as part of the acting company's own turn; otherwise the current round
   (:class:`~tramways.g1840.rounds.base.Round`), which checks whose turn it is;
3. the Round Bar walk (V): automatic steps of the round, then the next space of the bar, until
   somebody must decide.

Validation comes before any change: an :class:`IllegalAction` leaves the position untouched.
Any other exception is a bug in the engine and may come half-way through a change; so the
position keeps its set-up and the actions it has played (a list of frozen actions: no copy per
action), and such an exception rebuilds it from them before it propagates (the engine is
deterministic, as replaying records relies on), leaving the position as it was before the
failed action (:meth:`State1840.apply`, :meth:`State1840._restore`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Self

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import (
    CompanyAction,
    CompanyReturnPrivate,
    LineAction,
    Resign,
    ReturnPrivate,
    ScrapTram,
)
from tramways.g1840.mechanics import privates, trams
from tramways.g1840.position import Position
from tramways.g1840.program_actions import Program
from tramways.g1840.programs import legal_programs, next_programmed, round_begins, set_program
from tramways.g1840.rounds import company, line, pre_share, share
from tramways.g1840.rounds.base import Round
from tramways.g1840.rounds.company_auctions import chooser
from tramways.g1840.rounds.line_turn import end_freed_bonus
from tramways.g1840.shared_actions import Interned, Part
from tramways.g1840.view import final_result, result, view
from tramways.g1840.view_types import Result, ResultJSON, View1840

PROGRAMMED_PER_MOVE = 1000
"""At most this many programmed actions play after one action; then the seat to act decides
(a bound, so that no set of programs can keep one move going for ever)."""

BEGIN: dict[str, Callable[[Position, list[str]], Round]] = {
    "PRE": pre_share.begin,
    "SR": share.begin,
    "CR": company.begin,
    "LR": line.begin,
}
"""How each round type of the Round Bar begins (V)."""


_RETURN = Interned(ReturnPrivate)
"""The "any time" actions, built once per distinct fields (listed at every position); a
company's scraps and returns are :mod:`~tramways.g1840.mechanics.trams`'s."""


_BY_DIRECTOR = (CompanyAction, LineAction)
"""The actions a company's director decides (IV.1.2)."""


class State1840(Position):
    """One position of a game of 1840 that plays actions (the core's ``GameState``)."""

    current_round: Round

    def __init__(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> None:
        super().__init__(settings, setup, seed)
        self._setup = copy.deepcopy(setup)  # the caller's dict may change later
        self._played: list[tuple[Action, int | None]] = []
        """The actions applied since set-up, as given to :meth:`apply` (for :meth:`_restore`)."""
        self.round_index = 0
        self.current_round = BEGIN[self.round.type](self, self.log)
        self.advance(self.log)

    # --- the Round Bar (V) ---------------------------------------------------------------
    def advance(self, log: list[str]) -> None:
        """Play automatic steps and advance the Round Bar until somebody must decide."""
        while not self.finished:
            if not self.current_round.settle(self, log):
                return
            if self.finished:
                return
            self.round_index += 1
            if self.round_index >= len(self.ent.round_bar):
                self.finished = True
                log.append("The game is over (XI)")
                return
            self.current_round = BEGIN[self.round.type](self, log)
            if self.programs:
                round_begins(self, log)

    # --- the GameState protocol ----------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if self.finished else [self.current_round.acting(self)]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """What ``player`` may do now: the round's actions if it is their turn, and what the
        rules allow them "at any time" (:meth:`anytime_actions`); ``None``: the acting seat."""
        if self.finished:
            return []
        actor = self.current_round.acting(self)
        seat = actor if player is None else player
        actions: list[Action] = self.current_round.legal(self) if seat == actor else []
        if self.rules.returns_and_scraps_in_turn and self.round.type not in ("CR", "LR"):
            actions = [a for a in actions if not isinstance(a, ReturnPrivate)]
        anytime = self.anytime_actions(seat)
        if anytime:  # only an action of the same class can equal one (no hashing of all)
            present = {a for a in actions if type(a) in ANYTIME}
            actions.extend([a for a in anytime if a not in present])
        if self.rules.returns_and_scraps_in_turn:
            actions = [a for a in actions if not self._site_refuses(a)]
        if self.settings.get("programs"):  # programs.enabled: no list to make otherwise
            actions.extend(legal_programs(self, seat))
        return actions

    def legal_parts(self, player: int | None = None) -> list[Part]:
        """:meth:`legal_actions` with its long runs (a line's tile lays, a line auction's
        amounts) left as blocks (:class:`~tramways.g1840.shared_actions.Block`):
        ``flatten(legal_parts(p)) == legal_actions(p)``, in the same order.  With the
        18xx.games ruleset (X-23 filters every action) it is the plain list."""
        if self.finished or self.rules.returns_and_scraps_in_turn:
            return list(self.legal_actions(player))
        current = self.current_round
        actor = current.acting(self)
        seat = actor if player is None else player
        parts: list[Part] = []
        if seat == actor:
            listing = getattr(current, "legal_parts", None)
            parts = listing(self) if listing is not None else list(current.legal(self))
        anytime = self.anytime_actions(seat)
        if anytime:  # blocks hold no "any time" action (returns, scraps)
            present = {a for a in parts if type(a) in ANYTIME}
            parts.extend([a for a in anytime if a not in present])
        if self.settings.get("programs"):  # programs.enabled: no list to make otherwise
            parts.extend(legal_programs(self, seat))
        return parts

    def anytime_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do whenever the game is not over, in anybody's turn, without
        changing whose turn it is:

        * IV.2: privates "may be voluntarily returned to the Bank at any time": the player's
          own, and those of the company the player directs (to its treasury).  A private under
          a pending sale offer (IV.2, LR2a on) is the exception until the offer is answered.
        * VIII.5.3 / IX.8 / R-LR-8: "A company may voluntarily scrap a tram at any time": the
          director scraps one of the company's trams (one action per colour held).
        """
        if self.finished or not 0 <= seat < self.n:
            return []
        if self.rules.returns_and_scraps_in_turn:
            return self._site_anytime_actions(seat)
        offered = self.current_round.offered_private()
        held = self.players[seat].privates
        out: list[Action] = [_RETURN(seat, p) for p in held if p != offered] if held else []
        for tram_company in self.companies.values():
            if tram_company.director != seat:
                continue
            cid = tram_company.id
            if tram_company.privates:
                out.extend([trams.COMPANY_RETURN(cid, p, seat)
                            for p in tram_company.privates if p != offered])
            if tram_company.trams:
                out.extend(trams.scraps(cid, tuple(tram_company.trams), seat))
        return out

    def _acting_company(self) -> str | None:
        """The tram company acting now: the Company Round's, or the line's owner."""
        turn = self.current_round.turn_view(self)
        if turn.company:
            return str(turn.company)
        line = turn.line
        if line is not None and line in self.line_owner:
            return self.line_owner[line]
        return None

    def _site_anytime_actions(self, seat: int) -> list[Action]:
        """X-23 (proposed, 18xx.games): the site returns a private only in a Company or Line
        Round, by the player acting now (their own, or the acting company's), and scraps a tram
        only in the company's buying turn or by the acting line in its turn."""
        if self.round.type not in ("CR", "LR"):
            return []
        offered = self.current_round.offered_private()
        opener = self._auction_opener()
        if opener is not None:  # the site's round is the opener's while its line is
            # auctioned: only its director returns, a private of their own (random_44004_5p)
            if seat != self.companies[opener].director:
                return []
            return [ReturnPrivate(seat, p) for p in self.players[seat].privates if p != offered]
        if seat != self.current_round.acting(self):
            return []
        out: list[Action] = [ReturnPrivate(seat, p) for p in self.players[seat].privates
                             if p != offered]
        acting = self._acting_company()
        tram_company = self.companies.get(acting) if acting is not None else None
        if tram_company is None or tram_company.director != seat:
            return out
        cid = tram_company.id
        if self.round.type == "LR":  # in a Company Round the site returns only the
            # director's own privates (a company's are its lines', asked in their turns)
            out.extend(trams.COMPANY_RETURN(cid, p, seat)
                       for p in tram_company.privates if p != offered)
        if not self.current_round.takes_in_turn(self, cid):
            return out
        line = self.current_round.turn_view(self).line
        if line is not None:
            colour = self.tram_of(line)
            if colour is not None:
                out.append(ScrapTram(company=cid, colour=colour, line=line, player=seat))
            return out
        out.extend(trams.scraps(cid, tuple(tram_company.trams), seat))
        return out

    def _auction_opener(self) -> str | None:
        """The company that opened the line auction going on now (X-23), if any."""
        cr = self.current_round
        if not isinstance(cr, company.CompanyRound) or cr.auction is None or (
                cr.buying is not None):
            return None
        return chooser(cr, self)

    def _line_turn_ended(self) -> bool:
        """X-23: a line that scrapped its tram, or has run and bought a private, and can buy
        no private (more) has its turn ended by the site: a return then comes in the next
        line's turn (random_47107_6p; random_53026_3s: GW returned HB after line 6's last
        purchase, "Place a Token or Lay Track cannot process action choose_ability")."""
        turn = getattr(self.current_round, "turn", None)
        if turn is None or not (getattr(turn, "track_over", False) or getattr(turn, "ran", False)):
            return False
        return not any(type(a).__name__ == "BuyPrivate" for a in self.current_round.legal(self))

    def _site_refuses(self, action: Action) -> bool:
        """X-23 (proposed, 18xx.games), where the site's steps are narrower than the turn:
        in a Line Round only the acting line scraps, and only its own tram (its Route step;
        ``CO scrap COLOUR`` of that colour, as older records write it, is the line's scrap;
        the company's other trams wait for its buying turn); in the buying turns that follow
        a line purchase or the auctions (R-CR-7) the site asks the buyer only about trams, so
        no private is returned there."""
        if type(action) not in ANYTIME:
            return False
        if self.round.type == "LR":
            if not isinstance(action, ScrapTram):
                return self._line_turn_ended()
            if action.line is not None:
                return False
            line = self.current_round.turn_view(self).line
            return line is None or self.tram_of(line) != action.colour
        if self.round.type == "CR" and isinstance(action, CompanyReturnPrivate):
            return True  # the site's SellCompany step finds no owner for it (random_46087_4p)
        if self.round.type == "CR" and isinstance(action, ScrapTram):
            company_ = self.companies.get(action.company)
            return company_ is not None and company_.purchases_closed
        if self.round.type == "CR" and not isinstance(action, ScrapTram):
            step = getattr(self.current_round, "step", None)
            name = getattr(step, "name", None)
            return name == "post" or (
                name == "e" and getattr(self.current_round, "buying", None) is not None)
        return False

    def seats_for(self, action: Action) -> list[int]:
        """The seat that decides ``action`` (empty if none may):

        * IV.1.2 ("Only the director decides what a company does or does not do"): a tram
          company's actions and its lines' actions, only its director at this moment (a
          director change would move this at once);
        * a player's own actions (bids, shares, returns, answers to an offer): that player.
        """
        seat = self._decider(action)
        return [] if seat is None else [seat]

    def _decider(self, action: Action) -> int | None:
        if isinstance(action, CompanyAction):
            tram_company = self.companies.get(action.company)
            return None if tram_company is None else tram_company.director
        if isinstance(action, LineAction):
            owner = self.line_owner.get(action.line)
            return None if owner is None else self.companies[owner].director
        return action.player if 0 <= action.player < self.n else None

    def _authorize(self, action: Action, seat: int | None) -> int:
        """The seat playing ``action``: refused unless it decides the action (IV.1.2; a
        player's own actions only from that player)."""
        decider = self._decider(action)
        if decider is not None and seat == decider:
            return decider  # the usual case: the deciding seat plays
        if seat is None and action.player != -1 and isinstance(action, _BY_DIRECTOR):
            seat = action.player  # a company action built with its director's seat
        if decider is None:
            if isinstance(action, CompanyAction):
                raise IllegalAction("IV.1.2", f"{action.company} is not in the game")
            if isinstance(action, LineAction):
                raise IllegalAction("IV.3", f"line {action.line} is owned by no company")
            raise IllegalAction("III.1", f"no player {action.player + 1}")
        if seat is None or seat == decider:
            return decider
        if isinstance(action, CompanyAction | LineAction):
            what = (action.company if isinstance(action, CompanyAction)
                    else f"line {action.line}'s company {self.line_owner[action.line]}")
            raise IllegalAction("IV.1.2", f"only the director decides what a company does: "
                                          f"{what} is directed by {self.players[decider].name}")
        raise IllegalAction("III.1", f"seat {seat + 1} may not act for "
                                     f"{self.players[decider].name}")

    def apply(self, action: Action, seat: int | None = None) -> list[str]:
        """Play ``action`` for ``seat`` (``None``: the seat that decides it, :meth:`seats_for`).

        An :class:`IllegalAction` is raised before any change.  Any other exception (a bug)
        restores the position as it was before ``action`` and then propagates."""
        try:
            log = self._play(action, seat)
        except IllegalAction:
            raise
        except Exception:
            self._restore()
            raise
        self._played.append((action, seat))
        return log

    def _restore(self) -> None:
        """Rebuild the position from its set-up and the actions it played before the one that
        failed.  (A position changed by hand outside :meth:`apply`, as some tests build one,
        comes back as its played actions make it.)"""
        again = type(self)(self.settings, self._setup, self.seed)
        for action, seat in self._played:
            again._play(action, seat)
        again._played = self._played
        vars(self).clear()
        vars(self).update(vars(again))

    def clone(self) -> Self:
        """An independent copy; the set-up and the played actions (immutable) are shared or
        copied shallowly, not deep-copied."""
        return self._clone_with({id(self._setup): self._setup,
                                 id(self._played): list(self._played)})

    def _play(self, action: Action, seat: int | None) -> list[str]:
        if self.finished:
            raise IllegalAction("XI", "the game is over")
        seat = self._authorize(action, seat)
        actor = self.current_round.acting(self)
        log: list[str] = []
        if isinstance(action, Resign):
            self._resign(seat, log)
            return log
        if isinstance(action, Program):
            set_program(self, action, log)  # the seat's standing orders: no turn taken
            self._play_programs(log)
            return log
        if (self.rules.returns_and_scraps_in_turn and type(action) in ANYTIME
                and (self._site_refuses(action)
                     or (action not in self._site_anytime_actions(seat)
                         and (action not in self.current_round.legal(self)
                              or self.round.type not in ("CR", "LR"))))):
            raise IllegalAction("X-23", "on 18xx.games a private is returned, or a tram "
                                "scrapped, only by the company or player acting now")
        if type(action) in ANYTIME and (seat != actor or not self._in_turn(action)):
            self._anytime(action, log)
            end_freed_bonus(self.current_round)  # only the line's next action
        else:
            if seat != actor:
                raise IllegalAction(self.current_round.turn_rule(),
                                    f"it is {self.players[actor].name}'s turn")
            self.current_round.apply(self, action, log)
        self.advance(log)
        self._play_programs(log)
        return log

    def _resign(self, seat: int, log: list[str]) -> None:
        """The seat resigns and the game ends at once, in whoever's turn (docs/async.md, the
        site's ``on_resign: "end"``): its result ranks the resigner last and the others by
        R-END-1's wealth as it stands (:func:`~tramways.g1840.view.final_result`)."""
        self.finished = True
        self.resigned = seat
        log.append(f"{self.players[seat].name} resigns: the game ends")

    def _play_programs(self, log: list[str]) -> None:
        """Play what the acting seats' programs say, one action after another, until a seat
        must decide (:mod:`tramways.g1840.programs`)."""
        if not self.programs:
            return
        for _ in range(PROGRAMMED_PER_MOVE):
            if not self.programs or self.finished:
                return
            fired = next_programmed(self, self.current_round.legal(self), log)
            if fired is None:
                return
            log.append(f"{self.players[fired.action.player].name}'s programmed action "
                       f"'{fired.program.describe()}' plays:")
            try:
                self.current_round.apply(self, fired.action, log)
            except IllegalAction as exc:  # a program plays only listed moves: a bug, so that
                raise RuntimeError(f"programmed {fired.action}: {exc}") from exc  # apply restores
            self.advance(log)

    def _in_turn(self, action: Action) -> bool:
        """Whether the round takes this "any time" action as part of the acting company's own
        turn (its buying or line turn, where a pending bonus is lost, R-LR-1)."""
        if self.current_round.offered_private() is not None or not isinstance(action, CompanyAction):
            return False  # a player's return: the same bookkeeping in every round
        return self.current_round.takes_in_turn(self, action.company)

    def _anytime(self, action: Action, log: list[str]) -> None:
        """IV.2 returns and VIII.5.3 scrapping at any time (whose turn it is does not change)."""
        private = getattr(action, "private", None)
        if private is not None and private == self.current_round.offered_private():
            raise IllegalAction("IV.2", f"{private} is under offer; the owner answers first")
        ANYTIME[type(action)](self, action, log)

    def _return_own(self, action: ReturnPrivate, log: list[str]) -> None:
        privates.return_to_bank(self, action.player, action.private, log)

    def _return_company(self, action: CompanyReturnPrivate, log: list[str]) -> None:
        privates.return_to_bank(self, self.companies[action.company], action.private, log)

    def _scrap(self, action: ScrapTram, log: list[str]) -> None:
        trams.scrap(self, self.companies[action.company], action.colour, log, line=action.line)

    def is_over(self) -> bool:
        return self.finished

    def outcome(self) -> Result:
        """XI / R-END-1: wealth per seat and the ranking (the core's ``Outcome``)."""
        return final_result(self)

    def result(self) -> ResultJSON:
        """The final result's JSON (``outcome().to_json()``, as records and tests read it)."""
        return result(self)

    def view(self, player: int | None) -> View1840:
        return view(self, player)


ANYTIME: dict[type[Action], Callable[[State1840, Any, list[str]], None]] = {
    ReturnPrivate: State1840._return_own,
    CompanyReturnPrivate: State1840._return_company,
    ScrapTram: State1840._scrap,
}
"""The actions the rules allow "at any time" (IV.2 returns, VIII.5.3 scrapping) and what plays
each when it is not part of the acting company's own turn."""
