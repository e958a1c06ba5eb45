"""An independent Trambahn opponent, written from the rulebook alone: a yardstick for our bots.

It is not one of the shipped bots: it imports no other bot, only
the card data and the view.  At the first decision of its turn it plans the whole turn and then
plays the plan action by action:

* **every whole turn** ("Course of Play", steps 1-5): one passenger or two (step 1; a
  conductor to any row; T-R-2: a scoring caused by the first clears its row before the
  second), then every way to lay the other hand cards as stations (step 2: each card on any
  column it ascends, a new column only when none can take it, T-R-1; conductors beside any
  column without a 10; the 8th card scores an Extra Tour at once, x0 without a tram, T-R-3),
  then every way to buy trams for the new columns (step 4, banking the cards least worth
  keeping to pay, step 3), and the rest of the hand banked or kept by what each card is worth
  kept against a money card and a fresh card (step 5 refills the hand to 6: the hand keeps
  cycling).  A station and the tram it needs are one plan.
* **the other player's next passengers**, modelled explicitly: from the cards it has not
  seen (its own hand, the table and the faces it saw go to the discard pile are out), the
  chance that the other player's 6 cards hold one card (a row at 3) or two (a row at 2) of a
  row's colour or conductors, times what that scoring would give them over us; when the
  scoring would be the 10th (T-R-4), the game itself.  The same model counts our own chance to
  score a row at 3 that favours us on the next turn.
* **the race for scorings**: the 10th scoring ends the game at once (T-R-4), so a turn that
  ends it while ahead is a win, and one that leaves the other player a row at 3 to end it
  while they would lead is counted as likely lost.

The evaluation of a planned turn (points for the player to move): the score difference; each
column's points x tram value (Scoring) times the scorings of its colour still to come; a
column's room to grow and its chance of an Extra Tour; money cards (step 4: trams cost 5, 10
and 15, T-FACT-1); the hand; and the two models above.  Every weight is a class attribute.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from math import comb
from typing import Any

from tramways.bots.base import BotBase
from tramways.core import Action
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import (
    COLOURS,
    CONDUCTOR,
    EXTRA_TOUR_SIZE,
    FACE_COLOUR,
    FACE_VALUE,
    HAND_SIZE,
    IDS_BY_FACE,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAMS,
    face_points,
)
from tramways.trambahn.view_types import TrambahnView

WIN = 1000.0
"""What a won game is worth beyond its margin."""


@dataclass(slots=True)
class Col:
    """One column as the planner sees it (Step 2): colour index, top value, victory points,
    cards (stations and conductors), tram value (0: none yet), whether it has toured."""

    colour: int
    top: int
    points: int
    size: int
    tram: int
    toured: bool
    new: bool = False

    @property
    def score(self) -> int:
        return self.points * self.tram


@dataclass(slots=True)
class Plan:
    """A turn in progress: the table as it would be, and the actions that make it."""

    scores: list[int]
    regular: int
    rows: list[int]
    cols: list[Col]
    money: int
    hand: list[str]
    display: list[str]
    actions: list[Action] = field(default_factory=list)
    over: bool = False

    def copy(self) -> Plan:
        return Plan(self.scores[:], self.regular, self.rows[:], [replace(c) for c in self.cols],
                    self.money, self.hand[:], self.display[:], self.actions[:], self.over)


def at_least(k: int, fitting: int, pool: int, drawn: int) -> float:
    """The chance that ``drawn`` cards from ``pool`` hold ``k`` or more of ``fitting``
    (hypergeometric)."""
    if k <= 0:
        return 1.0
    drawn = min(drawn, pool)
    if drawn <= 0 or fitting <= 0:
        return 0.0
    total = comb(pool, drawn)
    below = sum(comb(fitting, i) * comb(pool - fitting, drawn - i) for i in range(k))
    return max(0.0, 1.0 - below / total)


class WholeTurnBot(BotBase):
    """The independent whole-turn opponent (see the module docstring)."""

    name = "whole-turn"

    money_card = 0.5
    """A money card while trams are still to buy (step 4) ..."""
    money_enough = 20
    """... up to this many; each card beyond is worth ``money_spare``."""
    money_spare = 0.1
    fresh_card = 0.8
    """What a card drawn at step 5 is worth in the hand, on average."""
    lone_low = 0.7
    """A card up to value 4 that no column takes: a start for a new column."""
    lone_high = 0.25
    grow = 3.0
    """Points a column with a tram may still gain, for its whole room up to 10 (T-R-1)."""
    tour = 0.9
    """Share of an Extra Tour counted for a column of 7 cards (less for fewer, T-R-3)."""
    threat = 1.0
    """Weight of the other player's next passengers (rows at 2 and 3 that favour them)."""
    chance = 0.5
    """Weight of our own next passengers on a row at 3 that favours us."""

    def __init__(self, game: Any = None, **options: Any) -> None:
        for key, value in options.items():
            if not hasattr(type(self), key):
                raise ValueError(f"no option {key!r}")
            setattr(self, key, value)
        self.plan: list[Action] = []
        self.gone: Counter[str] = Counter()
        self.last: TrambahnView | None = None
        self.explanation = ""

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> WholeTurnBot:
        return cls(game, **options)

    # -- what it saw ---------------------------------------------------------------------------

    def _observe(self, view: TrambahnView) -> None:
        """Faces seen going where the other player's hand cannot take them before the next
        reshuffle (T-R-5): scored rows and tram-less columns to the discard or money pile."""
        last, self.last = self.last, view
        if (last is None or last.you != view.you or last.names != view.names
                or view.turn_number < last.turn_number or view.reshuffles != last.reshuffles):
            self.gone.clear()
            return
        for colour, row in last.rows.items():
            if view.rows[colour][: len(row)] != row:
                self.gone.update(row)
        for p in (0, 1):
            after = {(c.colour, c.stations[:1]) for c in view.columns[p]}
            for col in last.columns[p]:
                if (col.colour, col.stations[:1]) not in after:
                    self.gone.update(col.stations)
                    self.gone.update(col.conductors)

    def _pool(self, view: TrambahnView) -> tuple[int, list[int]]:
        """Cards that may be in the other player's hand: how many, and how many of them
        could join each row (its colour, or a conductor)."""
        seen: Counter[str] = Counter(view.hand or ())
        for row in view.rows.values():
            seen.update(row)
        for cols in view.columns:
            for col in cols:
                seen.update(col.stations)
                seen.update(col.conductors)
        seen += self.gone
        left = {f: max(0, len(ids) - seen[f]) for f, ids in IDS_BY_FACE.items()}
        conductors = left[CONDUCTOR]
        per = [conductors] * 4
        for f, n in left.items():
            if f != CONDUCTOR:
                per[FACE_COLOUR[f]] += n
        return sum(left.values()), per

    # -- choosing ------------------------------------------------------------------------------

    def choose(self, view: TrambahnView, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = list(legal_actions)
        if self.plan and self.plan[0] in legal:
            return self.plan.pop(0)
        self._observe(view)
        if len(legal) == 1:
            return legal[0]
        self.plan = self._best_turn(view)
        if self.plan and self.plan[0] in legal:
            return self.plan.pop(0)
        self.plan = []
        self.explanation = "no plan fits: first legal action"
        return legal[0]

    def _best_turn(self, view: TrambahnView) -> list[Action]:
        assert view.you is not None and view.hand is not None
        me = view.you
        self.me = me
        self.other_cs = [0, 0, 0, 0]
        for cv in view.columns[1 - me]:
            if cv.tram is not None:
                self.other_cs[COLOURS.index(cv.colour)] += cv.points * TRAMS[cv.tram][0]
        pool, per = self._pool(view)
        hand_other = view.hand_sizes[1 - me] or HAND_SIZE
        self.p_one = [at_least(1, n, pool, hand_other) for n in per]
        self.p_two = [at_least(2, n, pool, hand_other) for n in per]
        self.pool, self.per = pool, per
        start = Plan(
            scores=[view.scores[me], view.scores[1 - me]],
            regular=view.regular_scorings,
            rows=[len(view.rows[c]) for c in COLOURS],
            cols=[Col(COLOURS.index(c.colour), FACE_VALUE[c.stations[-1]] if c.stations else 0,
                      c.points, len(c.stations) + len(c.conductors),
                      TRAMS[c.tram][0] if c.tram else 0, c.extra_tour, c.tram is None)
                  for c in view.columns[me]],
            money=view.money_sizes[me],
            hand=list(view.hand),
            display=list(view.display),
        )
        best_value, best = float("-inf"), start
        count = 0
        for plan in self._turns(start, view):
            value = self.evaluate(plan)
            count += 1
            if value > best_value:
                best_value, best = value, plan
        self.explanation = f"{count} whole turns weighed: best {best_value:+.1f}"
        return best.actions

    # -- the turns -----------------------------------------------------------------------------

    def _turns(self, start: Plan, view: TrambahnView) -> Iterator[Plan]:
        placed = view.passengers_placed
        if view.step > 1 or placed >= 2:
            firsts = [start]
        else:
            firsts = list(self._passengers(start, 2 - placed, need=placed == 0))
        for plan in firsts:
            if plan.over:
                yield plan
                continue
            stations = self._stations(plan, 0) if view.step <= 2 else iter([plan])
            for laid in stations:
                yield from self._finish(laid, view.step <= 3)

    def _passengers(self, plan: Plan, most: int, need: bool,
                    after: tuple[str, int] | None = None) -> Iterator[Plan]:
        """Step 1: one passenger or two (each distinct face once; a conductor to any row).
        Two passengers in either order are the same turn unless the first fills its row
        (T-R-2), so a second comes after the first in a fixed order otherwise."""
        if not need:
            yield plan
        for face in sorted(set(plan.hand)):
            rows = range(4) if face == CONDUCTOR else (FACE_COLOUR[face],)
            for row in rows:
                key = (face, row)
                if after is not None and key < after:
                    continue
                placed = plan.copy()
                self._place_passenger(placed, face, row)
                yield placed
                if most >= 2 and not placed.over:
                    scored = placed.rows[row] == 0
                    yield from self._passengers(placed, 1, True, None if scored else key)

    def _place_passenger(self, plan: Plan, face: str, row: int) -> None:
        plan.hand.remove(face)
        plan.actions.append(Passenger(self.me, face, COLOURS[row]))
        plan.rows[row] += 1
        if plan.rows[row] == ROW_SIZE:
            mine = sum(c.score for c in plan.cols if c.colour == row)
            plan.scores[0] += mine
            plan.scores[1] += self.other_cs[row]
            plan.rows[row] = 0
            plan.regular += 1
            if plan.regular >= REGULAR_SCORINGS:
                plan.over = True

    def _stations(self, plan: Plan, start: int) -> Iterator[Plan]:
        """Step 2: every way to lay the hand (stations ascending by colour, conductors last,
        T-R-1); a card may also stay in the hand."""
        order = sorted(plan.hand, key=lambda f: (f == CONDUCTOR, FACE_COLOUR[f], FACE_VALUE[f]))
        yield from self._lay(plan, order, 0, skipped="", floor=0)

    def _lay(self, plan: Plan, order: list[str], i: int, skipped: str, floor: int
             ) -> Iterator[Plan]:
        if i == len(order):
            yield plan
            return
        face = order[i]
        same = i > 0 and order[i - 1] == face
        # identical faces: once one stays in the hand, the next ones stay too
        yield from self._lay(plan, order, i + 1, face, 0)
        if same and skipped == face:
            return
        if face == CONDUCTOR:
            for k, col in enumerate(plan.cols):
                if col.top < 10 and (not same or k >= floor):
                    after = plan.copy()
                    self._station(after, face, k)
                    yield from self._lay(after, order, i + 1, "", k)
            return
        colour, value = FACE_COLOUR[face], FACE_VALUE[face]
        fits: list[int | None] = [k for k, col in enumerate(plan.cols)
                                  if col.colour == colour and col.top < value]
        for target in fits or [None]:
            after = plan.copy()
            self._station(after, face, target)
            yield from self._lay(after, order, i + 1, "", 0)

    def _station(self, plan: Plan, face: str, k: int | None) -> None:
        plan.hand.remove(face)
        plan.actions.append(Station(self.me, face, k))
        if k is None:
            plan.cols.append(Col(FACE_COLOUR[face], 0, 0, 0, 0, False, True))
            k = len(plan.cols) - 1
        col = plan.cols[k]
        col.size += 1
        if face != CONDUCTOR:
            col.top = FACE_VALUE[face]
            col.points += face_points(face)
        if col.size == EXTRA_TOUR_SIZE and not col.toured:
            col.toured = True
            plan.scores[0] += col.score

    def _finish(self, plan: Plan, may_bank: bool) -> Iterator[Plan]:
        """Steps 3-5: trams for the new columns (banking the cards least worth keeping to
        pay), the rest banked when a money card and a fresh card are worth more."""
        waiting = [k for k, col in enumerate(plan.cols) if col.tram == 0]
        keep = sorted(plan.hand, key=lambda f: self.keep_value(plan, f))
        for buys in self._buys(plan, waiting, 0, plan.money + (len(keep) if may_bank else 0)):
            after = plan.copy()
            cost = sum(TRAMS[kind][1] for kind, _ in buys)
            if may_bank:
                for face in keep:
                    short = cost - after.money
                    if short <= 0 and (self.keep_value(after, face)
                                       >= self.money_card + self.fresh_card):
                        continue
                    after.hand.remove(face)
                    after.money += 1
                    after.actions.append(Income(self.me, face))
            if after.money < cost:
                continue
            for kind, k in buys:
                after.money -= TRAMS[kind][1]
                after.display.remove(kind)
                after.cols[k].tram = TRAMS[kind][0]
                after.cols[k].new = False
                after.actions.append(Buy(self.me, kind, k))
            kept = []
            for col in after.cols:
                if col.tram == 0:
                    after.money += col.size  # step 5: a tram-less column goes to money
                else:
                    kept.append(col)
            after.cols = kept
            after.actions.append(EndTurn(self.me))
            yield after

    def _buys(self, plan: Plan, waiting: list[int], i: int, cash: int
              ) -> Iterator[list[tuple[str, int]]]:
        """Every way to give trams from the display to the waiting columns (step 4)."""
        if i == len(waiting):
            yield []
            return
        yield from self._buys(plan, waiting, i + 1, cash)
        for kind in dict.fromkeys(plan.display):
            cost = TRAMS[kind][1]
            if cost > cash:
                continue
            rest = plan.copy()
            rest.display.remove(kind)
            for more in self._buys(rest, waiting, i + 1, cash - cost):
                yield [(kind, waiting[i]), *more]

    # -- values --------------------------------------------------------------------------------

    def future(self, plan: Plan, colour: int) -> float:
        """Regular scorings of ``colour`` still to come (Scoring; T-R-4), more for a fuller
        row."""
        left = REGULAR_SCORINGS - plan.regular
        return min(float(left), left / 4 + 0.1 * plan.rows[colour])

    def keep_value(self, plan: Plan, face: str) -> float:
        """A hand card's worth kept: what it adds to the best column it ascends (T-R-1), a
        conductor toward an Extra Tour (T-R-3), else a start for a new column."""
        if face == CONDUCTOR:
            best = 0.3
            for col in plan.cols:
                if col.tram and not col.toured and col.top < 10:
                    best = max(best, col.score * self.tour * (col.size + 1) / EXTRA_TOUR_SIZE / 3)
            return best
        colour, value = FACE_COLOUR[face], FACE_VALUE[face]
        left = REGULAR_SCORINGS - plan.regular
        best = (self.lone_low if value <= 4 else self.lone_high) * min(1.0, left / 6)
        for col in plan.cols:
            if col.colour == colour and col.top < value and col.tram:
                gap = value - col.top - 1
                v = face_points(face) * col.tram * self.future(plan, colour) / (1 + 0.25 * gap)
                best = max(best, v)
        return best

    def money_value(self, plan: Plan, money: int) -> float:
        left = REGULAR_SCORINGS - plan.regular
        worth = self.money_card * min(1.0, left / 4)
        return worth * min(money, self.money_enough) + self.money_spare * max(
            0, money - self.money_enough) * min(1.0, left / 4)

    def evaluate(self, plan: Plan) -> float:
        """The planned turn's worth for the player to move (see the module docstring)."""
        diff = float(plan.scores[0] - plan.scores[1])
        if plan.over:
            return diff + (WIN if diff > 0 else -WIN if diff < 0 else 0.0)
        left = REGULAR_SCORINGS - plan.regular
        mine = [0, 0, 0, 0]
        value = diff
        for col in plan.cols:
            mine[col.colour] += col.score
            if col.top < 10:
                value += col.tram * self.grow * (10 - col.top) / 9 * min(1.0, left / 8)
            if not col.toured and col.top < 10 and col.size >= 4:
                value += col.score * self.tour * ((col.size - 3) / 4) ** 2
        for c in range(4):
            value += (mine[c] - self.other_cs[c]) * self.future(plan, c)
        value += self.money_value(plan, plan.money)
        hand = sum(self.keep_value(plan, f) for f in plan.hand)
        value += hand + self.fresh_card * (HAND_SIZE - len(plan.hand))
        value -= self.threat * self._threat(plan, mine, value)
        value += self.chance * self._chance(plan, mine)
        return value

    def _threat(self, plan: Plan, mine: list[int], value: float) -> float:
        """The other player's next passengers: rows at 3 (one fitting card) or 2 (two) whose
        scoring favours them, the best first; the 10th scoring (T-R-4) when it would leave
        them ahead costs the game."""
        options: list[tuple[float, float]] = []
        last = plan.regular + 1 >= REGULAR_SCORINGS
        for c in range(4):
            n = plan.rows[c]
            if n < 2:
                continue
            p = self.p_one[c] if n == 3 else self.p_two[c]
            gain = self.other_cs[c] - mine[c]
            if last:
                margin = plan.scores[1] + self.other_cs[c] - plan.scores[0] - mine[c]
                if margin > 0:
                    options.append((value + WIN + margin, p))
            elif gain > 0:
                options.append((gain, p))
        options.sort(reverse=True)
        loss, miss = 0.0, 1.0
        for benefit, p in options:
            loss += miss * p * benefit
            miss *= 1 - p
        return loss

    def _chance(self, plan: Plan, mine: list[int]) -> float:
        """Our own next passengers on a row at 3 that favours us: a kept card of its colour
        or a conductor, or one among the fresh cards."""
        total = 0.0
        fresh = HAND_SIZE - len(plan.hand)
        for c in range(4):
            if plan.rows[c] != 3:
                continue
            gain = mine[c] - self.other_cs[c]
            if gain <= 0:
                continue
            held = any(f == CONDUCTOR or FACE_COLOUR[f] == c for f in plan.hand)
            p = 1.0 if held else at_least(1, self.per[c], self.pool, fresh)
            total += p * gain
        return total
