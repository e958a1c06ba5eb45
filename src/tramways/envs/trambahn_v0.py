"""Trambahn as a PettingZoo AEC environment (two agents, hidden hands and deck).

``env(render_mode=None, max_steps=None, names=[...])``; agents ``player_1`` (the start
player) and ``player_2``.  Actions: :mod:`tramways.envs.trambahn_catalogue` (1,050).

The observation (742 float32 values, from the agent's own ``view(seat)`` only, so the other
hand, the deck, the discard pile and every money card stay hidden; seats are relative: "me"
first, then the opponent):

====  =====================================================================================
0     it is my turn
1-4   the step of the turn reached (one-hot 1..4)
5     passengers placed this turn / 2
6-7   scores (me, opponent) / 100
8-9   money pile sizes / 20
10-11 hand sizes / 6
12    draw pile size / 120;  13: discard pile size / 120
14    regular scorings / 10;  15: reshuffles / 3;  16: turn number / 100
17    my hand: count of each of the 41 faces (40 stations by colour and value, then C)
58    passenger rows: cards in each row (b, r, g, y) / 4, then the 41 face counts in the rows
103   my columns, then the opponent's (21 each), 14 values per column: colour one-hot (4),
      top value / 10, stations / 10, conductors / 8, cards / 8, tram one-hot (horse, steam,
      electric), Extra Tour done, victory points / 20, complete (a 10 on top)
691   the 41 face counts in all columns on the table
732   tram display (horse, steam, electric counts), then the tram stack / 7 by kind
738   regular scorings per colour (b, r, g, y) / 10
====  =====================================================================================

Rewards at the end: +1 win, -1 loss, 0 a draw (Game End, T-R-4: most points, then the larger
money pile); ``infos``: ``score``, ``money``, ``regular``, ``extra_tours``, ``rank``.
Rendering: ``"ansi"`` (the spectator's text view) and ``"rgb_array"`` (a small table picture).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tramways.core.game import Outcome
from tramways.envs.base import TramwaysEnv, wrap
from tramways.envs.trambahn_catalogue import CATALOGUE, MAX_COLUMNS
from tramways.trambahn.cards import COLOURS, FACES
from tramways.trambahn.view_types import TrambahnResult, TrambahnView, as_trambahn_view

FACE_INDEX = {f: i for i, f in enumerate(FACES)}
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
TRAM_INDEX = {"horse": 0, "steam": 1, "electric": 2}
STEP_NAMES = ("passengers", "stations", "income", "trams")

N_FACES = len(FACES)
COLUMN_SIZE = 14
HAND = 17
ROWS = HAND + N_FACES
COLUMNS = ROWS + 4 + N_FACES
TABLE_FACES = COLUMNS + 2 * MAX_COLUMNS * COLUMN_SIZE
TRAMS_AT = TABLE_FACES + N_FACES
HISTORY = TRAMS_AT + 6
OBS_SIZE = HISTORY + 4


def encode_column(col: Any, at: int, faces_at: int, idx: list[int], val: list[float],
                  ones: list[int]) -> None:
    """One column's ``COLUMN_SIZE`` features from index ``at`` (its colour, the top station,
    the sizes, the tram, an Extra Tour, the points), and its cards counted from ``faces_at``;
    appended to the (index, value) pairs of :func:`encode` (shared with ``trambahn_v1``)."""
    stations, conductors = col.stations, col.conductors
    top = int(stations[-1][:-1]) if stations else 0
    ones.append(at + COLOUR_INDEX[col.colour])
    if col.tram is not None:
        ones.append(at + 8 + TRAM_INDEX[col.tram])
    if col.extra_tour:
        ones.append(at + 11)
    if top == 10:
        ones.append(at + 13)
    idx.extend((at + 4, at + 5, at + 6, at + 7, at + 12))
    val.extend((top / 10, len(stations) / 10, len(conductors) / 8,
                (len(stations) + len(conductors)) / 8, col.points / 20))
    ones.extend([faces_at + FACE_INDEX[f] for f in stations])
    ones.extend([faces_at + FACE_INDEX[f] for f in conductors])


def encode_table(view: TrambahnView, me: int, hand_at: int, slots: list[list[int]] | None,
                 idx: list[int], val: list[float], ones: list[int]) -> None:
    """The hand, the rows, both players' columns and the trams, laid out from ``hand_at`` as
    both observations lay them out (the offsets of ``ROWS``, ``COLUMNS``, ``TABLE_FACES`` and
    ``TRAMS_AT`` after ``HAND``); appended to the (index, value) pairs. ``slots`` are the
    columns' slots per player (``trambahn_v1``'s stable slots), ``None`` their positions."""
    rows_at = hand_at + N_FACES
    columns_at = rows_at + 4 + N_FACES
    faces_at = columns_at + 2 * MAX_COLUMNS * COLUMN_SIZE
    trams_at = faces_at + N_FACES
    fi = FACE_INDEX
    ones.extend([hand_at + fi[f] for f in view.hand or ()])
    rows = view.rows
    for c, colour in enumerate(COLOURS):
        row = rows[colour]
        if row:
            idx.append(rows_at + c)
            val.append(len(row) / 4)
            ones.extend([rows_at + 4 + fi[f] for f in row])
    for rel, player in enumerate((me, 1 - me)):
        base = columns_at + rel * MAX_COLUMNS * COLUMN_SIZE
        columns = view.columns[player]
        places = range(len(columns)) if slots is None else slots[player]
        for slot, col in zip(places, columns, strict=True):
            encode_column(col, base + slot * COLUMN_SIZE, faces_at, idx, val, ones)
    ones.extend([trams_at + TRAM_INDEX[kind] for kind in view.display])
    for kind in view.stack:
        idx.append(trams_at + 3 + TRAM_INDEX[kind])
        val.append(1 / 7)


def encode(view: TrambahnView, seat: int) -> np.ndarray:
    """The observation of ``seat`` from its view (see the module docstring).

    Every feature is gathered as (index, value) pairs and summed by one weighted
    ``bincount`` (counts are pairs of value 1): much cheaper than setting array items one
    by one.
    """
    me, opp = seat, 1 - seat
    scores, money, hands = view.scores, view.money_sizes, view.hand_sizes
    ones: list[int] = []
    idx = [0, view.step, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    val = [float(view.turn == me and not view.over), 1.0,
           view.passengers_placed / 2, scores[me] / 100, scores[opp] / 100,
           money[me] / 20, money[opp] / 20, hands[me] / 6, hands[opp] / 6,
           view.deck_size / 120, view.discard_size / 120, view.regular_scorings / 10,
           view.reshuffles / 3, view.turn_number / 100]
    encode_table(view, me, HAND, None, idx, val, ones)
    for h in view.history:
        if h.kind == "regular":
            idx.append(HISTORY + COLOUR_INDEX[h.colour])
            val.append(0.1)
    idx.extend(ones)
    val.extend([1.0] * len(ones))
    return np.bincount(idx, weights=val, minlength=OBS_SIZE).astype(np.float32)


_RGB = {"b": (40, 90, 200), "r": (200, 50, 40), "g": (40, 150, 60), "y": (230, 200, 40),
        "horse": (140, 90, 40), "steam": (90, 90, 90), "electric": (60, 160, 220)}


def picture(view: TrambahnView) -> np.ndarray:
    """A small table picture (H x W x 3 uint8): the four passenger rows on top, each
    player's columns below (bar height = cards, tram colour beneath), score bars at the foot."""
    h, w = 260, 8 + 2 * (MAX_COLUMNS * 12 + 8)
    img = np.full((h, w, 3), 245, dtype=np.uint8)
    for c, colour in enumerate(COLOURS):  # rows: up to 4 passenger slots each
        for k in range(4):
            x, y = 8 + c * 70 + k * 16, 8
            filled = k < len(view.rows[colour])
            img[y:y + 20, x:x + 12] = _RGB[colour] if filled else (215, 215, 215)
    for p in (0, 1):
        x0 = 8 + p * (MAX_COLUMNS * 12 + 8)
        img[40:220, x0 - 4:x0 - 2] = (120, 120, 120) if p else (245, 245, 245)
        for k, col in enumerate(view.columns[p]):
            x = x0 + k * 12
            size = len(col.stations) + len(col.conductors)
            img[200 - 10 * min(size, 16):200, x:x + 9] = _RGB[col.colour]
            if col.tram is not None:
                img[204:214, x:x + 9] = _RGB[col.tram]
        top = max(100, *view.scores)
        length = int((w // 2 - 16) * view.scores[p] / top)
        img[230 + 12 * p:238 + 12 * p, 8:8 + length] = (30, 30, 30)
    return img


class raw_env(TramwaysEnv):  # noqa: N801 (PettingZoo's name)
    """Trambahn (see the module docstring); ``env()`` is the wrapped form."""

    game_name = "trambahn"
    catalogue = CATALOGUE
    obs_size = OBS_SIZE
    metadata = {**TramwaysEnv.metadata, "name": "trambahn_v0"}

    def encode(self, view: Any, seat: int) -> np.ndarray:
        return encode(view, seat)

    def final_infos(self, result: Outcome) -> list[dict[str, Any]]:
        return final_infos(result)

    def render_rgb(self) -> np.ndarray:
        assert self.state is not None
        return picture(as_trambahn_view(self.state.view(None)))


def final_infos(result: Outcome) -> list[dict[str, Any]]:
    """Each seat's figures at the end of a game (both Trambahn environments' final infos):
    T-R-4's points, their parts, the money pile and the place."""
    if not isinstance(result, TrambahnResult):
        raise TypeError(f"not a Trambahn result: {result!r}")
    return [{"score": result.scores[s], "money": result.money[s],
             "regular": result.regular[s], "extra_tours": result.extra_tours[s],
             "rank": result.places[s]} for s in (0, 1)]


def env(**kwargs: Any) -> Any:
    """The Trambahn environment (PettingZoo's order-enforcing wrapper around ``raw_env``)."""
    return wrap(raw_env(**kwargs))
