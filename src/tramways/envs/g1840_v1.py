"""1840, version 1: factored actions chosen in a few small steps, and a compact observation.

``env(render_mode=None, max_steps=10_000, players=4, small_map=False, names=None)``; agents
and turn order as in :mod:`g1840_v0`.

**Actions** (a documented multi-stage step): an engine action is chosen as a short tuple of
choices, each one ``step`` of the same agent, each with its own mask
(:mod:`tramways.envs.g1840_factored`): first the action type (25), then its arguments in
order (e.g. ``line lay``: hex, then tile, then rotation; ``bid``: private, then amount).
The action space is ``Discrete(401)`` (the largest head); at each stage only the first
``size`` indices of that stage's head can be legal, and the mask holds exactly the values
that lead to at least one legal action given the choices so far.  The engine action is
played when its last choice is made (then the next agent is asked, or the same one again).
``observation["observation"]`` says which head is being asked and what was chosen so far.
A game takes about 2-3 choices per engine action; ``max_steps`` counts engine actions.

**Observation** (6,202 float32 values, from the agent's ``view(seat)`` only; seats relative):

* ``0..791``: the tables of :mod:`g1840_v0` (its observation without the per-hex block:
  round, phase, turn, auctions, players, companies, lines, Stadtbahn, privates);
* ``792..5906``: the map as a hex grid tensor ``[31 channels, 11 rows (A..K), 15 columns]``
  (column ``(number - 1) // 2``: the offset coordinates packed), channel-major: 0 the hex is
  on this game's map, 1 tiles may be laid there, 2-7 tram track leaving by side 0..5 (the tile
  laid, rotated, or the printed track), 8-13 the same for Stadtbahn track, 14-18 the tile's
  colour (yellow, green, brown, grey, other) or none laid, 19 the best revenue of its
  locations / 100, 20-29 station markers of each company (the 10 of the company head), 30
  station slots / 4;
* ``5907..6201``: the choice in progress: the head asked (one-hot 10, :data:`HEAD_NAMES`),
  the stage (one-hot 4), then what was chosen: type (25), hex (148), tile (58), rotation
  (6), location (4), company (10), private (6), line (18), colour (5), number / 400 (1).
  All zeros when it is not the agent's turn.

Rewards and infos as in :mod:`g1840_v0` (places by final wealth, XI, R-END-1).
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.core.game import Outcome
from tramways.envs import g1840_fast, g1840_v0
from tramways.envs.base import MaskedDiscrete, TramwaysEnv, wrap
from tramways.envs.g1840_catalogue import CATALOGUE
from tramways.envs.g1840_factored import (
    ARGS,
    CORPS,
    HEAD_NAMES,
    HEADS,
    HEXES,
    MAX_HEAD,
    TILES,
    TYPES,
    describe,
    factor,
    head_of,
)
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.entities import layout_name
from tramways.g1840.position import Position
from tramways.g1840.view_types import as_view1840

TABLES = g1840_v0.L.hexes
"""The v0 observation up to its per-hex block: the tables."""
ROWS, COLS = 11, 15
CHANNELS = 31
GRID = TABLES
GRID_SIZE = CHANNELS * ROWS * COLS
CHOICE = GRID + GRID_SIZE
CHOICE_SIZE = len(HEADS) + 4 + sum(HEADS[h] for h in HEAD_NAMES if h != "number") + 1
OBS_SIZE = CHOICE + CHOICE_SIZE
TILE_COLOURS = ("yellow", "green", "brown", "grey")
_CHOSEN_AT: dict[str, int] = {}
_at = CHOICE + len(HEADS) + 4
for _h in HEAD_NAMES:
    _CHOSEN_AT[_h] = _at
    _at += 1 if _h == "number" else HEADS[_h]
_CORP_I = {c: i for i, c in enumerate(CORPS)}
_TILES = tiles()


def cell(coord: str) -> int:
    """The grid cell (row * COLS + column) of a hex coordinate."""
    return (ord(coord[0]) - ord("A")) * COLS + (int(coord[1:]) - 1) // 2


def _put(idx: list[int], val: list[float], channel: int, coord: str, v: float = 1.0) -> None:
    idx.append(GRID + channel * ROWS * COLS + cell(coord))
    val.append(v)


@lru_cache(maxsize=8)
def _static(layout: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    idx, val = _static_lists(layout)
    return tuple(idx), tuple(val)


def static_grid(layout: str) -> tuple[list[int], list[float]]:
    """The channels the layout fixes: on the map, laying allowed."""
    idx, val = _static(layout)
    return list(idx), list(val)


def _static_lists(layout: str) -> tuple[list[int], list[float]]:
    idx: list[int] = []
    val: list[float] = []
    for coord, h in load_layout(layout).hexes.items():
        _put(idx, val, 0, coord)
        if h.laying_allowed:
            _put(idx, val, 1, coord)
    return idx, val


def _revenue(value: Any) -> int:
    """A location's revenue; off-board locations name one per phase: the best of them."""
    return int(max(value.values())) if hasattr(value, "values") else int(value or 0)


