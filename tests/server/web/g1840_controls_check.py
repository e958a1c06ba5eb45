"""Checks shared by the in-process and the browser tests of the 1840 controls (issue 23):
a label must never be engine notation (item 4), and a control's shown price must be what the
engine then charges (item 3)."""

from __future__ import annotations

import re
from typing import Any

from tramways.core.errors import NotationError
from tramways.g1840.actions import parse_action

VERBS = ("bid|pass|order|par|buy|sell|return|accept|decline|pay|scrap|arrange|done|auction|"
         "lay|station|remove|run|skip")
COLOUR = "(?:yellow|orange|red|pink|purple|none)"
NOTATION = re.compile(
    rf"(?:^|\s)(?:P\d+|L\d+|[A-Z]{{1,4}})\s+(?:{VERBS})(?:\s|$)"  # "P1 pass", "L4 buy SB 1"
    rf"|^(?:{VERBS})(?:\s|$)"                                     # "scrap yellow", "done"
    rf"|{COLOUR}(?:,{COLOUR})+"                                   # "orange,none,yellow"
)
"""The shapes of 1840 notation a label must not have."""


def is_notation(label: str) -> bool:
    """Whether ``label`` reads as engine notation: the grammar above, or the engine itself
    parses it (with or without an actor in front)."""
    text = " ".join(label.split())
    if not text:
        return False
    if NOTATION.search(text):
        return True
    for candidate in (text, f"P1 {text}", f"WT {text}", f"L1 {text}"):
        try:
            parse_action(candidate)
        except (NotationError, ValueError, IndexError, KeyError):
            continue
        return True
    return False


def _money(state: Any) -> dict[str, int]:
    """Every purse of a position: the players' cash and the companies' treasuries."""
    v = state.view(None)
    out = {f"P{p.seat + 1}": p.cash for p in v.players}
    out.update({cid: c.treasury for cid, c in v.companies.items()})
    return out


def charged(state: Any, game: Any, notation: str) -> dict[str, int]:
    """What playing ``notation`` on a copy of ``state`` changes in each purse (a private a
    company offers to buy is paid when its owner accepts: the acceptance is played too)."""
    copy = state.clone()
    before = _money(copy)
    action = game.parse_action(notation)
    seats = copy.seats_for(action)
    copy.apply(action, seats[0] if seats else None)
    view = copy.view(None)
    turn = view.round_info.line_turn
    if turn is not None and turn.offer is not None and notation.split()[1] == "buy":
        seller = turn.offer[2]
        accept = game.parse_action(f"P{seller + 1} accept")
        copy.apply(accept, seller)
    after = _money(copy)
    return {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}


def check_price(state: Any, game: Any, notation: str, price: int | None,
                gets: int | None) -> None:
    """The control's ``price`` (or ``gets``) is what the engine charges (or pays) the actor
    (the company and its director together when the director adds money, VIII.5.3)."""
    changes = charged(state, game, notation)
    actor = notation.split()[0]
    view = state.view(None)
    if actor.startswith("L"):
        actor = view.company_of_line(int(actor[1:])) or actor
    ours = [actor]
    if actor in view.companies:
        ours.append(f"P{view.companies[actor].director + 1}")
    delta = sum(changes.get(k, 0) for k in ours)
    if actor in view.companies and notation.split()[1] == "buy" and \
            notation.split()[0].startswith("L"):
        delta = changes.get(actor, 0)  # the company pays; its director may be the seller
    expected = -price if price is not None else gets
    assert delta == expected, (notation, price, gets, changes)
