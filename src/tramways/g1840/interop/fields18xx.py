"""The fields of 18xx.games actions: trains' colours and the typed field reader of
:mod:`.actions18xx` (one-line errors that name the action)."""

from __future__ import annotations

from typing import Any

from tramways.g1840.interop.errors import ImportError18xx

TRAIN_COLOURS: dict[str, str] = {
    "Y": "yellow",
    "O": "orange",
    "R": "red",
    "Pi": "pink",
    "Pu": "purple",
}
"""Prefix of an 18xx.games train name (``Y1``, ``O2``, ``Pi1``, ...) -> tram colour (VIII.3)."""

STADTBAHN_TRAIN = "City"
"""The imaginary tram of a Stadtbahn company."""


def train_colour(train: str) -> str | None:
    """The tram colour of a train id or name (``"O1-2"`` or ``"O2"`` -> ``"orange"``);
    ``None`` for a Stadtbahn company's ``City`` train."""
    name = train.split("-", 1)[0]
    prefix = name.rstrip("0123456789")
    if prefix == STADTBAHN_TRAIN:
        return None
    colour = TRAIN_COLOURS.get(prefix)
    if colour is None:
        raise ValueError(f"unknown train {train!r}")
    return colour


# ------------------------------------------------------------------------- field readers


class _Fields:
    """Reads typed fields of one action, raising one-line errors that name it."""

    def __init__(self, data: dict[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def fail(self, message: str) -> ImportError18xx:
        return ImportError18xx(f"{self.where}: {message}")

    def str_(self, key: str) -> str:
        value = self.data.get(key)
        if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
            raise self.fail(f"field {key!r} must be a non-empty string, got {value!r}")
        return str(value)

    def opt_str(self, key: str) -> str | None:
        return None if self.data.get(key) is None else self.str_(key)

    def int_(self, key: str) -> int:
        value = self.data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"field {key!r} must be an integer, got {value!r}")
        return value

    def opt_int(self, key: str) -> int | None:
        return None if self.data.get(key) is None else self.int_(key)

    def bool_(self, key: str, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"field {key!r} must be true or false, got {value!r}")
        return value

    def list_(self, key: str) -> list[Any]:
        value = self.data.get(key)
        if not isinstance(value, list):
            raise self.fail(f"field {key!r} must be a list, got {value!r}")
        return value

    def str_list(self, key: str) -> tuple[str, ...]:
        items = self.list_(key)
        if not all(isinstance(x, str) and x for x in items):
            raise self.fail(f"field {key!r} must be a list of strings")
        return tuple(items)
