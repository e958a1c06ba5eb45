"""The search's building plan: the rest of a Trambahn turn after the passengers, as one plan.

Once its passengers are placed, the ``search`` bot weighs every way to finish the turn instead
of choosing action by action: every way to lay the hand as stations (Step 2, T-R-1: a card on
any column it ascends, a new column only when none can take it, conductors beside any column
without a 10), then every way to give the new columns a tram from the display (Step 4, with the
cards its planner values least banked to pay, Step 3), then the planner's own banking of the
rest (the hand keeps cycling).  So a station and the tram it needs two actions later are one
plan, and a column is never started without its tram (T-R-6 would discard it).

Each finished turn is valued on the position after its end (Step 5): the search's
:func:`~tramways.bots.search.evaluate` plus what the cards kept in the hand are worth to the
planner (:meth:`~tramways.bots.trambahn_rule.Evaluator.keep_value`) and ``fresh`` for each card
drawn in place of one played.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from tramways.bots.trambahn_policy import Planner
from tramways.bots.trambahn_rule import END
from tramways.core import Action
from tramways.trambahn.actions import Buy, EndTurn, Income, Station
from tramways.trambahn.cards import CARD_FACE, CONDUCTOR, FACE_COLOUR, FACE_VALUE, HAND_SIZE, TRAMS
from tramways.trambahn.engine import TrambahnState

FRESH = 0.8
"""What a card drawn at Step 5 is worth in the hand, on average (points)."""

HAND_WEIGHT = 0.5
"""Weight of the planner's keep value of the cards left in the hand."""


def build_turn(state: TrambahnState, evaluate: Callable[[TrambahnState, int], float],
               planner: type[Planner] = Planner, fresh: float = FRESH,
               hand_weight: float = HAND_WEIGHT) -> list[Action]:
    """The best way to finish the turn of the player to move (see the module docstring)."""
    me = state.turn
    best: list[Action] = [EndTurn(me)]
    best_value = float("-inf")
    for laid, acts in _stations(state):
        for done, more in _trams(laid, planner):
            kept = [CARD_FACE[c] for c in done.hands[me]]
            ev = planner(done)
            hand = sum(ev.keep_value(f) for f in kept)
            after = done.clone()
            after.apply(EndTurn(me))
            value = (evaluate(after, me) + hand_weight * hand
                     + fresh * (HAND_SIZE - len(kept)))
            if value > best_value:
                best_value, best = value, [*acts, *more, EndTurn(me)]
    return best


def _stations(state: TrambahnState) -> Iterator[tuple[TrambahnState, list[Action]]]:
    """Every way to lay the hand (Step 2), stations by colour and value, conductors last."""
    if state.step > 2:
        yield state, []
        return
    faces = sorted((CARD_FACE[c] for c in state.hands[state.turn]),
                   key=lambda f: (f == CONDUCTOR, FACE_COLOUR[f], FACE_VALUE[f]))
    yield from _lay(state, faces, 0, [], "")


def _lay(state: TrambahnState, faces: list[str], i: int, acts: list[Action], skipped: str
         ) -> Iterator[tuple[TrambahnState, list[Action]]]:
    if i == len(faces):
        yield state, acts
        return
    face = faces[i]
    yield from _lay(state, faces, i + 1, acts, face)
    if i > 0 and faces[i - 1] == face and skipped == face:
        return  # identical cards: once one stays in the hand, so do the next ones
    for a in state.legal_actions():
        if isinstance(a, Station) and a.card == face:
            after = state.clone()
            after.apply(a)
            yield from _lay(after, faces, i + 1, [*acts, a], "")


def _trams(state: TrambahnState, planner: type[Planner]
           ) -> Iterator[tuple[TrambahnState, list[Action]]]:
    """Every way to give the tram-less columns a tram (Step 4), banking first the cards the
    planner values least to pay; then the planner banks what it would (Step 3)."""
    me = state.turn
    waiting = [k for k, col in enumerate(state.columns[me]) if col.tram is None]
    for buys in _assignments(list(state.display), waiting, 0):
        cost = sum(TRAMS[kind][1] for kind, _ in buys)
        s = state.clone()
        acts: list[Action] = []
        ev = planner(s)
        order = sorted(s.hands[me], key=lambda c: ev.keep_value(CARD_FACE[c]))
        while len(s.money[me]) < cost and order and s.step <= 3:
            a = Income(me, CARD_FACE[order.pop(0)])
            s.apply(a)
            acts.append(a)
        if len(s.money[me]) < cost:
            continue
        acts.extend(_bank(s, planner))
        for kind, k in buys:
            buy = Buy(me, kind, k)
            s.apply(buy)
            acts.append(buy)
        yield s, acts


def _bank(state: TrambahnState, planner: type[Planner]) -> list[Action]:
    """The planner's banking (Step 3): while it wants to bank a card, the one it wants most."""
    acts: list[Action] = []
    while state.step <= 3:
        ev = planner(state)
        options = [(ev.income(a), i, a) for i, a in enumerate(state.legal_actions())
                   if isinstance(a, Income)]
        if not options:
            break
        score, _, best = max(options)
        if score <= END:
            break
        state.apply(best)
        acts.append(best)
    return acts


def _assignments(display: list[str], waiting: list[int], i: int
                 ) -> Iterator[list[tuple[str, int]]]:
    """Every way to give trams from the display to the waiting columns (none included)."""
    if i == len(waiting):
        yield []
        return
    yield from _assignments(display, waiting, i + 1)
    for kind in dict.fromkeys(display):
        rest = display[:]
        rest.remove(kind)
        for more in _assignments(rest, waiting, i + 1):
            yield [(kind, waiting[i]), *more]
