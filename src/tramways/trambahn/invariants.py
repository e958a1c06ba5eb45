"""Invariants of every reachable position, checked by the tests after every action.

* each of the 120 cards is in exactly one place;
* columns ascend strictly, hold one colour, and nothing follows a 10 (T-R-1);
* rows hold fewer than 4 passengers between actions (a 4th scores at once, Step 1);
* the 16 tramway cards are each in the stack, the display or a column (T-FACT-1);
* the scores equal the sum of the scoring history, and each regular scoring's figures equal
  points x tram value of the columns it lists (T-FACT-2).
"""

from __future__ import annotations

from collections import Counter

from tramways.trambahn.cards import (
    CARD_COLOUR,
    CARD_POINTS,
    CARD_VALUE,
    DISPLAY_SIZE,
    HAND_SIZE,
    NUM_CARDS,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAM_STACK,
    is_conductor,
)
from tramways.trambahn.position import Column, TrambahnPosition


class InvariantError(AssertionError):
    """A position the rules cannot produce."""


def check_invariants(state: TrambahnPosition) -> None:
    """Raise :class:`InvariantError` naming the first broken invariant."""
    _every_card_once(state)
    for p in (0, 1):
        if len(state.hands[p]) > HAND_SIZE:
            raise InvariantError(f"P{p + 1} holds {len(state.hands[p])} cards")
        for i, col in enumerate(state.columns[p]):
            _column_well_formed(col, f"P{p + 1} column {i + 1}")
    if not state.over and any(len(r) >= ROW_SIZE for r in state.rows):
        raise InvariantError("a row holds 4 passengers but was not scored")
    _every_tram_once(state)
    _scores_match_history(state)


def _every_card_once(state: TrambahnPosition) -> None:
    """Each of the 120 cards is in exactly one place."""
    places: list[int] = [*state.deck, *state.discard]
    for p in (0, 1):
        places += state.hands[p] + state.money[p]
        for col in state.columns[p]:
            places += col.stations + col.conductors
    for row in state.rows:
        places += row
    if sorted(places) != list(range(NUM_CARDS)):
        counts = Counter(places)
        dup = [c for c, n in counts.items() if n > 1]
        missing = sorted(set(range(NUM_CARDS)) - set(counts))
        raise InvariantError(f"cards not accounted for: duplicated {dup}, missing {missing}")


def _column_well_formed(col: Column, name: str) -> None:
    """A column ascends strictly in one colour, with conductors only beside it (T-R-1), its
    cached points right (T-FACT-2), and its 8th card has had its Extra Tour (T-R-3)."""
    values = [CARD_VALUE[c] for c in col.stations]
    if not values or any(a >= b for a, b in zip(values, values[1:], strict=False)):
        raise InvariantError(f"{name} not ascending: {values}")
    if any(CARD_COLOUR[c] != col.colour for c in col.stations):
        raise InvariantError(f"{name} mixes colours")
    if not all(is_conductor(c) for c in col.conductors):
        raise InvariantError(f"{name}: non-conductor beside it")
    if col.points != sum(CARD_POINTS[c] for c in col.stations):
        raise InvariantError(f"{name}: cached points are stale")
    if col.size >= 8 and not col.toured:
        raise InvariantError(f"{name} has 8 cards but no Extra Tour")


def _every_tram_once(state: TrambahnPosition) -> None:
    """The 16 tramway cards are each in the stack, the display or a column (T-FACT-1)."""
    trams = Counter(state.stack) + Counter(state.display)
    trams += Counter(c.tram for cols in state.columns for c in cols if c.tram)
    if trams != Counter(TRAM_STACK) or len(state.display) > DISPLAY_SIZE:
        raise InvariantError(f"tramway cards not accounted for: {dict(trams)}")


def _scores_match_history(state: TrambahnPosition) -> None:
    """The scores are the sum of the history; each regular scoring adds up; the game ends
    exactly at the 10th regular scoring (T-R-4)."""
    totals = [0, 0]
    regular = 0
    for h in state.history:
        if h.kind == "regular":
            regular += 1
            if tuple(sum(cols) for cols in h.columns or ()) != h.points:
                raise InvariantError(f"scoring {h.number} does not add up")
        for p in (0, 1):
            totals[p] += h.points[p]
    if totals != state.scores:
        raise InvariantError(f"scores {state.scores} != history {totals}")
    if regular != state.regular or regular > REGULAR_SCORINGS:
        raise InvariantError(f"{state.regular} regular scorings, history has {regular}")
    if (regular == REGULAR_SCORINGS) != (state.over and state.end_reason == "tenth scoring"):
        raise InvariantError("the game must end exactly at the 10th regular scoring")