def _tile_features(idx: list[int], val: list[float], coord: str, exits_t: Any, exits_s: Any,
                   rotation: int, colour: str | None, locations: Any) -> None:
    for e in exits_t:
        _put(idx, val, 2 + (e + rotation) % 6, coord)
    for e in exits_s:
        _put(idx, val, 8 + (e + rotation) % 6, coord)
    if colour is not None:
        _put(idx, val, 14 + (TILE_COLOURS.index(colour) if colour in TILE_COLOURS else 4), coord)
    revenue = max((_revenue(loc.revenue) for loc in locations), default=0)
    if revenue:
        _put(idx, val, 19, coord, revenue / 100)
    slots = sum(loc.slots for loc in locations)
    if slots:
        _put(idx, val, 30, coord, slots / 4)


def _field(view: Any, name: str) -> Any:
    return view[name] if isinstance(view, dict) else getattr(view, name)


def encode_grid(view: Any, layout: str) -> tuple[list[int], list[float]]:
    """(index, value) pairs of the hex grid (see the module docstring)."""
    idx, val = static_grid(layout)
    hexes = load_layout(layout).hexes
    laid = _field(view, "tiles")
    for coord, h in hexes.items():
        if coord in laid:
            continue
        _tile_features(idx, val, coord, h.tram_exits, h.stadtbahn_exits, 0, None, h.locations)
    for coord, entry in laid.items():
        tile, rotation = (entry if isinstance(entry, list | tuple)
                          else (entry.tile, entry.rotation))
        t = _TILES[tile]
        _tile_features(idx, val, coord, t.tram_exits, t.stadtbahn_exits, rotation, t.colour,
                       t.locations)
    for group in ("companies", "stadtbahn"):
        for cid, c in _field(view, group).items():
            markers = _field(c, "markers")
            places = ([p for ps in markers.values() for p in ps] if hasattr(markers, "values")
                      else list(markers))
            for place in places:
                _put(idx, val, 20 + _CORP_I[cid], place.split(".")[0])
    return idx, val


_GRIDS: dict[Hashable, np.ndarray] = {}
_GRIDS_LIMIT = 256
"""Grids kept (a miss only costs building one again)."""


def grid_of(state: Position, layout: str) -> np.ndarray:
    """The hex grid block (``OBS_SIZE[GRID:CHOICE]``) of ``state``: :func:`encode_grid` of the
    tiles and markers its view would show, kept per board version and line ownership."""
    board = state.board
    companies = {cid: tuple(c.lines) for cid, c in state.companies.items()}
    key = (layout, board.version, tuple(companies.items()), tuple(state.stadtbahn))
    found = _GRIDS.get(key)
    if found is None:
        def places(owner: Any) -> list[str]:
            return [f"{h}.{loc}" for h, loc in board.line_markers(owner)]

        seen = {
            "tiles": {h: (p.tile_id, p.rotation) for h, p in board.placed().items()},
            "companies": {cid: {"markers": {line: places(line) for line in lines}}
                          for cid, lines in companies.items()},
            "stadtbahn": {sid: {"markers": places(sid)} for sid in state.stadtbahn},
        }
        idx, val = encode_grid(seen, layout)
        grid = np.bincount(idx, weights=val, minlength=OBS_SIZE).astype(np.float32)
        found = grid[GRID:CHOICE]
        found.flags.writeable = False
        if len(_GRIDS) >= _GRIDS_LIMIT:
            _GRIDS.clear()
        _GRIDS[key] = found
    return found


_PLANE = ROWS * COLS
"""One channel of the grid."""


