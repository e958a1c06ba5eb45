"""What one Trambahn player has seen leave the table (the search's information-set sampling):
moved out of :mod:`tramways.bots.search`, which imports it from here."""

from __future__ import annotations

from collections import Counter

from tramways.core import Action
from tramways.trambahn.actions import Buy, Income
from tramways.trambahn.cards import CARD_FACE, TRAMS
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.view_types import TrambahnView


class Memory:
    """What one player has seen leave the table, by face (T-R-2 scorings discard the row;
    tram-less columns are discarded at the end of a turn; money paid for a tram is discarded),
    and the top of its own money pile, which only it knows (it put those cards there)."""

    def __init__(self) -> None:
        self.discard: Counter[str] = Counter()
        self.money: list[str] = []  # the known top of the own money pile, bottom first
        self.last: TrambahnView | None = None

    def observe(self, view: TrambahnView) -> None:
        """Compare with the last view this player saw (a new game resets the memory)."""
        last = self.last
        self.last = view
        if last is None or not self._continues(last, view):
            self.discard.clear()
            self.money.clear()
            return
        if view.reshuffles != last.reshuffles:  # T-R-5: the discard pile is the deck now
            self.discard.clear()
            self.money.clear()  # half of each money pile went at random
            return
        for colour, row in last.rows.items():
            now = view.rows[colour]
            if now[: len(row)] != row:  # the row scored: its passengers are discarded
                self.discard.update(row)
        for p in (0, 1):
            after = {(c.colour, tuple(c.stations[:1])) for c in view.columns[p]}
            for cards in last.columns[p]:
                if (cards.colour, tuple(cards.stations[:1])) not in after:
                    self.discard.update(cards.stations)  # a tram-less column discarded
                    self.discard.update(cards.conductors)

    @staticmethod
    def _continues(last: TrambahnView, view: TrambahnView) -> bool:
        """Whether ``view`` can follow ``last`` in one game for one player (a bot object
        shared between games or seats, as a server may do, then starts afresh)."""
        h = len(last.history)
        return (view.you == last.you and view.names == last.names
                and view.turn_number >= last.turn_number
                and view.reshuffles >= last.reshuffles
                and view.history[:h] == last.history
                and all(a >= b for a, b in zip(view.scores, last.scores, strict=True)))

    def played(self, view: TrambahnView, action: Action) -> None:
        """Remember where my own cards go (income: my money pile; a tram: its top cards)."""
        if isinstance(action, Income):
            self.money.append(action.card)
        elif isinstance(action, Buy):
            cost = TRAMS[action.kind][1]
            paid = self.money[max(0, len(self.money) - cost):]
            del self.money[max(0, len(self.money) - cost):]
            self.discard.update(paid)

    def sample(self, state: TrambahnState, me: int) -> TrambahnState:
        """Move the remembered faces into place in a determinized ``state`` (swapping with
        unremembered hidden cards), so the sample agrees with everything seen."""
        known = Counter(self.money)
        self._place(state.money[me], known,
                    [(state.hands[1 - me], None), (state.deck, None),
                     (state.money[1 - me], None), (state.discard, self.discard)])
        self._place(state.discard, self.discard,
                    [(state.hands[1 - me], None), (state.deck, None),
                     (state.money[1 - me], None), (state.money[me], known)])
        return state

    @staticmethod
    def _place(target: list[int], wanted: Counter[str],
               sources: list[tuple[list[int], Counter[str] | None]]) -> None:
        """Swap cards into ``target`` until it holds ``wanted`` (as a sub-multiset); a source
        with a counter only gives cards beyond the faces that counter keeps there."""
        have = Counter(CARD_FACE[c] for c in target)
        missing = wanted - have
        if not missing:
            return
        surplus = have - wanted
        free: list[int] = []
        for i, c in enumerate(target):
            if surplus[CARD_FACE[c]] > 0:
                surplus[CARD_FACE[c]] -= 1
                free.append(i)
        for face, n in missing.items():
            for _ in range(n):
                for pile, keep in sources:
                    if not free:
                        return
                    if keep is not None:
                        there = sum(1 for c in pile if CARD_FACE[c] == face)
                        if there <= keep[face]:
                            continue
                    j = next((k for k, c in enumerate(pile) if CARD_FACE[c] == face), None)
                    if j is not None:
                        i = free.pop()
                        target[i], pile[j] = pile[j], target[i]
                        break
