"""The ``Round`` protocol every round type implements (one module per type).

A round's progress is the round object's own data; the position holds it as ``pos.sub``.
A round type's module provides ``begin(pos, log) -> Round`` (the engine calls it when the
Round Bar reaches that space).  Then, for every action:

* ``acting(pos)``: whose turn it is; ``legal(pos)``: every action of that seat in the round;
* ``apply(pos, action, log)``: check and play one action of the acting seat (the engine has
  checked the seat's authority, IV.1.2); an ``IllegalAction`` leaves everything untouched;
* ``settle(pos, log) -> bool``: play the automatic steps; ``True`` when the round is done;
* ``turn_rule()``: the section that fixes whose turn it is (named by a refusal);
* ``takes_in_turn(pos, company)``: whether a return or scrap of ``company`` is part of its own
  turn in this round (its buying or line turn) rather than an "at any time" action;
* what the view shows (``view``, ``turn_view``) and what the position's queries read
  (``line_auctions_ahead``, ``offered_private``), from :class:`RoundProgress`.
"""

from __future__ import annotations

from typing import Any, Protocol

from tramways.core.actions import Action
from tramways.g1840.position import Position, RoundProgress


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

    def view(self, pos: Position) -> dict[str, Any]:
        return {}

    def turn_view(self, pos: Position) -> dict[str, Any]:
        return {}
