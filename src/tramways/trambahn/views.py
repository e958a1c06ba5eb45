"""What a player may know of a position.

``build_view(state, player)`` (a typed :class:`~tramways.trambahn.view_types.TrambahnView`)
holds the player's own hand, everything face up (passenger rows, both players' columns with
their trams, the tram display and stack, the scores and their history) and only the *sizes*
of hidden piles: the other hand, the draw pile, the discard pile and both money piles (money
faces are hidden from everybody, even their owner).
``player=None`` is the spectator view (no hand at all).

Positions sampled consistently with a view: :mod:`tramways.trambahn.determinize`.
"""

from __future__ import annotations

from collections.abc import Callable

from tramways.core import Action
from tramways.trambahn.actions import Income, format_action
from tramways.trambahn.cards import CARD_FACE, COLOURS, tram_value
from tramways.trambahn.position import Column, TrambahnPosition
from tramways.trambahn.rules import result
from tramways.trambahn.view_types import ColumnView, TrambahnView

Label = Callable[[int], str]


def face_label(card: int) -> str:
    return CARD_FACE[card]


def _sort_key(face: str) -> tuple[int, int]:
    if face == "C" or not face[:-1].isdigit():
        return (9, 0)
    return (COLOURS.index(face[-1]), int(face[:-1]))


def build_view(state: TrambahnPosition, player: int | None, label: Label = face_label
               ) -> TrambahnView:
    """The typed view of ``player`` (``None``: spectator).

    ``label`` names a visible card (its face by default); tests pass a label that is unique
    per card id to prove no hidden card ever appears.
    """
    return TrambahnView(
        you=player,
        names=tuple(state.names),
        turn=state.turn,
        turn_number=state.turn_number,
        step=state.step,
        passengers_placed=state.passengers,
        hand=tuple(sorted((label(c) for c in state.hands[player]), key=_sort_key))
        if player is not None else None,
        hand_sizes=tuple(len(h) for h in state.hands),
        money_sizes=tuple(len(m) for m in state.money),
        deck_size=len(state.deck),
        discard_size=len(state.discard),
        rows={COLOURS[i]: tuple(label(c) for c in row) for i, row in enumerate(state.rows)},
        columns=tuple(tuple(_column_view(col, label) for col in cols)
                      for cols in state.columns),
        display=tuple(state.display),
        stack=tuple(state.stack),
        scores=tuple(state.scores),
        regular_scorings=state.regular,
        history=tuple(state.history),
        reshuffles=state.reshuffles,
        over=state.over,
        end_reason=state.end_reason,
        result=result(state) if state.over else None,
    )


def _column_view(col: Column, label: Label) -> ColumnView:
    return ColumnView(
        colour=COLOURS[col.colour],
        stations=tuple(label(c) for c in col.stations),
        conductors=tuple(label(c) for c in col.conductors),
        tram=col.tram,
        extra_tour=col.toured,
        points=col.points,
        multiplier=tram_value(col.tram),
    )


HIDDEN_CARD = "?"
"""Stands for a card face nobody may know in redacted notation."""


def public_notation(action: Action, viewer: int | None) -> str:
    """The notation of ``action`` as ``viewer`` may read it.

    Income (Step 3) puts a card face down onto the money pile, hidden from everybody (even its
    owner's view keeps no money faces): ``P1 income 7r`` reads ``P1 income ?``.  Every other
    action plays a card face up or names no card, so its notation is public.
    """
    if isinstance(action, Income):
        return f"P{action.player + 1} income {HIDDEN_CARD}"
    return format_action(action)
