"""What every round type has in common: the ``Round`` protocol and the dispatch of an action
to its handler by a table from action type to method.

A round's progress is the round object's own data; the position holds it as
``pos.current_round``.  A round type's module provides ``begin(pos, log) -> Round`` (the engine
calls it when the Round Bar reaches that space).  Then, for every action:

* ``acting(pos)``: whose turn it is; ``legal(pos)``: every action of that seat in the round;
* ``apply(pos, action, log)``: check and play one action of the acting seat (the engine has
  checked the seat's authority, IV.1.2); an ``IllegalAction`` leaves everything untouched;
* ``settle(pos, log) -> bool``: play the automatic steps; ``True`` when the round is done;
* ``turn_rule()``: the section that fixes whose turn it is (named by a refusal);
* ``takes_in_turn(pos, company)``: whether a return or scrap of ``company`` is part of its own
  turn in this round (its buying or line turn) rather than an "at any time" action;
* what the view shows (``view``, ``turn_view``) and what the position's queries read
  (``line_auctions_ahead``, ``offered_private``), from :class:`RoundProgress`.

``apply`` looks the action's type up in a table of handlers (:func:`handler`): each round
lists, for the moment of its turn it is in, which method plays which action; an action not in
the table is refused with the rule of that moment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.position import Position, RoundProgress
from tramways.g1840.view_types import NO_DETAIL, RoundDetail, TurnDetail

H = TypeVar("H", bound=Callable[..., Any])
A = TypeVar("A", bound=Action)


def handler(table: Mapping[type[Action], H], action: Action, rule: str, refusal: str) -> H:
    """The method of ``table`` that plays ``action``; refused (``rule``, ``refusal``) when the
    table has none: the action is not one of this moment of the round."""
    found = table.get(type(action))
    if found is None:
        raise IllegalAction(rule, refusal)
    return found


def expect(kind: type[A], action: Action, rule: str, refusal: str) -> A:
    """``action`` when it is the one kind of action this moment of the round takes; otherwise
    refused (``rule``, ``refusal``)."""
    if not isinstance(action, kind):
        raise IllegalAction(rule, refusal)
    return action


class Round(RoundProgress, Protocol):
    """A round in progress."""

    def legal(self, pos: Position) -> list[Action]: ...

    def apply(self, pos: Position, action: Action, log: list[str]) -> None: ...

    def settle(self, pos: Position, log: list[str]) -> bool: ...

    def turn_rule(self) -> str: ...

    def takes_in_turn(self, pos: Position, company: str) -> bool: ...


class PlayersRound:
    """What a round in which only players act (the Pre-Share and Share Rounds) shows and answers:
    no company acts in turn, no line auction lies ahead, no private is offered, nothing extra
    in the view."""

    def takes_in_turn(self, pos: Position, company: str) -> bool:
        return False

    def line_auctions_ahead(self) -> bool:
        return False

    def offered_private(self) -> str | None:
        return None

    def view(self, pos: Position) -> RoundDetail:
        return NO_DETAIL

    def turn_view(self, pos: Position) -> TurnDetail:
        return TurnDetail()
