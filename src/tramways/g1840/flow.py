"""The Round Bar walk (V): Pre, SR1, CR1, LR1a, LR1b, CR2, SR2, ... CR6, end.

Each round module provides ``begin(state, log)``, ``acting(state)``, ``legal(state)``,
``apply(state, action, log)`` and ``settle(state, log) -> bool`` (automatic steps; True when the
round is over).  :func:`settle` runs after every action and moves along the bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tramways.g1840.state import State1840


_ROUND_MODULES: dict[str, Any] = {}


def round_module(kind: str) -> Any:
    """The module that plays a round type ("PRE", "SR", "CR", "LR").

    Imported on first use (the round modules import the state, which imports this one), then
    kept: this sits on the hot path of every action.
    """
    if not _ROUND_MODULES:
        from tramways.g1840 import company_round, line_round, pre_share, share_round

        _ROUND_MODULES.update(
            {"PRE": pre_share, "SR": share_round, "CR": company_round, "LR": line_round}
        )
    return _ROUND_MODULES[kind]





def start(state: State1840, log: list[str]) -> None:
    """Begin the game at the first space of the Round Bar."""
    state.round_index = 0
    round_module(state.round.type).begin(state, log)
    settle(state, log)


def settle(state: State1840, log: list[str]) -> None:
    """Play automatic steps and advance the Round Bar until somebody must decide."""
    while not state.finished:
        if not round_module(state.round.type).settle(state, log):
            return
        if state.finished:
            return
        state.round_index += 1
        if state.round_index >= len(state.ent.round_bar):
            state.finished = True
            log.append("The game is over (XI)")
            return
        round_module(state.round.type).begin(state, log)
