"""A tram company's tram-buying turn in a Company Round (VIII.5.3): buy, scrap or rearrange
trams and return privates, until it ends the turn.  Its actions are dispatched by
:data:`BUYING_TURN`; the trams' rules are :mod:`tramways.g1840.mechanics.trams`'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Arrange, BuyTram, CompanyReturnPrivate, Done, ScrapTram
from tramways.g1840.mechanics import privates, trams
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.rounds.base import handler

BuyingHandler = Callable[[Position, TramCompany, Any, list[str]], bool]
"""Plays one action of the buying turn; ``True`` when the turn ends."""


def buying_actions(pos: Position, company: TramCompany) -> list[Action]:
    """Everything ``company`` may do in its buying turn."""
    if trams.must_buy_in_turn(pos, company):  # X-18 (proposed, 18xx.games)
        return trams.turn_actions(pos, company, company.director)
    return [*trams.turn_actions(pos, company, company.director),
            Done(company=company.id, player=company.director)]


def play_buying_turn(pos: Position, company: TramCompany, action: Action,
                     log: list[str]) -> bool:
    """VIII.5.3: play one action of the buying turn; ``True`` when the turn ends (Done)."""
    play = handler(BUYING_TURN, action, "VIII.5.3",
                   f"{company.id} may buy, scrap or arrange trams, or end")
    return play(pos, company, action, log)


def _buy(pos: Position, company: TramCompany, action: BuyTram, log: list[str]) -> bool:
    trams.buy(pos, company, action.colour, log,
              mandatory=trams.must_buy_in_turn(pos, company))  # X-18 (proposed)
    # at its tram limit, with no line to arrange trams on, the site ends the step
    return (pos.rules.buying_turn_kept_open and len(company.owned()) >= pos.ent.max_trams
            and not company.lines)


def _scrap(pos: Position, company: TramCompany, action: ScrapTram, log: list[str]) -> bool:
    trams.scrap(pos, company, action.colour, log, line=action.line)
    return False


def _arrange(pos: Position, company: TramCompany, action: Arrange, log: list[str]) -> bool:
    trams.arrange(pos, company, action.colours, log)
    return False


def _return(pos: Position, company: TramCompany, action: CompanyReturnPrivate,
            log: list[str]) -> bool:
    privates.return_to_bank(pos, company, action.private, log)
    return False


def _done(pos: Position, company: TramCompany, action: Done, log: list[str]) -> bool:
    if trams.must_buy_in_turn(pos, company):
        raise IllegalAction("VIII.5.3", f"{company.id} has no tram and must buy one in its "
                            "turn (18xx.games ruleset, X-18 proposed)")
    return True


BUYING_TURN: dict[type[Action], BuyingHandler] = {
    BuyTram: _buy, ScrapTram: _scrap, Arrange: _arrange, CompanyReturnPrivate: _return,
    Done: _done,
}
"""The actions of a buying turn and what plays each (VIII.5.3)."""
