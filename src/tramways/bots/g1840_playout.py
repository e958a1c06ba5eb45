"""The 1840 search's play-outs (:func:`rule_playout`): the rule bot weighing a few random tile
lays in every seat, the search's own policy in its seat, on a copy of the position the search
owns, made cheaper than asking the engine as a player would.

Every choice is the one :class:`~tramways.bots.g1840_rule.Rules1840` (``max_lays`` lays) makes
from the engine's full legal list (pinned by ``tests/bots/test_g1840_playout_pin.py``); what
is cut is work whose result that policy never reads:

* the listing of what the policy never weighs or chooses in a line's turn: a private's
  purchase at every price from 1 to its face value (IV.2: most of a Line Round's 200+
  actions), station markers and marker removals before the run (IX.6, R-LR-5: with
  ``max_lays`` the policy weighs the drawn lays only; a home circle is listed as ever):
  :func:`playout_actions`;
* the board rebuilt from the view for every decision: :class:`PositionModel` answers the
  view's questions on the position's own board, its cache key remembered per board version.
"""

from __future__ import annotations

import random
import time
from functools import cached_property
from typing import Any

from tramways.bots.g1840_model import ViewModel, board_key
from tramways.bots.g1840_rule import Rules1840
from tramways.core import Action
from tramways.core.actions import moves
from tramways.g1840.board import Board
from tramways.g1840.view_types import View1840

_KEYS: dict[int, tuple[Any, ...]] = {}
"""The :func:`~tramways.bots.g1840_model.board_key` of each board version met (a version is
never reused and names one content: ``Board.version``), so a play-out's many decisions on one
board sort its tiles and markers once."""


class PositionModel(ViewModel):
    """A :class:`ViewModel` of ``view`` that reads the board from ``state`` (the position the
    view shows, the search's own copy) instead of rebuilding it, and remembers the board's
    cache key per version.  Every answer is the view model's: only the work differs."""

    def __init__(self, view: View1840, state: Any, me: int | None = None) -> None:
        super().__init__(view, me)
        self.state = state

    @cached_property
    def key(self) -> tuple[Any, ...]:
        version = self.state.board.version
        key = _KEYS.get(version)
        if key is None:
            if len(_KEYS) > 20_000:
                _KEYS.clear()
            key = _KEYS[version] = board_key(self.view)
        return key

    @cached_property
    def board(self) -> Board:
        board: Board = self.state.board
        return board


def playout_actions(state: Any, seat: int) -> list[Action]:
    """What the play-out policy chooses from for ``seat`` (see the module docstring): the
    engine's legal moves, or in a line's turn before its run the line round's shorter list
    (``LineRound.playout_actions``) when no program plays between the decisions."""
    listing = getattr(state.current_round, "playout_actions", None)
    if listing is not None and not state.programs \
            and seat == state.current_round.acting(state):
        actions: list[Action] | None = listing(state)
        if actions is not None:
            return actions
    return moves(state.legal_actions(seat))


def rule_playout(state: Any, actions: int, rng: random.Random, until: float | None = None,
                 me: int | None = None, options: dict[str, Any] | None = None,
                 rounds: int | None = None, lays: int = 2,
                 start: int | None = None, policy: type[Rules1840] = Rules1840) -> bool:
    """Let the rule bot (weighing ``lays`` lays) play every seat for ``actions`` actions, or
    until ``until`` (a ``time.perf_counter()`` value), or until ``rounds`` rounds of the Round
    Bar have ended (counted from the round index ``start``, by default the position's); seat
    ``me`` plays ``policy`` (the search's) with ``options``.  Returns whether the play-out met
    a Line or Company Round (where its random lays and the reshuffled deck matter: otherwise
    every sample plays the same).  ``state`` is the search's own copy: it is changed."""
    start = state.round_index if start is None else start
    random_part = False
    for _ in range(actions):
        if state.is_over() or (until is not None and time.perf_counter() >= until):
            break
        if rounds is not None and state.round_index - start >= rounds:
            break
        random_part = random_part or state.round.type in ("LR", "CR")
        seat = state.current_players()[0]
        legal = playout_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            view = state.view(seat)
            model = PositionModel(view, state)
            if seat == me:
                action = policy(view, legal, lays, rng, model=model, **(options or {})
                                ).decide()[0]
            else:
                action = Rules1840(view, legal, lays, rng, model=model).decide()[0]
        state.apply(action, seat)
    return random_part
