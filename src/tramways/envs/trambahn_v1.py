"""Trambahn, version 1: an information-state observation, column slots, optional shaping.

``env(render_mode=None, max_steps=None, observation="information", score_reward=0.0)``;
agents ``player_1`` (the start player) and ``player_2``, as in :mod:`trambahn_v0`.  What
changed (a new version because the observation and the meaning of action ids changed):

* **Observation** ``"information"`` (the default, 920 values): the snapshot below followed by
  the seat's memory of the game (:class:`tramways.envs.trambahn_memory.PublicMemory`): the
  faces known in the discard pile, in each money pile, and the faces whose place the seat
  cannot know (card counting).  ``observation="snapshot"`` is the first 753 values only
  (the position as the view shows it).  Built from ``view(seat)``, the public views and
  the public notation of every action only: hidden cards never reach an agent.
* **Actions**: the same 1,050 names as :mod:`tramways.envs.trambahn_catalogue`, but ``K`` in
  ``station FACE K`` and ``buy KIND K`` is the column's **slot** (1..21): a column keeps its
  slot from the card that starts it until it is discarded, so an id names the same column
  all its life (in v0 ``K`` is the position in the list, which shifts when an earlier
  tram-less column is discarded).  The observation lists the columns by slot too.
* **Rewards**: +1 win, -1 loss, 0 a draw at the end (T-R-4), plus, with
  ``score_reward=c > 0``, ``c * (change of my score - opponent's score)`` after every action
  (regular scorings, T-R-2, and Extra Tours, T-R-3); over a game the shaped part adds up to
  ``c * (final score difference)``.  ``c = 0.01`` puts a typical game's margin (20-60
  points) at a fraction of the win.  Off by default.

The observation (float32; "me" first, then the opponent; values scaled to about 0..1):

====  =====================================================================================
0     it is my turn;  1: I am the second player (``player_2``)
2-5   the step of the turn reached (one-hot 1..4);  6: passengers placed this turn / 2
7-8   scores (me, opponent) / 100;  9-10: money pile sizes / 20;  11-12: hand sizes / 6
13    draw pile / 120;  14: discard pile / 120;  15: regular scorings / 10;
      16: reshuffles / 3;  17: turn number / 100
18    my hand: count of each of the 41 faces (40 stations by colour and value, then C)
59    passenger rows: cards in each row (b, r, g, y) / 4, then the 41 face counts in them
104   my columns by slot, then the opponent's (21 slots each), 14 values per column: colour
      one-hot (4), top value / 10, stations / 10, conductors / 8, cards / 8, tram one-hot
      (horse, steam, electric), Extra Tour done, victory points / 20, complete (a 10 on top)
692   the 41 face counts in all columns on the table
733   tram display (horse, steam, electric counts), then the tram stack / 7 by kind
739   the scorings: regular scorings per colour / 10 (4), my points in them per colour / 100
      (4), the opponent's (4), Extra Tour points (me, opponent) / 100
753   memory: faces known in the discard pile (41), its unknown cards / 120
795   faces known in my money pile (41; my Income cards and my discarded columns), its
      unknown cards / 20
837   faces known in the opponent's money pile (41; its discarded columns), unknown / 20
879   unseen: per face, the copies whose place I cannot know (41)
====  =====================================================================================
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from tramways.core.actions import Action
from tramways.core.game import Outcome
from tramways.envs.base import TramwaysEnv, wrap
from tramways.envs.trambahn_catalogue import CATALOGUE, MAX_COLUMNS
from tramways.envs.trambahn_memory import PublicMemory, View
from tramways.envs.trambahn_v0 import (
    COLOUR_INDEX,
    FACE_INDEX,
    encode_table,
    final_infos,
    picture,
)
from tramways.trambahn.actions import Buy, Station
from tramways.trambahn.cards import FACES
from tramways.trambahn.view_types import as_trambahn_view

N_FACES = len(FACES)
COLUMN_SIZE = 14
GLOBAL = 0
HAND = 18
ROWS = HAND + N_FACES
COLUMNS = ROWS + 4 + N_FACES
TABLE_FACES = COLUMNS + 2 * MAX_COLUMNS * COLUMN_SIZE
TRAMS_AT = TABLE_FACES + N_FACES
SCORINGS = TRAMS_AT + 6
SNAPSHOT_SIZE = SCORINGS + 14
DISCARD = SNAPSHOT_SIZE
MY_MONEY = DISCARD + N_FACES + 1
OPP_MONEY = MY_MONEY + N_FACES + 1
UNSEEN = OPP_MONEY + N_FACES + 1
OBS_SIZE = UNSEEN + N_FACES

OBSERVATIONS = ("information", "snapshot")


def encode_snapshot(view: View, seat: int, slots: list[list[int]]) -> tuple[list[int], list[float]]:
    """(index, value) pairs of the snapshot part (see the module docstring); ``slots`` are
    the columns' slots per player."""
    me, opp = seat, 1 - seat
    scores, money, hands = view.scores, view.money_sizes, view.hand_sizes
    idx = [0, 1, 1 + view.step, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]
    val = [float(view.turn == me and not view.over), float(seat == 1), 1.0,
           view.passengers_placed / 2, scores[me] / 100, scores[opp] / 100,
           money[me] / 20, money[opp] / 20, hands[me] / 6, hands[opp] / 6,
           view.deck_size / 120, view.discard_size / 120, view.regular_scorings / 10,
           view.reshuffles / 3, view.turn_number / 100]
    ones: list[int] = []
    encode_table(view, me, HAND, slots, idx, val, ones)
    for h in view.history:
        points = h.points
        if h.kind == "regular":
            c = COLOUR_INDEX[h.colour]
            idx.extend((SCORINGS + c, SCORINGS + 4 + c, SCORINGS + 8 + c))
            val.extend((0.1, points[me] / 100, points[opp] / 100))
        else:
            idx.extend((SCORINGS + 12, SCORINGS + 13))
            val.extend((points[me] / 100, points[opp] / 100))
    idx.extend(ones)
    val.extend([1.0] * len(ones))
    return idx, val


