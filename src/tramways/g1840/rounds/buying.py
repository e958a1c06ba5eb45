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
from tramways.g1840.shared_actions import Interned

BuyingHandler = Callable[[Position, TramCompany, Any, list[str]], bool]
"""Plays one action of the buying turn; ``True`` when the turn ends."""


DONE = Interned(lambda company, seat: Done(company=company, player=seat))
"""The end of a buying turn, built once per company and director."""


def buying_actions(pos: Position, company: TramCompany) -> list[Action]:
    """Everything ``company`` may do in its buying turn."""
    actions = trams.turn_actions(pos, company, company.director)
    if company.purchases_closed:  # the site's reassign step scraps nothing
        actions = [a for a in actions if not isinstance(a, ScrapTram)]
    if trams.must_buy_in_turn(pos, company):  # X-18 (proposed, 18xx.games)
        return actions
    return [*actions, DONE(company.id, company.director)]


def play_buying_turn(pos: Position, company: TramCompany, action: Action,
                     log: list[str]) -> bool:
    """VIII.5.3: play one action of the buying turn; ``True`` when the turn ends (Done)."""
    play = handler(BUYING_TURN, action, "VIII.5.3",
                   f"{company.id} may buy, scrap or arrange trams, or end")
    return play(pos, company, action, log)


def _buy(pos: Position, company: TramCompany, action: BuyTram, log: list[str]) -> bool:
    trams.buy(pos, company, action.colour, log,
              mandatory=trams.must_buy_in_turn(pos, company))  # X-18 (proposed)
    company.purchases_closed = pos.rules.buying_turn_kept_open and _nothing_more(pos, company)
    # at its tram limit, with no line to arrange trams on, the site ends the step
    ends = (pos.rules.buying_turn_kept_open and len(company.owned()) >= pos.ent.max_trams
            and not company.lines)
    if ends:
        company.purchases_closed = False
    return ends


def _nothing_more(pos: Position, company: TramCompany) -> bool:
    """X-17: after a purchase the site ends its buying step once the company can buy no
    more tram: at its limit, or with less than the lowest price any tram on sale can ever
    have (not today's price); a scrap is then refused (its reassign step: random_46033_4p,
    random_44061_3p "Reassign Trains cannot process action scrap_train")."""
    if len(company.owned()) >= pos.ent.max_trams:
        return True
    left = [c for c, n in (sp for sp in pos.trams.spaces if sp is not None) if n > 0]
    floor = min((min(p for p in pos.ent.tram_prices_by_space[c] if p is not None)
                 for c in left), default=None)
    return floor is None or company.treasury < floor


def _scrap(pos: Position, company: TramCompany, action: ScrapTram, log: list[str]) -> bool:
    if company.purchases_closed:
        raise IllegalAction("VIII.5.3", f"{company.id} bought its last tram of the turn: "
                            "18xx.games asks only where its trams run now (X-17)")
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
    company.purchases_closed = False
    if pos.rules.scrapped_line_stays_empty:
        _fill_empty_lines(company, log)
    return True


def _fill_empty_lines(company: TramCompany, log: list[str]) -> None:
    """The site's reassign step after a buying turn puts a spare tram on every line left
    without one ("All tram lines need to have one train": random_46075_4p, a line that
    scrapped its tram in a Line Round and a spare waiting since)."""
    n = len(company.lines)
    if None not in company.trams[:n] or len(company.trams) <= n:
        return
    for i in range(min(n, len(company.trams))):
        if company.trams[i] is None and len(company.trams) > n:
            company.trams[i] = company.trams.pop()
    pairs = ", ".join(f"L{ln}: {t or 'none'}"
                      for ln, t in zip(company.lines, company.trams, strict=False))
    log.append(f"{company.id} arranges its trams ({pairs})")  # (the log's known shape)


BUYING_TURN: dict[type[Action], BuyingHandler] = {
    BuyTram: _buy, ScrapTram: _scrap, Arrange: _arrange, CompanyReturnPrivate: _return,
    Done: _done,
}
"""The actions of a buying turn and what plays each (VIII.5.3)."""