class HexGrid:
    """The hex grid block of one layout kept up to date hex by hex: after a lay or a marker
    only the hexes whose tile or marker map is another object than before are written again
    (as :class:`tramways.envs.g1840_fast.Observer` keeps v0's per-hex block); a change of
    the lines' owners writes every hex.  The same values as :func:`grid_of`."""

    __slots__ = ("layout", "values", "_hexes", "_features", "_version", "_owners_key",
                 "_owners", "_tiles", "_markers")

    def __init__(self, layout: str) -> None:
        self.layout = layout
        self.values = np.zeros(GRID_SIZE, dtype=np.float32)
        """The grid (``observation[GRID:CHOICE]``); changed in place by :meth:`update`."""
        self._hexes = load_layout(layout).hexes
        self._features: dict[tuple[str, Any], tuple[tuple[int, float], ...]] = {}
        self._version: int | None = None
        self._owners_key: Any = None
        self._owners: dict[Any, int] = {}
        self._tiles: dict[str, Any] = {}
        self._markers: dict[str, Any] = {}

    def update(self, state: Position) -> np.ndarray:
        """:attr:`values` for ``state`` (the same array, brought up to date)."""
        board = state.board
        key = g1840_fast.owners_key(state)
        if board.version == self._version and key == self._owners_key:
            return self.values
        tiles, markers = board.placed(), board.all_markers()
        if key != self._owners_key:
            self._owners, self._owners_key = g1840_fast.marker_owners(state), key
            changed: set[str] = set(self._hexes)
        else:
            changed = (g1840_fast.changed_hexes(self._tiles, tiles)
                       | g1840_fast.changed_hexes(self._markers, markers))
        for coord in changed:
            self._rewrite(coord, tiles.get(coord), markers.get(coord))
        self._tiles, self._markers = dict(tiles), dict(markers)
        self._version = board.version
        return self.values

    def _rewrite(self, coord: str, placed: Any, markers: Any) -> None:
        at = cell(coord)
        values = self.values
        values[at::_PLANE] = 0.0
        for offset, value in self._hex_features(coord, placed):
            values[offset] = value
        if markers:
            owners = self._owners
            for _loc, owner in g1840_fast.owner_places(markers):
                corp = owners.get(owner)
                if corp is not None:
                    values[(20 + corp) * _PLANE + at] += 1.0

    def _hex_features(self, coord: str, placed: Any) -> tuple[tuple[int, float], ...]:
        """(offset in the grid, value) of a hex's channels but its markers: on the map,
        laying allowed, the track, colour, revenue and slots of its tile (or as printed),
        each offset once (the values summed as ``np.bincount`` sums them)."""
        key = (coord, None if placed is None else (placed.tile_id, placed.rotation))
        found = self._features.get(key)
        if found is None:
            idx: list[int] = []
            val: list[float] = []
            h = self._hexes[coord]
            _put(idx, val, 0, coord)
            if h.laying_allowed:
                _put(idx, val, 1, coord)
            if placed is None:
                _tile_features(idx, val, coord, h.tram_exits, h.stadtbahn_exits, 0, None,
                               h.locations)
            else:
                t = _TILES[placed.tile_id]
                _tile_features(idx, val, coord, t.tram_exits, t.stadtbahn_exits,
                               placed.rotation, t.colour, t.locations)
            summed: dict[int, float] = {}
            for i, v in zip(idx, val, strict=True):
                summed[i - GRID] = summed.get(i - GRID, 0.0) + v
            found = self._features[key] = tuple(summed.items())
        return found


