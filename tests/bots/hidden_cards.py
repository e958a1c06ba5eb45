"""A Trambahn position with only its hidden cards changed, for the tests that a bot reads its
own view alone (hidden information is only in the views of those allowed to see it)."""

from __future__ import annotations

from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.invariants import check_invariants


def hidden_swapped(state: TrambahnState, seat: int | None = None) -> TrambahnState:
    """A copy of ``state`` in which the other player's hand and the draw pile trade their
    first cards (as many as the smaller holds): still a legal position, and ``seat``'s view
    (the player to move by default) is unchanged."""
    me = state.turn if seat is None else seat
    other = state.clone()
    opp = 1 - me
    k = min(len(other.hands[opp]), len(other.deck))
    other.hands[opp][:k], other.deck[:k] = other.deck[:k], other.hands[opp][:k]
    check_invariants(other)
    assert other.view(me) == state.view(me)
    return other
