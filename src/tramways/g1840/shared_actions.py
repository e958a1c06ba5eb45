"""Equal 1840 actions built once and shared (listing a position's legal actions then costs a
look-up per action instead of a dataclass construction; actions are frozen values, so sharing
one is invisible)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from tramways.core.actions import Action

_A = TypeVar("_A", bound=Action)


class Interned(Generic[_A]):
    """Actions built once per distinct fields and then shared: ``Interned(build)(*fields)`` is
    ``build(*fields)``, remembered.  Actions are frozen values, so sharing one is invisible;
    listing a position's legal actions (hundreds of line auction amounts, tile lays) then
    costs a look-up per action instead of a dataclass construction."""

    __slots__ = ("build", "made", "limit")

    def __init__(self, build: Callable[..., _A], limit: int = 2_000) -> None:
        self.build = build
        self.made: dict[tuple[Any, ...], _A] = {}
        self.limit = limit
        """Actions kept (cleared when full: a miss only costs building one again)."""

    def __call__(self, *fields: Any) -> _A:
        found = self.made.get(fields)
        if found is None:
            if len(self.made) >= self.limit:
                self.made.clear()
            found = self.made[fields] = self.build(*fields)
        return found


class Ladder(Generic[_A]):
    """Actions along an amount scale (bids, opening bids, raises) built once per fields and
    amount and shared: ``Ladder(build)(fields, low, high, step)`` is
    ``[build(*fields, a) for a in range(low, high + 1, step)]``, sliced from one list per
    fields, step and ``low % step`` that grows as higher amounts are asked for.  A player's
    cash or a treasury changes the bounds at nearly every position; the actions stay the same
    objects (and a memory keyed by identity, the environments' catalogue, knows them)."""

    __slots__ = ("build", "rungs", "limit")

    def __init__(self, build: Callable[..., _A], limit: int = 32) -> None:
        self.build = build
        self.rungs: dict[tuple[Any, ...], list[_A]] = {}
        self.limit = limit
        """Scales kept (cleared when full: a miss only costs building one again)."""

    def __call__(self, fields: tuple[Any, ...], low: int, high: int, step: int) -> list[_A]:
        if high < low:
            return []
        base = low % step
        key = (*fields, step, base)
        rung = self.rungs.get(key)
        if rung is None:
            if len(self.rungs) >= self.limit:
                self.rungs.clear()
            rung = self.rungs[key] = []
        top = (high - base) // step
        if len(rung) <= top:
            build = self.build
            rung.extend(build(*fields, base + k * step) for k in range(len(rung), top + 1))
        return rung[(low - base) // step:top + 1]


class Block(Generic[_A]):
    """A run of a listing's actions of one class (``cls``), made only when asked for.

    :meth:`tramways.g1840.engine.State1840.legal_parts` leaves the long runs of a listing
    (a line's tile lays, the amounts of a line auction or a private's bids) as blocks: a
    caller that needs only some of the actions (the environments map a block to its action
    indices from its fields and make the one action played) skips making the others.
    :meth:`actions` is the run as ``legal_actions`` lists it (the same shared objects)."""

    __slots__ = ()
    cls: type[Action]

    def __len__(self) -> int:
        raise NotImplementedError

    def action(self, k: int) -> _A:
        """The ``k``-th action of the run (equal to ``actions()[k]``)."""
        raise NotImplementedError

    def actions(self) -> list[_A]:
        """Every action of the run, in order."""
        raise NotImplementedError


class Rungs(Block[_A]):
    """``ladder(fields, low, high, step)`` as a block: ``build(*fields, amount)`` for the
    amounts ``range(low, high + 1, step)`` of a :class:`Ladder`."""

    __slots__ = ("ladder", "cls", "fields", "low", "high", "step")

    def __init__(self, ladder: Ladder[_A], cls: type[_A], fields: tuple[Any, ...], low: int,
                 high: int, step: int) -> None:
        self.ladder = ladder
        self.cls = cls
        self.fields = fields
        self.low = low
        self.high = high
        self.step = step

    def __len__(self) -> int:
        return 0 if self.high < self.low else (self.high - self.low) // self.step + 1

    def action(self, k: int) -> _A:
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self.ladder.build(*self.fields, self.low + k * self.step)

    def actions(self) -> list[_A]:
        return self.ladder(self.fields, self.low, self.high, self.step)


Part = Action | Block[Any]
"""An entry of :meth:`tramways.g1840.engine.State1840.legal_parts`: an action or a block."""


def flatten(parts: list[Part]) -> list[Action]:
    """The actions of ``parts`` in order (each block's :meth:`Block.actions` in its place)."""
    out: list[Action] = []
    for part in parts:
        if isinstance(part, Block):
            out.extend(part.actions())
        else:
            out.append(part)
    return out
