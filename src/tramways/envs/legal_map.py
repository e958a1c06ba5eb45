"""The legal actions of a listing given in parts, mapped to catalogue indices without making
every action (docs/environments.md: a step's listing).

An engine may list its legal actions as parts (1840:
:meth:`tramways.g1840.engine.State1840.legal_parts`): actions, and *blocks*, runs of actions of
one class made only when asked for (``len(block)``, ``block.action(k)``, ``block.actions()``,
``block.cls``: a line's tile lays, a line auction's amounts, a private's bids).  A game's
:data:`BlockIndexers` give each block's catalogue indices from its fields;
:func:`legal_map_parts` builds the environment's index -> action map from them, and
:class:`LegalMap` makes a block's action when it is looked up (the one played, or all of them
for a bot that asks for the actions).  The map has the indices in the order, and the actions,
:meth:`~tramways.envs.base.Catalogue.legal_map` gives for the flattened list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import count, repeat
from typing import TYPE_CHECKING, Any

from tramways.core.actions import Action

if TYPE_CHECKING:
    from tramways.envs.base import Catalogue

BlockIndexers = dict[type, Callable[[Any], "Sequence[int | None]"]]
"""Per action class: a block of such actions -> the catalogue index of each of its actions in
order (``None``: none); a ``range`` when they are consecutive indices."""


def _made(found: dict[int, Any], i: int, entry: Any) -> Any:
    """The action of ``entry`` (an action or ``(block, k)``: the block's ``k``-th action),
    made and kept under ``i`` if it was not yet."""
    if type(entry) is tuple:
        block, k = entry
        entry = found[i] = block.action(k)
    return entry


class LegalMap(Mapping[int, Action]):
    """Index -> legal action, the actions of blocks made when first looked up; iterates over
    the indices in listing order.  A block of consecutive indices (a ``range``: a line
    auction's or a private's amounts) is kept as its range, without an entry per index."""

    __slots__ = ("_found", "_runs", "_order")

    def __init__(self, found: dict[int, Any], runs: Sequence[tuple[range, Any]] = (),
                 order: list[int] | None = None) -> None:
        self._found = found
        """Index -> the action, or for an action not made yet ``(block, k)`` (its ``k``-th
        action); not the indices of :attr:`_runs` until their action is made."""
        self._runs = runs
        """Each block of consecutive indices with its range."""
        self._order = found if order is None else order
        """Every index in listing order (:attr:`_found` itself when there are no runs)."""

    def _from_run(self, i: int) -> Action | None:
        for indices, block in self._runs:
            if i in indices:
                action = self._found[i] = block.action(i - indices.start)
                return action
        return None

    def __getitem__(self, i: int) -> Action:
        entry = self._found.get(i)
        if entry is None:
            entry = self._from_run(i)
            if entry is None:
                raise KeyError(i)
            return entry
        return entry if isinstance(entry, Action) else _made(self._found, i, entry)

    def get(self, i: int, default: Any = None) -> Any:
        entry = self._found.get(i)
        if entry is None:
            entry = self._from_run(i)
            return default if entry is None else entry
        return entry if isinstance(entry, Action) else _made(self._found, i, entry)

    def __iter__(self) -> Iterator[int]:
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, i: object) -> bool:
        return i in self._found or any(i in indices for indices, _ in self._runs)


def _repeats(found: dict[int, Any], runs: Sequence[tuple[range, Any]], order: list[int],
             mapped: int) -> bool:
    """Whether an index was listed twice, given the runs: fewer indices than the ``mapped``
    actions, an index of ``found`` listed twice, two runs sharing an index or a run and an
    entry of ``found``."""
    ranges = [r for r, _ in runs]
    if len(order) < mapped or len(found) + sum(map(len, ranges)) < len(order):
        return True
    if len(ranges) > 1:
        ranges.sort(key=lambda r: r.start)
        if any(a.stop > b.start for a, b in zip(ranges, ranges[1:], strict=False)):
            return True
    for i in found:
        for r in ranges:
            if i in r:
                return True
    return False


def legal_map_parts(catalogue: Catalogue, parts: Sequence[Any],
                    blocks: BlockIndexers) -> Mapping[int, Action]:
    """``catalogue.legal_map`` of the flattened ``parts`` (actions and blocks), each block of
    a class in ``blocks`` mapped by its indexer without making its actions (a block of
    another class action by action).  Two actions with one index are a catalogue bug and
    raise, as in ``legal_map``.  A listing without blocks is ``legal_map``'s own dict; one
    whose blocks are all empty (a line with no tile to lay, a private nobody can bid on: most
    blocks of random play) is ``legal_map``'s dict of its actions as a :class:`LegalMap`."""
    empty = False
    for part in parts:
        if not isinstance(part, Action):
            if len(part):
                break
            empty = True
    else:  # no block, or only empty ones
        if empty:
            return LegalMap(catalogue.legal_map([p for p in parts if isinstance(p, Action)]))
        return catalogue.legal_map(parts)
    found: dict[int, Any] = {}
    runs: list[tuple[range, Any]] = []
    order: list[int] = []  # every index in order, once there are runs
    total = dropped = 0
    flat: list[Action] = []
    for part in parts:
        if isinstance(part, Action):
            flat.append(part)
            continue
        n = len(part)
        if not n:
            continue
        indexer = blocks.get(part.cls)
        if indexer is None:
            flat.extend(part.actions())
            continue
        if flat:  # the plain actions before this block, in order
            total += len(flat)
            dropped += _map_flat(catalogue, flat, found, order, runs)
            flat = []
        total += n
        indices = indexer(part)
        if type(indices) is range and indices.step == 1 and len(indices) == n:
            if not runs:
                order.extend(found)
            runs.append((indices, part))
            order.extend(indices)
            continue
        # index -> (part, k) for each k, in C; an index None (no index) is taken out after
        placed: dict[int | None, Any] = found  # type: ignore[assignment]
        placed.update(zip(indices, zip(repeat(part), count()), strict=False))
        if None in placed:
            del placed[None]
            dropped += indices.count(None)
        if runs:
            order.extend([i for i in indices if i is not None])
    if flat:
        total += len(flat)
        dropped += _map_flat(catalogue, flat, found, order, runs)
    _check_repeats(catalogue, parts, found, runs, order, total - dropped)
    return LegalMap(found, runs, order) if runs else LegalMap(found)


def _check_repeats(catalogue: Catalogue, parts: Sequence[Any], found: dict[int, Any],
                   runs: Sequence[tuple[range, Any]], order: list[int], mapped: int) -> None:
    """Raise, as ``legal_map`` does, if two of the ``mapped`` actions share an index."""
    if len(found) < mapped and not runs or runs and _repeats(found, runs, order, mapped):
        catalogue.shared_index([a for part in parts for a in (
            [part] if isinstance(part, Action) else part.actions())])


def _map_flat(catalogue: Catalogue, flat: list[Action], found: dict[int, Any],
              order: list[int], runs: list[tuple[range, Any]]) -> int:
    """Map plain actions into ``found`` (and, once there are runs, their indices onto
    ``order``); returns how many have no index."""
    if not runs:
        return catalogue.map_into(flat, found)
    chunk: dict[int, Any] = {}
    dropped = catalogue.map_into(flat, chunk)
    found.update(chunk)
    order.extend(chunk)
    return dropped
