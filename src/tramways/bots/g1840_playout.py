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
* the whole view built for every decision: :class:`PositionView` builds each part of it
  when first read (the parts a Line Round lay never reads, such as the tiles, the market
  and every player's wealth, are never built);
* the board rebuilt from the view for every decision: :class:`PositionModel` answers the
  view's questions on the position's own board, its cache key remembered per board version;
* Python's cyclic garbage collector while a decision's play-outs run (:func:`gc_paused`):
  its full passes walk every long-lived object (the caches of routes and actions) and took
  about 15% of the play-outs' time; the copies' garbage is freed by reference counting, and
  what is left is collected once the decision is made.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import Any, cast, overload

from tramways.bots.g1840_model import ViewModel
from tramways.bots.g1840_rule import Rules1840
from tramways.core import Action
from tramways.core.actions import moves
from tramways.g1840 import view as views
from tramways.g1840.board import Board
from tramways.g1840.view_types import (
    CompanyView,
    PlayerView,
    Result,
    RoundInfo,
    StadtbahnView,
    TileView,
    TramsView,
    TurnView,
    View1840,
)

_KEYS: dict[int, tuple[Any, ...]] = {}
"""The :func:`~tramways.bots.g1840_model.board_key` of each board version met (a version is
never reused and names one content: ``Board.version``), so a play-out's many decisions on one
board sort its tiles and markers once."""


class PositionView:
    """The view of ``state`` for ``viewer`` (``state.view(viewer)``), each part built from
    the position when first read (:mod:`tramways.g1840.view`'s own functions), for one
    decision of a play-out: read it before the position changes.  :func:`position_view`
    gives it the view's type."""

    def __init__(self, state: Any, viewer: int | None) -> None:
        self._state = state
        self.viewer = viewer
        self.ruleset: str = state.rules.name
        self.edition = int(state.edition)
        self.finished: bool = state.finished
        self.line_deck = len(state.line_deck)

    @cached_property
    def round_info(self) -> RoundInfo:
        return views.round_info_view(self._state)

    @property
    def round(self) -> str:
        return self.round_info.name

    @cached_property
    def turn(self) -> TurnView | None:
        return views.turn_view(self._state)

    @cached_property
    def playing_order(self) -> tuple[int, ...]:
        return tuple(self._state.order)

    @cached_property
    def players(self) -> Sequence[PlayerView]:
        return _Players(self._state)

    @cached_property
    def companies(self) -> dict[str, CompanyView]:
        return views.companies_view(self._state)

    @cached_property
    def stadtbahn(self) -> dict[str, StadtbahnView]:
        return views.stadtbahn_view(self._state)

    @cached_property
    def market(self) -> dict[str, tuple[int, int]]:
        return {c: (cell[0], cell[1]) for c, cell in self._state.market.where.items()}

    @cached_property
    def market_stacks(self) -> dict[tuple[int, int], tuple[str, ...]]:
        return {(r, c): tuple(stack) for (r, c), stack in self._state.market.stacks.items()}

    @cached_property
    def privates(self) -> dict[str, Any]:
        return dict(self._state.private_owner)

    @cached_property
    def line_display(self) -> tuple[int, ...]:
        return tuple(self._state.line_display)

    @cached_property
    def trams(self) -> TramsView:
        return views.trams_view(self._state)

    @cached_property
    def tiles(self) -> dict[str, TileView]:
        return views.tiles_view(self._state)

    @cached_property
    def result(self) -> Result | None:
        return views.final_result(self._state) if self.finished else None

    @cached_property
    def programs(self) -> dict[str, str]:
        return views.programs_view(self._state, self.viewer)

    def price(self, corp: str) -> int:
        """``View1840.price``, itself (it reads ``companies`` and ``stadtbahn`` only)."""
        return View1840.price(cast(View1840, self), corp)

    def company_of_line(self, line: int) -> str | None:
        """``View1840.company_of_line``, itself (it reads ``companies`` only)."""
        return View1840.company_of_line(cast(View1840, self), line)


class _Players(Sequence[PlayerView]):
    """The view's players by seat, each built when first read (a decision mostly reads its
    own seat; a wealth, R-END-1, takes every share price)."""

    def __init__(self, state: Any) -> None:
        self._state = state
        self._built: dict[int, PlayerView] = {}

    def __len__(self) -> int:
        return len(self._state.players)

    @overload
    def __getitem__(self, seat: int) -> PlayerView: ...

    @overload
    def __getitem__(self, seat: slice) -> Sequence[PlayerView]: ...

    def __getitem__(self, seat: int | slice) -> PlayerView | Sequence[PlayerView]:
        if isinstance(seat, slice):
            return [self[s] for s in range(len(self))[seat]]
        if seat < 0:
            seat += len(self)
        if not 0 <= seat < len(self):
            raise IndexError(seat)
        found = self._built.get(seat)
        if found is None:
            found = self._built[seat] = views.player_view(self._state, seat)
        return found


def position_view(state: Any, viewer: int | None) -> View1840:
    """:class:`PositionView` as the view it stands for (it answers every attribute and
    method of :class:`~tramways.g1840.view_types.View1840` a bot reads, with equal values)."""
    return cast(View1840, PositionView(state, viewer))


def position_board_key(state: Any) -> tuple[Any, ...]:
    """:func:`~tramways.bots.g1840_model.board_key` of the position's view, read from its
    board: layout, ruleset, tiles and every station marker (equal values, so the caches of
    run values are shared with the bots that read views)."""
    board = state.board
    tiles = tuple(sorted((c, p.tile_id, p.rotation) for c, p in board.placed().items()))
    markers = tuple(sorted((c, loc, str(owner))
                           for c, by_location in board.all_markers().items()
                           for loc, owners in by_location.items()
                           for owner in dict.fromkeys(owners)))
    return (state.layout_name, state.rules.name, tiles, markers)


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
            key = _KEYS[version] = position_board_key(self.state)
        return key

    @cached_property
    def board(self) -> Board:
        board: Board = self.state.board
        return board


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (see the module docstring),
    and enabled again after it if it was enabled before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
            view = position_view(state, seat)
            model = PositionModel(view, state)
            if seat == me:
                action = policy(view, legal, lays, rng, model=model, **(options or {})
                                ).decide()[0]
            else:
                action = Rules1840(view, legal, lays, rng, model=model).decide()[0]
        state.apply(action, seat)
    return random_part
