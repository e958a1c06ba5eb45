"""Reading an 18xx.games export of 1840: validation, undo/redo, auto actions.

An export is the JSON object the site offers for download: ``id``, ``title`` ("1840"),
``players`` ``[{id, name}]``, ``settings`` (``seed``, ``optional_rules``), ``actions``, and for a
finished game ``result`` and ``game_end_reason``.  :func:`load_export` checks it and parses every
action with :mod:`tramways.g1840.interop.actions18xx`; anything wrong raises
:class:`ImportError18xx` with one line naming the action index and the reason.

Undo and redo are resolved up front as the site does before replaying (its
``filtered_actions``): a stack of the active actions, and a stack of undone groups for redo:

* a normal action is pushed on the active stack and empties the redo stack;
* ``undo`` without ``action_id`` pops the last active action (chat messages are skipped over
  and stay); ``undo`` with ``action_id`` pops every action after the one with that id; the
  popped group goes on the redo stack;
* ``redo`` pushes back the group the last undo popped;
* ``message`` entries never change the game and are never undone.

What is left on the active stack is the effective game.  Each effective action's
``auto_actions`` (Stadtbahn runs, automatic tram assignments, programmed passes) are processed
right after it, so :func:`effective_actions` flattens them in, keeping the parent's index.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tramways.g1840.interop.actions18xx import (
    AUTO_ACTION_TYPES,
    Action18xx,
    Message,
    Redo,
    Undo,
    parse_action,
)
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.lcg import seed_of_export

__all__ = [
    "ActionStatus",
    "EffectiveAction",
    "Export18xx",
    "ImportError18xx",
    "Player18xx",
    "effective_actions",
    "load_export",
    "parse_export",
    "resolve_undo_redo",
]

TITLE = "1840"
SMALL_MAP_RULE_HINT = "small"
"""1840's only optional rule on 18xx.games is the 3-player small map (XII); any optional rule
whose name contains this word is taken as that switch."""


@dataclass(frozen=True)
class Player18xx:
    """A seat: the site's user id (as a string) and the name shown in the log."""

    id: str
    name: str


@dataclass(frozen=True)
class RawAction:
    """One entry of the export's ``actions`` list, parsed."""

    index: int
    id: int
    action: Action18xx
    auto: tuple[Action18xx, ...]
    data: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.data["type"])


@dataclass(frozen=True)
class Export18xx:
    """A validated 18xx.games export of 1840."""

    game_id: Any
    players: tuple[Player18xx, ...]
    settings: dict[str, Any]
    seed: int
    small_map: bool
    status: str | None
    result: dict[str, Any] | None
    game_end_reason: str | None
    actions: tuple[RawAction, ...]

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def seat_of(self, entity: str) -> int:
        """The 0-based seat of a player entity (user id)."""
        for seat, player in enumerate(self.players):
            if player.id == entity:
                return seat
        raise KeyError(entity)


@dataclass(frozen=True)
class ActionStatus:
    """Whether the site applies an export entry: ``processed``, or skipped for
    ``skip_reason`` ``"undo"``, ``"redo"`` (the entries themselves) or ``"undone"``."""

    index: int
    processed: bool
    skip_reason: str | None = None


@dataclass(frozen=True)
class EffectiveAction:
    """One action the site applies, in order.

    ``index`` is the export entry it comes from; ``auto`` is ``None`` for the entry itself and
    ``k`` for its k-th auto action (processed right after it, with ``index`` as parent).
    """

    index: int
    id: int
    auto: int | None
    action: Action18xx

    @property
    def parent_index(self) -> int | None:
        return self.index if self.auto is not None else None


# ---------------------------------------------------------------------------- loading


