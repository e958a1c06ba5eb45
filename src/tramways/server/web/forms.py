"""The pages' forms: read once by a dependency (:data:`FormDep`), and the lobby's new-game
forms turned into the API's body.

The lobby posts what ``POST /api/games`` takes: the fields of
:class:`~tramways.server.bodies.NewGame` (``game``, ``settings``, ``seats``, ``names``), which
the page's backend validates with the same model (``web.backend.Backend.create``).  Only what
a form says in its own words is read here: the seat of each select, the names typed (cut at
40 characters, as the field allows), the 1840 map and an optional seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import Depends, Request

from tramways.server.text import NAME_LENGTH

Form = dict[str, list[str]]

SEAT_KINDS = ("human", "bot:easy", "bot:normal", "bot:strong", "bot:random", "bot:rule",
              "bot:search")
"""The lobby's choices for a seat: a person, a bot by difficulty (easy, normal,
strong; ``tramways.bots.levels``), or one of the bots by its own name."""

MAPS_1840 = ("full", "small", "two")
"""1840 maps: the full map (3-6 players), the small 3-player map (XII), the 2-player map (XIII,
chosen by the number of players)."""


async def read_form(request: Request) -> Form:
    """The posted form (urlencoded; parsed here, so no multipart library is needed)."""
    return parse_qs((await request.body()).decode("utf-8", "replace"), keep_blank_values=True)


FormDep = Annotated[Form, Depends(read_form)]


def one(form: Form, key: str, default: str = "") -> str:
    return form.get(key, [default])[0]


def number(form: Form, key: str) -> int | None:
    try:
        return int(one(form, key))
    except ValueError:
        return None


class FormRefused(ValueError):
    """A lobby form the page refuses in its own words: ``key`` is ``seat`` (no such seat
    choice, or a number of players outside 2-6) or ``map`` (a map for other numbers)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True)
class NewGameForm:
    """A lobby form as the API's body (``fields``), with the page's own choices."""

    fields: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    hotseat: bool = False


DefaultName = Callable[[str, int, list[str]], str | None]
"""``default(kind, index, kinds)``: the name of a seat left without one."""


def _kinds(kinds: list[str]) -> list[str]:
    if any(k not in SEAT_KINDS for k in kinds):
        raise FormRefused("seat")
    return kinds


def trambahn_form(form: Form, default_name: DefaultName) -> NewGameForm:
    """The Trambahn form: two seats (both people with *hotseat*) and their names."""
    hotseat = bool(one(form, "hotseat"))
    kinds = _kinds(["human", "human"] if hotseat
                   else [one(form, "seat1", "human"), one(form, "seat2", "bot:rule")])
    names = [one(form, f"name{i + 1}").strip()[:NAME_LENGTH] or default_name(kind, i, kinds)
             for i, kind in enumerate(kinds)]
    return NewGameForm({"game": "trambahn", "seats": kinds, "names": names, **_resign(form)},
                       hotseat=hotseat)


def g1840_form(form: Form, unnamed: Callable[[int], str] | None = None) -> NewGameForm:
    """The 1840 form: 2-6 seats (a person or a bot each), their names, the map, a seed;
    ``unnamed(n)`` names seat ``n`` left without a name (in the page's language)."""
    players = number(form, "players") or 4
    if not 2 <= players <= 6:
        raise FormRefused("seat")
    kinds = _kinds([one(form, f"seat{i}", "human" if i == 1 else "bot:rule")
                    for i in range(1, players + 1)])
    names = [one(form, f"name{i}").strip()[:NAME_LENGTH] or (unnamed(i) if unnamed else None)
             for i in range(1, players + 1)]
    chosen = one(form, "map", "full")
    if (chosen == "small" and players != 3) or (chosen == "two" and players != 2):
        raise FormRefused("map")
    settings = {"players": players, "small_map": chosen == "small" and players == 3}
    seed_text = one(form, "seed").strip()
    return NewGameForm({"game": "1840", "settings": settings, "seats": kinds, "names": names,
                        **_resign(form)}, seed=int(seed_text) if seed_text.isdigit() else None)


def _resign(form: Form) -> dict[str, Any]:
    """What a resignation does (docs/async.md, ``on_resign``), as the API's body takes it
    (in its pace, with no pace): nothing for the default, the computer playing on."""
    chosen = one(form, "on_resign", "bot")
    return {} if chosen == "bot" else {"pace": {"pace": "none", "on_resign": chosen}}