class raw_env(TramwaysEnv):  # noqa: N801 (PettingZoo's name)
    """1840 v1 (see the module docstring); ``env()`` is the wrapped form."""

    game_name = "1840"
    catalogue = CATALOGUE
    obs_size = OBS_SIZE
    obs_low = -np.inf  # a company's revenue may be negative (maintenance, Table 7)
    default_max_steps = 10_000
    metadata: ClassVar[dict[str, Any]] = {**TramwaysEnv.metadata, "name": "g1840_v1"}

    def __init__(self, render_mode: str | None = None, max_steps: int | None = -1,
                 **settings: Any) -> None:
        super().__init__(render_mode=render_mode, max_steps=max_steps, **settings)
        self.layout = layout_name(int(self.settings["players"]),
                                  bool(self.settings.get("small_map", False)))
        self.action_spaces = {a: MaskedDiscrete(MAX_HEAD) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(OBS_SIZE,),
                                          dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(MAX_HEAD,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._no_mask = np.zeros(MAX_HEAD, dtype=np.int8)
        self._options: list[tuple[tuple[int, ...], Action]] = []
        self.prefix: tuple[int, ...] = ()
        self.observer = g1840_fast.Observer()
        """Builds the tables; keeps this game's board part between them."""
        self.grid = HexGrid(self.layout)
        """This game's hex grid, kept up to date hex by hex."""

    # --- the choice in progress ----------------------------------------------------------------
    def _refresh(self) -> None:
        state = self.state
        assert state is not None
        seat = state.current_players()[0]
        self.agent_selection = self.possible_agents[seat]
        options = []
        for a in state.legal_actions(seat):
            choices = factor(a)
            if choices is not None:
                options.append((choices, a))
        self._options = options
        self.prefix = ()
        self._update_mask()

    def _update_mask(self) -> None:
        k, prefix = len(self.prefix), self.prefix
        values = {c[k] for c, _ in self._options if len(c) > k and c[:k] == prefix}
        mask = np.zeros(MAX_HEAD, dtype=np.int8)
        mask[list(values)] = 1
        self._mask = mask
        self._legal = {}  # the engine actions are chosen through the prefix, not by index

    def legal_indices(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self._mask)]

    def legal_engine_actions(self) -> list[Action]:
        return [a for _, a in self._options]

    def legal_actions(self) -> dict[int, Action]:
        """Index -> engine action for the legal actions of the agent to move, numbered in
        the order of the engine's list (the choice of a bot: see ``step_engine``)."""
        return dict(enumerate(self.legal_engine_actions()))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = int(action)
        if not 0 <= i < MAX_HEAD or not self._mask[i]:
            raise IllegalAction("action mask", f"choice {i} is not legal for {agent} now "
                                f"(choosing the {head_of(self.prefix)} of "
                                f"{describe(self.prefix) or 'an action'})")
        prefix = (*self.prefix, i)
        done = [a for c, a in self._options if c == prefix]
        if done:
            self._play(agent, done[0])
            return
        self.prefix = prefix
        self._update_mask()
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        self._accumulate_rewards()

    def step_engine(self, action: Action) -> None:
        """Play a legal engine action at once (all its choices): a bot's move."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            raise IllegalAction("action mask", "the game is over")
        for _, a in self._options:
            if a == action:
                self._play(self.agent_selection, a)
                return
        raise IllegalAction("action mask", f"{action!r} is not legal for {self.agent_selection}")

    # --- the observation -----------------------------------------------------------------------
    def encode(self, view: Any, seat: int) -> np.ndarray:
        tables = g1840_v0.encode(view, seat)[:TABLES]
        idx, val = encode_grid(view, self.layout)
        more_idx, more_val = self._choice_features(seat)
        idx.extend(more_idx)
        val.extend(more_val)
        out = np.bincount(idx, weights=val, minlength=OBS_SIZE).astype(np.float32)
        out[:TABLES] = tables
        return out

    def observation_array(self, seat: int) -> np.ndarray:
        """``encode(view(seat), seat)``, read from the position (1840 has no hidden
        information): the tables by :class:`tramways.envs.g1840_fast.Observer` (kept
        across the choices of one engine action and shared by the seats), the grid kept up
        to date hex by hex (:class:`HexGrid`)."""
        state = self.state
        assert isinstance(state, Position)
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        out[:TABLES] = self.observer.tables(state, seat, self.position)
        out[GRID:CHOICE] = self.grid.update(state)
        for i, v in zip(*self._choice_features(seat), strict=True):
            out[i] = v  # one value per index
        return out

    def _choice_features(self, seat: int) -> tuple[list[int], list[float]]:
        """(index, value) pairs of the choice in progress (none unless ``seat`` is asked)."""
        idx: list[int] = []
        val: list[float] = []
        if self.possible_agents[seat] == self.agent_selection and not (
                self.terminations[self.agent_selection]
                or self.truncations[self.agent_selection]):
            head = head_of(self.prefix)
            idx.extend((CHOICE + HEAD_NAMES.index(head), CHOICE + len(HEADS) + len(self.prefix)))
            val.extend((1.0, 1.0))
            if self.prefix:
                kind = TYPES[self.prefix[0]]
                idx.append(_CHOSEN_AT["type"] + self.prefix[0])
                val.append(1.0)
                for h, x in zip(ARGS[kind], self.prefix[1:], strict=False):
                    if h == "number":
                        idx.append(_CHOSEN_AT[h])
                        val.append(x / 400)
                    else:
                        idx.append(_CHOSEN_AT[h] + x)
                        val.append(1.0)
        return idx, val

    def final_infos(self, result: Outcome) -> list[dict[str, Any]]:
        """XI / R-END-1: each seat's wealth and place."""
        return [{"wealth": w, "rank": r} for w, r in zip(result.scores, result.places,
                                                         strict=True)]

    def render_rgb(self) -> np.ndarray:
        assert self.state is not None
        return g1840_v0.picture(as_view1840(self.state.view(None)))


def env(**kwargs: Any) -> Any:
    """1840 v1 (PettingZoo's order-enforcing wrapper around ``raw_env``)."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> Any:
    """1840 v1 as a PettingZoo ParallelEnv (:mod:`tramways.envs.parallel`)."""
    from tramways.envs.parallel import parallel_env as make

    return make("g1840_v1", **kwargs)


__all__ = ["HEXES", "TILES", "env", "parallel_env", "raw_env"]
