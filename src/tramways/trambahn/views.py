"""What a player may know, and positions sampled consistently with it.

``build_view(state, player)`` (a typed :class:`~tramways.trambahn.view_types.TrambahnView`)
holds the player's own hand, everything face up (passenger rows, both players' columns with
their trams, the tram display and stack, the scores and their history) and only the *sizes*
of hidden piles: the other hand, the draw pile, the discard pile and both money piles (money
faces are hidden from everybody, even their owner).
``player=None`` is the spectator view (no hand at all).

``determinize(view, rng)`` is the engine's answer to "what could the hidden cards be?": it
deals every card not visible in the view at random into the hidden places, so search bots can
simulate without ever seeing the real hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tramways.core import Action
from tramways.trambahn.actions import Income, format_action
from tramways.trambahn.cards import CARD_FACE, COLOURS, IDS_BY_FACE, NUM_CARDS, tram_value
from tramways.trambahn.state import Column, TrambahnState
from tramways.trambahn.view_types import ColumnView, ScoringView, TrambahnResult, TrambahnView

Label = Callable[[int], str]


def face_label(card: int) -> str:
    return CARD_FACE[card]


def _sort_key(face: str) -> tuple[int, int]:
    if face == "C" or not face[:-1].isdigit():
        return (9, 0)
    return (COLOURS.index(face[-1]), int(face[:-1]))


def build_view(state: TrambahnState, player: int | None, label: Label = face_label
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
        history=tuple(ScoringView.from_json(h) for h in state.history),
        reshuffles=state.reshuffles,
        over=state.over,
        end_reason=state.end_reason,
        result=TrambahnResult.from_json(state.result()) if state.over else None,
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


def determinize(view: TrambahnView, rng: random.Random) -> TrambahnState:
    """A full position consistent with ``view``: hidden cards dealt at random.

    Visible faces keep their places; every other card goes at random to the hidden places
    (the other hand, both money piles, the draw and discard piles) in the sizes the view
    shows.  The result has a fresh seed, so even future reshuffles are not the real ones.
    """
    pools = {face: list(ids) for face, ids in IDS_BY_FACE.items()}

    def take(face: str) -> int:
        return pools[face].pop()

    me = view.you
    hands: list[list[int]] = [[], []]
    if me is not None and view.hand is not None:
        hands[me] = [take(f) for f in view.hand]
    rows = [[take(f) for f in view.rows[c]] for c in COLOURS]
    columns = [
        [
            Column(
                COLOURS.index(cv.colour),
                [take(f) for f in cv.stations],
                [take(f) for f in cv.conductors],
                cv.tram,
                cv.extra_tour,
            )
            for cv in cols
        ]
        for cols in view.columns
    ]
    hidden = [c for ids in pools.values() for c in ids]
    rng.shuffle(hidden)

    def deal(n: int) -> list[int]:
        out = hidden[len(hidden) - n :] if n else []
        del hidden[len(hidden) - n :]
        return out

    for p in (0, 1):
        if p != me:
            hands[p] = deal(view.hand_sizes[p])
    money = [deal(view.money_sizes[p]) for p in (0, 1)]
    discard = deal(view.discard_size)
    deck = deal(view.deck_size)
    if hidden or sum(map(len, hands)) + len(deck) + len(discard) > NUM_CARDS:
        raise ValueError("view sizes do not add up to 120 cards")
    return TrambahnState(
        seed=rng.randrange(2**53),
        names=(view.names[0], view.names[1]),
        deck=deck,
        discard=discard,
        hands=hands,
        money=money,
        rows=rows,
        columns=columns,
        stack=list(view.stack),
        display=list(view.display),
        turn=view.turn,
        turn_number=view.turn_number,
        step=view.step,
        passengers=view.passengers_placed,
        regular=view.regular_scorings,
        scores=list(view.scores),
        history=[h.to_json() for h in view.history],
        reshuffles=view.reshuffles,
        over=view.over,
        end_reason=view.end_reason,
    )
