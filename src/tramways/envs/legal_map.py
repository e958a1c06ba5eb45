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
from typing import TYPE_CHECKING, Any

from tramways.core.actions import Action

if TYPE_CHECKING:
    from tramways.envs.base import Catalogue

BlockIndexers = dict[type, Callable[[Any], "Sequence[int | None]"]]
"""Per action class: a block of such actions -> the catalogue index of each of its actions in
order (``None``: none); a ``range`` when they are consecutive indices."""


class _Run:
    """A block whose actions have consecutive indices from ``first``: one entry object for
    all of them (no object made per index)."""

    __slots__ = ("block", "first")

    def __init__(self, block: Any, first: int) -> None:
        self.block = block
        self.first = first


def _made(found: dict[int, Any], i: int, entry: Any) -> Any:
    """The action of ``entry`` (an action, ``(block, k)`` or a :class:`_Run`), made and kept
    under ``i`` if it was not yet."""
    if type(entry) is tuple:
        block, k = entry
        entry = found[i] = block.action(k)
    elif type(entry) is _Run:
        entry = found[i] = entry.block.action(i - entry.first)
    return entry


class LegalMap(Mapping[int, Action]):
    """Index -> legal action, the actions of blocks made when first looked up; iterates over
    the indices in listing order."""

    __slots__ = ("_found",)

    def __init__(self, found: dict[int, Any]) -> None:
        self._found = found
        """Index -> the action, or for an action not made yet ``(block, k)`` (its ``k``-th
        action) or a :class:`_Run` (a block of consecutive indices)."""

    def __getitem__(self, i: int) -> Action:
        entry = self._found[i]
        return entry if isinstance(entry, Action) else _made(self._found, i, entry)

    def get(self, i: int, default: Any = None) -> Any:
        entry = self._found.get(i)
        if entry is None:
            return default
        return entry if isinstance(entry, Action) else _made(self._found, i, entry)

    def __iter__(self) -> Iterator[int]:
        return iter(self._found)

    def __len__(self) -> int:
        return len(self._found)

    def __contains__(self, i: object) -> bool:
        return i in self._found


def legal_map_parts(catalogue: Catalogue, parts: Sequence[Any],
                    blocks: BlockIndexers) -> Mapping[int, Action]:
    """``catalogue.legal_map`` of the flattened ``parts`` (actions and blocks), each block of
    a class in ``blocks`` mapped by its indexer without making its actions (a block of
    another class action by action).  Two actions with one index are a catalogue bug and
    raise, as in ``legal_map``.  A listing without blocks is ``legal_map``'s own dict."""
    for part in parts:
        if not isinstance(part, Action):
            break
    else:
        return catalogue.legal_map(parts)
    found: dict[int, Any] = {}
    total = dropped = 0
    flat: list[Action] = []
    for part in parts:
        if isinstance(part, Action):
            flat.append(part)
            continue
        indexer = blocks.get(part.cls)
        if indexer is None:
            flat.extend(part.actions())
            continue
        if flat:  # the plain actions before this block, in order
            total += len(flat)
            dropped += catalogue.map_into(flat, found)
            flat = []
        n = len(part)
        total += n
        indices = indexer(part)
        if type(indices) is range and indices.step == 1 and len(indices) == n:
            found.update(dict.fromkeys(indices, _Run(part, indices.start)))
            continue
        for k, i in enumerate(indices):
            if i is None:
                dropped += 1
            else:
                found[i] = (part, k)
    if flat:
        total += len(flat)
        dropped += catalogue.map_into(flat, found)
    if len(found) + dropped < total:
        catalogue.shared_index([a for part in parts for a in (
            [part] if isinstance(part, Action) else part.actions())])
    return LegalMap(found)
