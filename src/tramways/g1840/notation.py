"""The machinery of the 1840 notation (:mod:`tramways.g1840.actions` defines the actions):
the words an action is written with (:class:`Word`), what every action class says about its
notation (:class:`Notated`: a head naming who acts, a verb, the words), and the registry from
kind and verb to the class that parses it (:func:`notation`, :func:`parser`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from tramways.core.errors import NotationError
from tramways.g1840.entities import TRAM_COLOURS

# --- the words of the notation ---------------------------------------------------------

NAME = re.compile(r"[A-Z][A-Za-z]*")
INT = re.compile(r"-?\d+")
LOC = re.compile(r"([A-Z]\d+)\.(\d+)")
ROT = re.compile(r"r([0-5])")
PLAYER = re.compile(r"P[1-9]")
LINE = re.compile(r"L\d{1,2}")
HEX = re.compile(r"[A-K]\d{1,2}")


def read_int(text: str, what: str) -> int:
    if not INT.fullmatch(text):
        raise NotationError(f"{what}: expected a number, got {text!r}")
    return int(text)


def read_name(text: str, what: str) -> str:
    if not NAME.fullmatch(text):
        raise NotationError(f"{what}: expected a name, got {text!r}")
    return text


def read_colour(text: str, allow_none: bool = False) -> str:
    if allow_none and text == "none":
        return text
    if text not in TRAM_COLOURS:
        raise NotationError(f"unknown tram colour {text!r} (one of {', '.join(TRAM_COLOURS)})")
    return text


def read_location(text: str) -> tuple[str, int]:
    m = LOC.fullmatch(text)
    if not m:
        raise NotationError(f"expected HEX.LOCATION such as E17.0, got {text!r}")
    return m.group(1), int(m.group(2))


def read_line(text: str) -> int:
    if not LINE.fullmatch(text):
        raise NotationError(f"expected a line such as L7, got {text!r}")
    return int(text[1:])


def arity(args: list[str], n: int) -> None:
    if len(args) != n:
        raise NotationError(f"expected {n} argument(s), got {len(args)}")


@dataclass(frozen=True, slots=True)
class Word:
    """One word of an action's notation: the field it holds, how it is read, how written."""

    field: str
    read: Callable[[str], Any]
    write: Callable[[Any], str] = str


def name_word(name: str) -> Word:
    return Word(name, lambda text: read_name(text, name))


def int_word(name: str) -> Word:
    return Word(name, lambda text: read_int(text, name))


COLOUR = Word("colour", read_colour)
COLOURS = Word("colours", lambda text: tuple(read_colour(c, True) for c in text.split(",")),
                ",".join)
AUCTIONED_LINE = Word("line", read_line, lambda line: f"L{line}")

# --- the registry ----------------------------------------------------------------------

PARSERS: dict[tuple[str, str], type[Notated]] = {}
"""(kind, verb) -> the action class that parses it (filled by :func:`notation`)."""

N = TypeVar("N", bound="type[Notated]")


def notation(cls: N) -> N:
    """Register an action class under its kind and verb (placed above ``@dataclass``, so that
    the class registered is the finished one)."""
    key = (cls.kind, cls.verb)
    assert key not in PARSERS, f"two actions notated {key}"
    PARSERS[key] = cls
    return cls


class Notated:
    """What every 1840 action class says about its notation: ``HEAD VERB WORDS``, the head
    naming who acts (``P1``, ``WT``, ``L7``)."""

    __slots__ = ()
    kind: ClassVar[str]
    """``player``, ``company`` or ``line``: how the head reads."""
    verb: ClassVar[str]
    words: ClassVar[tuple[Word, ...]] = ()

    def head(self) -> str:
        raise NotImplementedError

    def args(self) -> str:
        """The words after the verb ("" for none)."""
        return " ".join(w.write(getattr(self, w.field)) for w in self.words)

    def format(self) -> str:
        """The action's notation."""
        args = self.args()
        return f"{self.head()} {self.verb}" + (f" {args}" if args else "")

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        """The action of ``subject`` (a seat, a company, a line) from the words after the verb
        (``rest``: the same, unsplit)."""
        arity(args, len(cls.words))
        return cls.of(subject, **{w.field: w.read(a) for w, a in zip(cls.words, args, strict=True)})

    @classmethod
    def of(cls, subject: Any, **fields: Any) -> Self:
        """The action of ``subject`` with ``fields``."""
        raise NotImplementedError


def parser(kind: str, verb: str) -> type[Notated] | None:
    """The action class notated ``verb`` for a head of ``kind`` (None: no such action)."""
    return PARSERS.get((kind, verb))

