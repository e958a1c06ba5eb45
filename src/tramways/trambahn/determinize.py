"""Positions consistent with what a seat knows: the engine's answer to "what could the
hidden cards be?".

``determinize(view, rng)`` deals every card not visible in the view at random into the hidden
places, so search bots can simulate without ever seeing the real hidden cards.
"""

from __future__ import annotations

import random

from tramways.trambahn.cards import COLOURS, IDS_BY_FACE, NUM_CARDS
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.position import Column
from tramways.trambahn.view_types import TrambahnView


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
        history=list(view.history),
        reshuffles=view.reshuffles,
        over=view.over,
        end_reason=view.end_reason,
        resigned=view.result.resigned if view.result is not None else None,
    )
