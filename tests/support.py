"""Helpers shared by the tests of every package.

:func:`refused` is the one way a test says "this is illegal": the call raises an
``IllegalAction`` naming the rule, and the game positions it was given are unchanged, as the
engines promise (validation comes before any change).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tramways.core.errors import IllegalAction
from tramways.g1840.engine import State1840
from tramways.trambahn.engine import TrambahnState


def snapshot(position: Any) -> object:
    """What must not change when an action is refused, as a value compared with ``==``.

    A Trambahn position is compared whole (hands, deck order, money piles: everything, hidden
    or not).  An 1840 position is compared by everything it shows (``view(None)``: 1840 hides
    only the order of the line deck) and the round in progress with its steps
    (``current_round``).
    """
    if isinstance(position, TrambahnState):
        return copy.deepcopy(position)
    if isinstance(position, State1840):
        return position.view(None), copy.deepcopy(position.current_round)
    raise TypeError(f"no snapshot for {type(position).__name__}")


def _positions(act: Callable[..., object], args: tuple[object, ...]) -> list[Any]:
    """The game positions a call can change: the receiver of a bound method and the
    positional arguments that are positions."""
    found = [getattr(act, "__self__", None), *args]
    return [p for p in found if isinstance(p, TrambahnState | State1840)]


def refused(rule: str, act: Callable[..., object], *args: Any, **kwargs: Any) -> IllegalAction:
    """Call ``act(*args, **kwargs)``: it must raise an ``IllegalAction`` naming ``rule``, and
    leave every game position among its receiver and arguments as it was (:func:`snapshot`).
    Returns the refusal, for tests that also check its message.

        refused("IX.1", state.apply, action, 1)             # a position's own method
        refused("VIII.6", play, state, "WT bid 25")         # a helper given the position
        refused("R-LR-2", check_tile_lay, build, 12, "E9", "3", 3, first_turn=True)
    """
    positions = _positions(act, args)
    before = [snapshot(p) for p in positions]
    with pytest.raises(IllegalAction) as info:
        act(*args, **kwargs)
    assert info.value.rule == rule, info.value
    for position, was in zip(positions, before, strict=True):
        assert snapshot(position) == was, f"{info.value} changed the position"
    return info.value