def encode_memory(view: View, memory: PublicMemory) -> tuple[list[int], list[float]]:
    """(index, value) pairs of the memory part (see the module docstring)."""
    fi = FACE_INDEX
    me, opp = memory.seat, 1 - memory.seat
    idx: list[int] = []
    val: list[float] = []
    known = sum(memory.discard.values())
    for face, n in memory.discard.items():
        idx.append(DISCARD + fi[face])
        val.append(float(n))
    idx.append(DISCARD + N_FACES)
    val.append((view.discard_size - known) / 120)
    for at, player in ((MY_MONEY, me), (OPP_MONEY, opp)):
        unknown = 0
        for card in memory.money[player]:
            if card is None:
                unknown += 1
            else:
                idx.append(at + fi[card])
                val.append(1.0)
        idx.append(at + N_FACES)
        val.append(unknown / 20)
    for face, n in memory.unseen(view).items():
        if n:
            idx.append(UNSEEN + fi[face])
            val.append(float(n))
    return idx, val


class raw_env(TramwaysEnv):  # noqa: N801 (PettingZoo's name)
    """Trambahn v1 (see the module docstring); ``env()`` is the wrapped form."""

    game_name = "trambahn"
    catalogue = CATALOGUE
    obs_size = OBS_SIZE
    metadata: ClassVar[dict[str, Any]] = {**TramwaysEnv.metadata, "name": "trambahn_v1"}

    def __init__(self, render_mode: str | None = None, max_steps: int | None = -1,
                 observation: str = "information", score_reward: float = 0.0,
                 **settings: Any) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        self.observation = observation
        self.obs_size = OBS_SIZE if observation == "information" else SNAPSHOT_SIZE
        self.score_reward = float(score_reward)
        super().__init__(render_mode=render_mode, max_steps=max_steps, **settings)
        self.memories: list[PublicMemory] = []
        self._public: View | None = None
        self._scores = [0, 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.memories = []  # _refresh (in reset) needs the slots: set them up first
        super().reset(seed=seed, options=options)

    def _start_memories(self) -> None:
        assert self.state is not None
        public = self._public = as_trambahn_view(self.state.view(None))
        self.memories = [PublicMemory.start(s, public) for s in (0, 1)]
        self._scores = list(public.scores)

    def _refresh(self) -> None:
        """Whose turn it is, and the mask, with columns named by slot."""
        if not self.memories:
            self._start_memories()
        state = self.state
        assert state is not None
        seat = state.current_players()[0]
        self.agent_selection = self.possible_agents[seat]
        slots = self.memories[seat].slots[seat]
        index = CATALOGUE.index
        legal: dict[int, Action] = {}
        for a in state.legal_actions(seat):
            key: Action = a
            if isinstance(a, Station) and a.column is not None:
                key = Station(seat, a.card, slots[a.column])
            elif isinstance(a, Buy):
                key = Buy(seat, a.kind, slots[a.column])
            i = index.get(key)
            if i is None:
                raise RuntimeError(f"trambahn_v1: no index for {a!r}")
            legal[i] = a
        self._legal = legal
        mask = np.zeros(len(CATALOGUE), dtype=np.int8)
        mask[list(legal)] = 1
        self._mask = mask

    def _played(self, action: Action, seat: int) -> None:
        assert self.state is not None
        before, after = self._public, as_trambahn_view(self.state.view(None))
        assert before is not None
        for memory in self.memories:
            memory.played(before, action, after)
        self._public = after

    def _step_rewards(self) -> dict[str, float] | None:
        assert self._public is not None
        scores = self._public.scores
        before, self._scores = self._scores, list(scores)
        if not self.score_reward:
            return None
        gain = [scores[0] - before[0], scores[1] - before[1]]
        if gain == [0, 0]:
            return None
        c = self.score_reward
        return {self.possible_agents[0]: c * (gain[0] - gain[1]),
                self.possible_agents[1]: c * (gain[1] - gain[0])}

    def encode(self, view: Any, seat: int) -> np.ndarray:
        memory = self.memories[seat]
        idx, val = encode_snapshot(view, seat, memory.slots)
        if self.observation == "information":
            more_idx, more_val = encode_memory(view, memory)
            idx.extend(more_idx)
            val.extend(more_val)
        return np.bincount(idx, weights=val, minlength=self.obs_size).astype(np.float32)

    def final_infos(self, result: Outcome) -> list[dict[str, Any]]:
        return final_infos(result)

    def render_rgb(self) -> np.ndarray:
        assert self.state is not None
        return picture(as_trambahn_view(self.state.view(None)))


def env(**kwargs: Any) -> Any:
    """Trambahn v1 (PettingZoo's order-enforcing wrapper around ``raw_env``)."""
    return wrap(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> Any:
    """Trambahn v1 as a PettingZoo ParallelEnv (:mod:`tramways.envs.parallel`; ``max_cycles``,
    ``illegal``)."""
    from tramways.envs.parallel import parallel_env as make

    return make("trambahn_v1", **kwargs)
