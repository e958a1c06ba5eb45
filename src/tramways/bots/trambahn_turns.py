"""Whole turns for the Trambahn ``search``: every way to play a turn,
weighed by a static evaluation that sees the race for scorings.

At the first decision of its turn the search lists **whole turns** ("Course of Play",
steps 1-5) on a small model of its own side of the table (:class:`Draft`):

* Step 1: one passenger or two (a conductor to any row); the 4th passenger of a row scores
  it at once for both players (T-R-2), the 10th regular scoring ends the game (T-R-4);
* Step 2: each other hand card kept, or laid on a column it ascends, or on a new column only
  when none can take it (T-R-1); conductors beside a column without a 10; the 8th card of a
  column scores its Extra Tour at once, x0 without a tram (T-R-3);
* Steps 3-4: a tram from the display for each new column or none (T-R-6 sends a tram-less
  column to the money pile at Step 5), the cards worth least kept banked to pay; then every
  other card banked whose money and fresh draw are worth more than keeping it (the hand keeps
  cycling).

Each finished turn is scored by :meth:`TurnPlanner.value` (points for the mover): the score
difference, each colour's column scores (ours less the other player's) times the regular
scorings of that colour still to come, the columns' room to grow and their Extra Tours,
money while trams remain to be bought (more while a new column would need it, little beyond
one electric tram, T-FACT-1), the cards kept, and the **danger of the other player's next
passengers**: from the cards the mover has not seen
(:class:`~tramways.bots.trambahn_unseen.Unseen`: its hand, the table, its own money cards
and the faces it saw discarded are out), the hypergeometric chance that
the other player's hand holds what a row at 3 (one card of its colour or a conductor) or at
2 (two) needs, times what that scoring gives them over us; when that scoring would be the
10th and leave them ahead, the game itself (T-R-4).  The same model counts our own chance to
score a row at 3 that favours us next turn.  The best ``top`` turns by this value may then be
checked by the search (:mod:`tramways.bots.search`); by default the best one is played.

Written for the search from the rulebook (``../shared/rules/trambahn-rules-en.md``) and the
RULINGS T-R-1..T-R-6; it imports no other bot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tramways.bots.trambahn_infer import HandClue
from tramways.bots.trambahn_unseen import Unseen, chance_of
from tramways.core import Action
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import (
    COLOURS,
    COMPLETE_VALUE,
    CONDUCTOR,
    EXTRA_TOUR_SIZE,
    FACE_COLOUR,
    FACE_VALUE,
    HAND_SIZE,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAMS,
    face_points,
)
from tramways.trambahn.view_types import TrambahnView

GAME_WON = 1000.0
"""Points a won game is worth beyond its margin (T-R-4 decides it at once)."""

_VALUE_OF = {kind: spec[0] for kind, spec in TRAMS.items()}
_COST_OF = {kind: spec[1] for kind, spec in TRAMS.items()}


@dataclass(slots=True)
class Route:
    """One of the mover's columns in a draft: colour index, top value, victory points,
    cards (stations and conductors), tram multiplier (0: none), Extra Tour had."""

    colour: int
    top: int
    points: int
    size: int
    tram: int
    toured: bool

    def copy(self) -> Route:
        return Route(self.colour, self.top, self.points, self.size, self.tram, self.toured)


@dataclass(slots=True)
class Draft:
    """The table as the mover's turn leaves it so far, and the actions that make it.
    ``scores`` are (mover, other)."""

    scores: list[int]
    regular: int
    rows: list[int]
    routes: list[Route]
    money: int
    hand: list[str]
    display: list[str]
    actions: list[Action] = field(default_factory=list)
    over: bool = False

    def fork(self) -> Draft:
        return Draft(self.scores[:], self.regular, self.rows[:],
                     [r.copy() for r in self.routes], self.money, self.hand[:],
                     self.display[:], self.actions[:], self.over)


class TurnPlanner:
    """Lists and weighs the whole turns of one decision (see the module docstring).  Every
    weight is a class attribute (``variant_of`` makes planners with other weights)."""

    future_fill = 0.1
    """Scoring: a row with more passengers scores sooner; the scorings still to come of a
    colour are ``left / 4 + future_fill x passengers``."""
    grow = 3.0
    """Points a column with a tram may still gain over its whole room to a 10 (T-R-1)."""
    tour = 0.9
    """Share of an Extra Tour counted for a column of 7 cards, less for fewer (T-R-3)."""
    money_card = 0.55
    """A money card while trams remain to buy (Step 4) ..."""
    money_enough = 20
    """... up to this many (four electric trams' price is 60); beyond, ``money_spare`` a card."""
    money_spare = 0.1
    fresh = 0.8
    cycle = 1.3
    """When above 0: a card is banked when it is worth less than this kept (a money card and
    a fresh card together); 0: the marginal money card's worth plus ``fresh``."""
    """A card drawn at Step 5 in place of one played, on average."""
    start_low = 0.7
    """A kept card no column takes: a start for a new column (value up to 4) ..."""
    start_high = 0.25
    gap = 0.25
    """A kept card counts ``1 / (1 + gap x values skipped)`` of what it adds (T-R-1: a
    column only ascends, so skipped values are lost)."""
    danger = 1.0
    """Weight of the other player's next passengers (rows at 2 and 3 that favour them)."""
    chance = 0.5
    """Weight of our own next passengers on a row at 3 that favours us."""
    last_three = 1.0
    """T-R-4: with one scoring left, a row left at 3 or 2 from which the other player would
    end the game ahead costs this share of the game times its chance."""
    pair = 0.0
    """Above 0: the other player's next turn may fill two rows at 3 (its two passengers,
    T-R-2): each row counts while at most one better row is open to it (0: the best open row
    alone), and with two scorings left a pair of rows at 3 whose scorings would end the game
    with it ahead (T-R-4) costs ``pair`` times the game times the chance of both."""

    def __init__(self, view: TrambahnView, known: Counter[str],
                 clue: HandClue | None = None) -> None:
        """``clue``: what the other hand likely lacks (:mod:`tramways.bots.trambahn_infer`);
        its chances replace the unseen cards' alone."""
        assert view.you is not None and view.hand is not None
        self.view = view
        self.me = view.you
        other = 1 - self.me
        self.theirs = [0, 0, 0, 0]
        for col in view.columns[other]:
            if col.tram is not None:
                self.theirs[COLOURS.index(col.colour)] += col.points * _VALUE_OF[col.tram]
        self.unseen = Unseen.from_view(view, known)
        hand = view.hand_sizes[other] or HAND_SIZE
        self.p_one = [chance_of(1, n, self.unseen.total, hand) for n in self.unseen.per_row]
        self.p_two = [chance_of(2, n, self.unseen.total, hand) for n in self.unseen.per_row]
        if clue is not None and clue.rows:
            self.p_one, self.p_two = clue.chances(Unseen.faces(view, known), hand)
        self.trams_left = len(view.display) + len(view.stack)

    # -- the draft at the start of the decision --------------------------------------------

    def start(self) -> Draft:
        view = self.view
        assert view.hand is not None
        routes = []
        for col in view.columns[self.me]:
            top = FACE_VALUE[col.stations[-1]] if col.stations else 0
            routes.append(Route(COLOURS.index(col.colour), top, col.points,
                                len(col.stations) + len(col.conductors),
                                _VALUE_OF[col.tram] if col.tram else 0, col.extra_tour))
        return Draft(scores=[view.scores[self.me], view.scores[1 - self.me]],
                     regular=view.regular_scorings, rows=[len(view.rows[c]) for c in COLOURS],
                     routes=routes, money=view.money_sizes[self.me], hand=list(view.hand),
                     display=list(view.display))

    def best(self, top: int = 1) -> list[tuple[float, Draft]]:
        """The ``top`` best whole turns, best first, with their values."""
        kept: list[tuple[float, int, Draft]] = []
        for n, draft in enumerate(self.turns(self.start())):
            value = self.value(draft)
            if len(kept) < top:
                kept.append((value, -n, draft))
                kept.sort(key=lambda t: (t[0], t[1]), reverse=True)
            elif value > kept[-1][0]:
                kept[-1] = (value, -n, draft)
                kept.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return [(v, d) for v, _, d in kept]

    # -- listing turns ------------------------------------------------------------------------

    def turns(self, draft: Draft) -> Iterator[Draft]:
        view = self.view
        placed = view.passengers_placed
        firsts = ([draft] if view.step > 1 or placed >= 2
                  else list(self._passengers(draft, 2 - placed, placed > 0, None)))
        for first in firsts:
            if first.over:
                yield first
                continue
            laid = self._stations(first) if view.step <= 2 else iter([first])
            for d in laid:
                yield from self._close(d, view.step <= 3)

    def _passengers(self, draft: Draft, most: int, optional: bool,
                    floor: tuple[str, int] | None) -> Iterator[Draft]:
        """Step 1 (T-R-2).  Two passengers that score nothing in between are the same turn in
        either order, so the second is taken at or after the first in a fixed order."""
        if optional:
            yield draft
        for face in sorted(set(draft.hand)):
            for row in (range(4) if face == CONDUCTOR else (FACE_COLOUR[face],)):
                key = (face, row)
                if floor is not None and key < floor:
                    continue
                d = draft.fork()
                scored = self._board(d, face, row)
                yield d
                if most > 1 and not d.over:
                    yield from self._passengers(d, 1, False, None if scored else key)

    def _board(self, d: Draft, face: str, row: int) -> bool:
        d.hand.remove(face)
        d.actions.append(Passenger(self.me, face, COLOURS[row]))
        d.rows[row] += 1
        if d.rows[row] < ROW_SIZE:
            return False
        d.scores[0] += sum(r.points * r.tram for r in d.routes if r.colour == row)
        d.scores[1] += self.theirs[row]
        d.rows[row] = 0
        d.regular += 1
        d.over = d.regular >= REGULAR_SCORINGS
        return True

    def _stations(self, draft: Draft) -> Iterator[Draft]:
        """Step 2: cards by colour and ascending value, conductors last (T-R-1)."""
        order = sorted(draft.hand, key=lambda f: (f == CONDUCTOR, FACE_COLOUR[f], FACE_VALUE[f]))
        yield from self._lay(draft, order, 0, False, 0)

    def _lay(self, d: Draft, order: list[str], i: int, kept_twin: bool, first: int
             ) -> Iterator[Draft]:
        if i == len(order):
            yield d
            return
        face = order[i]
        twin = i > 0 and order[i - 1] == face
        yield from self._lay(d, order, i + 1, True, 0)  # the card stays in the hand
        if twin and kept_twin:
            return  # an identical card kept before: keeping this one is the same turn
        if face == CONDUCTOR:
            for k in range(first if twin else 0, len(d.routes)):
                if d.routes[k].top < COMPLETE_VALUE:
                    after = d.fork()
                    self._place(after, face, k)
                    yield from self._lay(after, order, i + 1, False, k)
            return
        colour, value = FACE_COLOUR[face], FACE_VALUE[face]
        fits: list[int | None] = [k for k, r in enumerate(d.routes)
                                  if r.colour == colour and r.top < value]
        for target in fits or [None]:
            after = d.fork()
            self._place(after, face, target)
            yield from self._lay(after, order, i + 1, False, 0)

    def _place(self, d: Draft, face: str, k: int | None) -> None:
        d.hand.remove(face)
        d.actions.append(Station(self.me, face, k))
        if k is None:
            d.routes.append(Route(FACE_COLOUR[face], 0, 0, 0, 0, False))
            k = len(d.routes) - 1
        r = d.routes[k]
        r.size += 1
        if face != CONDUCTOR:
            r.top = FACE_VALUE[face]
            r.points += face_points(face)
        if r.size == EXTRA_TOUR_SIZE and not r.toured:
            r.toured = True
            d.scores[0] += r.points * r.tram

    def _close(self, d: Draft, may_bank: bool) -> Iterator[Draft]:
        """Steps 3-5: trams for the new columns, banking to pay; the rest of the hand banked
        when a money card and a fresh card are worth more; tram-less columns to money."""
        waiting = [k for k, r in enumerate(d.routes) if r.tram == 0]
        cash = d.money + (len(d.hand) if may_bank else 0)
        for buys in self._buys(list(d.display), waiting, 0, cash):
            after = d.fork()
            cost = sum(_COST_OF[kind] for kind, _ in buys)
            if may_bank:
                self._bank(after, cost)
            if after.money < cost:
                continue
            for kind, k in buys:
                after.money -= _COST_OF[kind]
                after.display.remove(kind)
                after.routes[k].tram = _VALUE_OF[kind]
                after.actions.append(Buy(self.me, kind, k))
            for r in after.routes:
                if r.tram == 0:
                    after.money += r.size  # T-R-6
            after.routes = [r for r in after.routes if r.tram]
            after.actions.append(EndTurn(self.me))
            yield after

    def _bank(self, d: Draft, cost: int) -> None:
        """Step 3: the cards worth least kept go first, to pay ``cost`` and while a money card
        and a fresh one are worth more than the card."""
        worth = sorted((self.keep_value(d, f), f) for f in d.hand)
        for value, face in worth:
            bar = self.cycle or self.money_worth(d, d.money) + self.fresh
            if d.money >= cost and value >= bar:
                break
            d.hand.remove(face)
            d.money += 1
            d.actions.append(Income(self.me, face))

    def _buys(self, display: list[str], waiting: list[int], i: int, cash: int
              ) -> Iterator[list[tuple[str, int]]]:
        if i == len(waiting):
            yield []
            return
        yield from self._buys(display, waiting, i + 1, cash)
        for kind in dict.fromkeys(display):
            if _COST_OF[kind] <= cash:
                rest = display[:]
                rest.remove(kind)
                for more in self._buys(rest, waiting, i + 1, cash - _COST_OF[kind]):
                    yield [(kind, waiting[i]), *more]

    # -- values -------------------------------------------------------------------------------

    def to_come(self, d: Draft, colour: int) -> float:
        """Regular scorings of ``colour`` still to come (Scoring; T-R-4)."""
        left = REGULAR_SCORINGS - d.regular
        return min(float(left), left / 4 + self.future_fill * d.rows[colour])

    def money_worth(self, d: Draft, money: int) -> float:
        """The marginal worth of one more money card with ``money`` held."""
        if not self.trams_left:
            return 0.0
        left = REGULAR_SCORINGS - d.regular
        scale = min(1.0, left / 4)
        return scale * (self.money_card if money < self.money_enough else self.money_spare)

    def money_value(self, d: Draft) -> float:
        if not self.trams_left:
            return 0.0
        left = REGULAR_SCORINGS - d.regular
        scale = min(1.0, left / 4)
        base = min(d.money, self.money_enough)
        return scale * (self.money_card * base + self.money_spare * (d.money - base))

    def keep_value(self, d: Draft, face: str) -> float:
        """A hand card kept: what it adds to the best column with a tram it ascends (T-R-1),
        a conductor toward an Extra Tour (T-R-3), else a start of a new column."""
        if face == CONDUCTOR:
            best = 0.3
            for r in d.routes:
                if r.tram and not r.toured and r.top < COMPLETE_VALUE:
                    best = max(best, r.points * r.tram * self.tour * (r.size + 1)
                               / EXTRA_TOUR_SIZE / 3)
            return best
        colour, value = FACE_COLOUR[face], FACE_VALUE[face]
        left = REGULAR_SCORINGS - d.regular
        best = (self.start_low if value <= 4 else self.start_high) * min(1.0, left / 6)
        for r in d.routes:
            if r.colour == colour and r.tram and r.top < value:
                gain = face_points(face) * r.tram * self.to_come(d, colour)
                best = max(best, gain / (1 + self.gap * (value - r.top - 1)))
        return best

    def value(self, d: Draft) -> float:
        """A finished turn's worth for the mover (see the module docstring)."""
        diff = float(d.scores[0] - d.scores[1])
        if d.over:
            return diff + (GAME_WON if diff > 0 else -GAME_WON if diff < 0 else 0.0)
        left = REGULAR_SCORINGS - d.regular
        mine = [0, 0, 0, 0]
        value = diff
        soon = min(1.0, left / 8)
        for r in d.routes:
            score = r.points * r.tram
            mine[r.colour] += score
            if r.top < COMPLETE_VALUE:
                value += r.tram * self.grow * (COMPLETE_VALUE - r.top) / 9 * soon
                if not r.toured and r.size >= 4:
                    value += score * self.tour * ((r.size - 3) / 4) ** 2
        for c in range(4):
            value += (mine[c] - self.theirs[c]) * self.to_come(d, c)
        value += self.money_value(d)
        value += sum(self.keep_value(d, f) for f in d.hand)
        value += self.fresh * (HAND_SIZE - len(d.hand))
        value -= self.danger * self._danger(d, mine, value)
        value += self.chance * self._chance(d, mine)
        return value

    def _danger(self, d: Draft, mine: list[int], value: float) -> float:
        """The other player's next passengers: rows at 3 (one fitting card) or at 2 (two)
        whose scoring favours them, the best first; the 10th scoring (T-R-4) that would leave
        them ahead costs the game.  With ``pair``, two rows at 3 in one turn (see ``pair``)."""
        threats: list[tuple[float, float, int]] = []
        last = d.regular + 1 >= REGULAR_SCORINGS
        for c in range(4):
            n = d.rows[c]
            if n < 2:
                continue
            p = self.p_one[c] if n == 3 else self.p_two[c]
            if last:
                margin = d.scores[1] + self.theirs[c] - d.scores[0] - mine[c]
                if margin > 0:
                    threats.append((self.last_three * (value + GAME_WON + margin), p,
                                    ROW_SIZE - n))
                continue
            gain = self.theirs[c] - mine[c]
            if gain > 0:
                threats.append((gain, p, ROW_SIZE - n))
        threats.sort(reverse=True)
        if self.pair <= 0:
            loss, open_ = 0.0, 1.0
            for cost, p, _ in threats:
                loss += open_ * p * cost
                open_ *= 1 - p
            return loss
        loss, none, one = 0.0, 1.0, 0.0  # the chance that no / one better row is open
        for cost, p, need in threats:
            loss += p * cost * (none + one if need == 1 else none)
            if need == 1:
                none, one = none * (1 - p), one * (1 - p) + none * p
            else:
                none, one = none * (1 - p), one * (1 - p)
        if d.regular + 2 == REGULAR_SCORINGS:
            loss += self.pair * self._ending_pair(d, mine, value)
        return loss

    def _ending_pair(self, d: Draft, mine: list[int], value: float) -> float:
        """With two scorings left: the worst pair of rows at 3 whose scorings, both by the
        other player in its next turn, end the game with it ahead (T-R-4), as the game's
        worth times the chance of both."""
        worst = 0.0
        rows = [c for c in range(4) if d.rows[c] == ROW_SIZE - 1]
        for i, a in enumerate(rows):
            for b in rows[i + 1:]:
                margin = (d.scores[1] + self.theirs[a] + self.theirs[b]
                          - d.scores[0] - mine[a] - mine[b])
                if margin > 0:
                    worst = max(worst, self.p_one[a] * self.p_one[b]
                                * (value + GAME_WON + margin))
        return worst

    def _chance(self, d: Draft, mine: list[int]) -> float:
        """Our own next passengers on a row at 3 that favours us (a kept card of its colour or
        a conductor, or one among the cards drawn at Step 5)."""
        total = 0.0
        drawn = HAND_SIZE - len(d.hand)
        for c in range(4):
            if d.rows[c] != ROW_SIZE - 1:
                continue
            gain = mine[c] - self.theirs[c]
            if gain <= 0:
                continue
            held = any(f == CONDUCTOR or FACE_COLOUR[f] == c for f in d.hand)
            p = 1.0 if held else chance_of(1, self.unseen.per_row[c], self.unseen.total, drawn)
            total += p * gain
        return total


def variant_of(changes: dict[str, Any]) -> type[TurnPlanner]:
    """A :class:`TurnPlanner` with other weights (names are checked)."""
    unknown = [name for name in changes if not hasattr(TurnPlanner, name)]
    if unknown:
        raise ValueError(f"TurnPlanner has no weight {', '.join(unknown)}")
    return type("TurnPlannerVariant", (TurnPlanner,), dict(changes))