def load_export(path: str | os.PathLike[str]) -> Export18xx:
    """Read and validate an export file (``ImportError18xx`` on any problem)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ImportError18xx(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImportError18xx(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise ImportError18xx(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise ImportError18xx(f"{path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportError18xx(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    return parse_export(data)


def _players(data: dict[str, Any]) -> tuple[Player18xx, ...]:
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ImportError18xx("export: missing 'players' (a non-empty list)")
    out = []
    for n, p in enumerate(players):
        if not isinstance(p, dict) or "id" not in p or not isinstance(p.get("name"), str):
            raise ImportError18xx(f"export: player {n} must be an object with 'id' and 'name'")
        out.append(Player18xx(str(p["id"]), p["name"]))
    if len({p.id for p in out}) != len(out):
        raise ImportError18xx("export: two players have the same id")
    if not 2 <= len(out) <= 6:
        raise ImportError18xx(f"export: 1840 is for 2-6 players, this game has {len(out)}")
    return tuple(out)


def _small_map(settings: dict[str, Any], players: int) -> bool:
    rules = settings.get("optional_rules") or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise ImportError18xx("export: settings.optional_rules must be a list of names")
    small = False
    for rule in rules:
        if SMALL_MAP_RULE_HINT in rule.lower():
            small = True
        else:
            raise ImportError18xx(f"export: unknown optional rule {rule!r}")
    if small and players != 3:
        raise ImportError18xx(f"export: the small map is for 3 players, not {players}")
    return small


def _raw_action(index: int, data: Any) -> RawAction:
    where = f"action {index}"
    action = parse_action(data, where)
    ident = data.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int):
        raise ImportError18xx(f"{where}: missing integer 'id'")
    autos = data.get("auto_actions") or []
    if not isinstance(autos, list):
        raise ImportError18xx(f"{where}: 'auto_actions' must be a list")
    parsed = []
    for k, auto in enumerate(autos):
        sub = f"{where} auto action {k}"
        if isinstance(auto, dict) and auto.get("type") not in AUTO_ACTION_TYPES:
            raise ImportError18xx(f"{sub}: {auto.get('type')!r} is not an auto action of 1840")
        parsed.append(parse_action(auto, sub))
    if parsed and isinstance(action, (Undo, Redo, Message)):
        raise ImportError18xx(f"{where}: a {action.TYPE} cannot carry auto actions")
    return RawAction(index=index, id=ident, action=action, auto=tuple(parsed), data=data)


def parse_export(data: Any) -> Export18xx:
    """Validate parsed JSON as an export of 1840 (``ImportError18xx`` on any problem)."""
    if not isinstance(data, dict):
        raise ImportError18xx("export: expected a JSON object")
    title = data.get("title")
    if title != TITLE:
        raise ImportError18xx(f"export: title is {title!r}, not an 18xx.games game of {TITLE}")
    players = _players(data)
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise ImportError18xx("export: 'settings' must be an object")
    try:
        seed = seed_of_export(settings, data.get("id"))
    except ValueError as exc:
        raise ImportError18xx(f"export: {exc}") from None
    small = _small_map(settings, len(players))
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise ImportError18xx("export: missing 'actions' (a list)")
    raw = tuple(_raw_action(i, a) for i, a in enumerate(actions))
    seen: dict[int, int] = {}
    for entry in raw:
        if entry.id in seen:
            raise ImportError18xx(
                f"action {entry.index}: id {entry.id} repeats action {seen[entry.id]}")
        seen[entry.id] = entry.index
    result = data.get("result")
    reason = data.get("game_end_reason")
    return Export18xx(
        game_id=data.get("id"),
        players=players,
        settings=settings,
        seed=seed,
        small_map=small,
        status=data.get("status") if isinstance(data.get("status"), str) else None,
        result=result if isinstance(result, dict) else None,
        game_end_reason=reason if isinstance(reason, str) else None,
        actions=raw,
    )


# -------------------------------------------------------------------------- undo/redo


def resolve_undo_redo(actions: tuple[RawAction, ...] | list[RawAction]) -> list[ActionStatus]:
    """The site's up-front resolution of undo/redo: one status per export entry."""
    return _resolve(actions)[1]


def _resolve(
    actions: tuple[RawAction, ...] | list[RawAction],
) -> tuple[list[RawAction], list[ActionStatus]]:
    """The active actions in the order they are applied, and the status of every entry."""
    active: list[RawAction] = []
    redo_stack: list[list[RawAction]] = []
    for entry in actions:
        action = entry.action
        if isinstance(action, Undo):
            if action.action_id is None:
                target = _last_game_action(active)
                if target is None:
                    raise ImportError18xx(f"action {entry.index}: undo with nothing to undo")
                popped = [a for a in active[target:] if not isinstance(a.action, Message)]
                active = active[:target] + [
                    a for a in active[target:] if isinstance(a.action, Message)]
            else:
                position = _position_of(active, action.action_id)
                if position is None:
                    raise ImportError18xx(
                        f"action {entry.index}: undo to action id {action.action_id}, "
                        "which is not an active action")
                popped = [a for a in active[position + 1:] if not isinstance(a.action, Message)]
                active = active[:position + 1] + [
                    a for a in active[position + 1:] if isinstance(a.action, Message)]
            redo_stack.append(popped)
        elif isinstance(action, Redo):
            if not redo_stack:
                raise ImportError18xx(f"action {entry.index}: redo with nothing to redo")
            active.extend(redo_stack.pop())
        elif isinstance(action, Message):
            active.append(entry)
        else:
            active.append(entry)
            redo_stack = []
    kept = {entry.index for entry in active}
    statuses = []
    for entry in actions:
        if isinstance(entry.action, Undo):
            statuses.append(ActionStatus(entry.index, False, "undo"))
        elif isinstance(entry.action, Redo):
            statuses.append(ActionStatus(entry.index, False, "redo"))
        elif entry.index in kept:
            statuses.append(ActionStatus(entry.index, True))
        else:
            statuses.append(ActionStatus(entry.index, False, "undone"))
    return active, statuses


def _last_game_action(active: list[RawAction]) -> int | None:
    for position in range(len(active) - 1, -1, -1):
        if not isinstance(active[position].action, Message):
            return position
    return None


def _position_of(active: list[RawAction], action_id: int) -> int | None:
    for position in range(len(active) - 1, -1, -1):
        if active[position].id == action_id:
            return position
    return None


def effective_actions(export: Export18xx) -> list[EffectiveAction]:
    """Every action the site applies, in order, auto actions right after their parent.

    Chat messages are left out (they change nothing).
    """
    active, _ = _resolve(export.actions)
    out: list[EffectiveAction] = []
    for entry in active:
        if isinstance(entry.action, Message):
            continue
        out.append(EffectiveAction(entry.index, entry.id, None, entry.action))
        for k, auto in enumerate(entry.auto):
            out.append(EffectiveAction(entry.index, entry.id, k, auto))
    return out
