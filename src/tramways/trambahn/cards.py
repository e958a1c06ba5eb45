"""The cards of Trambahn as data (Components; T-FACT-1..3).

120 playing cards, identified by an id ``0..119``:

* ids ``0..111``: the 112 station cards, 28 per colour (blue, red, green, yellow, T-FACT-3);
  per colour two 1s, three each of 2..9 and two 10s;
* ids ``112..119``: the 8 conductors (wild, no value, no victory points).

A card's *face* is its short name: ``"7r"`` (value then colour letter) or ``"C"`` for a
conductor.  Cards with the same face are interchangeable, so actions name faces, not ids.

The 16 tramway cards are not part of the 120: they form the tram stack (horse on top, then
steam, then electric, Setup B) and are named by kind.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("b", "r", "g", "y")
"""Colour letters in the order of the terminal stations (T-FACT-3)."""

COLOUR_NAMES: Final = {"b": "blue", "r": "red", "g": "green", "y": "yellow"}

COPIES_PER_VALUE: Final = {1: 2, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 7: 3, 8: 3, 9: 3, 10: 2}
"""Station cards of each value in one colour (Components: 28 per colour)."""

VICTORY_POINTS: Final = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 3}
"""Victory points printed on a station card of each value (T-FACT-2; 9 is inferred)."""

CONDUCTORS: Final = 8
CONDUCTOR: Final = "C"
NUM_CARDS: Final = 120
COMPLETE_VALUE: Final = 10
"""A column ends with a 10 (Step 2; T-R-1)."""

EXTRA_TOUR_SIZE: Final = 8
"""The 8th card of a column triggers its Extra Tour (T-R-3)."""

HAND_SIZE: Final = 6
START_MONEY: Final = (12, 15)
"""Money cards of the start player and of the second player (Setup C)."""

ROW_SIZE: Final = 4
"""The 4th passenger of a row triggers a scoring (Step 1)."""

REGULAR_SCORINGS: Final = 10
"""The game ends right after the 10th regular scoring (Game End; T-R-4)."""

DISPLAY_SIZE: Final = 3
"""Tramway cards on display (T-FACT-1)."""

TRAMS: Final = {"horse": (2, 5, 5), "steam": (3, 10, 4), "electric": (4, 15, 7)}
"""Tram kind -> (value, cost in money cards, copies) (Components; T-FACT-1)."""

TRAM_STACK: Final = ("horse",) * 5 + ("steam",) * 4 + ("electric",) * 7
"""The tram stack, top first (Setup B: horse on top, electric at the bottom)."""


def _build() -> tuple[list[int], list[int], list[int], list[str]]:
    colour: list[int] = []
    value: list[int] = []
    points: list[int] = []
    face: list[str] = []
    for c, letter in enumerate(COLOURS):
        for v, copies in COPIES_PER_VALUE.items():
            for _ in range(copies):
                colour.append(c)
                value.append(v)
                points.append(VICTORY_POINTS[v])
                face.append(f"{v}{letter}")
    for _ in range(CONDUCTORS):
        colour.append(-1)
        value.append(0)
        points.append(0)
        face.append(CONDUCTOR)
    return colour, value, points, face


CARD_COLOUR, CARD_VALUE, CARD_POINTS, CARD_FACE = _build()
"""Per card id: colour index (-1 for a conductor), value (0), victory points (0), face."""

assert len(CARD_FACE) == NUM_CARDS

FACES: Final = tuple(dict.fromkeys(CARD_FACE))
"""Every distinct face, stations by colour then value, conductor last."""

IDS_BY_FACE: Final = {f: tuple(i for i in range(NUM_CARDS) if CARD_FACE[i] == f) for f in FACES}


FACE_COLOUR: Final = {f: (-1 if f == CONDUCTOR else COLOURS.index(f[-1])) for f in FACES}
FACE_VALUE: Final = {f: (0 if f == CONDUCTOR else int(f[:-1])) for f in FACES}


def is_conductor(card: int) -> bool:
    return card >= NUM_CARDS - CONDUCTORS


def face_colour(face: str) -> int:
    """Colour index of a face (-1 for the conductor)."""
    return -1 if face == CONDUCTOR else COLOURS.index(face[-1])


def face_value(face: str) -> int:
    return 0 if face == CONDUCTOR else int(face[:-1])


def face_points(face: str) -> int:
    return 0 if face == CONDUCTOR else VICTORY_POINTS[int(face[:-1])]


def tram_value(kind: str | None) -> int:
    """Multiplier of a tramway card (0 for a column without one, T-R-3)."""
    return 0 if kind is None else TRAMS[kind][0]


def tram_cost(kind: str) -> int:
    return TRAMS[kind][1]
