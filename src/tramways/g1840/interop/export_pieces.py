"""The site's names and ids the exporter writes: companies, trams and their
variants, the Stadtbahn order, and the exporter's error and record of pieces in play."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.g1840.interop.setup18xx import ENGINE_COMPANY_ID

TITLE = "1840"
SMALL_MAP_RULE = "three_player_small"
SITE_COMPANY_ID = {ours: site for site, ours in ENGINE_COMPANY_ID.items()}
"""Our tram company id -> the site's (``DT`` -> ``DT K&C``, ``GW`` -> ``GWStStB``)."""

TRAM_PREFIX = {"yellow": "Y", "orange": "O", "red": "R", "pink": "Pi", "purple": "Pu"}
"""Tram colour -> the site's train name prefix (VIII.3)."""

VARIANT_PRICES: dict[str, tuple[int, ...]] = {
    "yellow": (100, 50),
    "orange": (300, 200, 100),
    "red": (500, 400, 300),
    "pink": (600, 500, 400),
    "purple": (800, 600),
}
"""The site's price of each variant of a tram (``O1`` 300, ``O2`` 200, ``O3`` 100)."""

STADTBAHN_ORDER = ("W", "V", "G", "D")
"""The Stadtbahn companies in the order the site numbers their ``City`` trains."""

DIRECTOR_CERTIFICATE = 0
"""A tram company's director certificate is its share number 0."""


class ExportError18xx(TramwaysError):
    """A game that cannot be written for 18xx.games (one line naming the action or ruling)."""


@dataclass
class _Pieces:
    """The site's ids of the pieces in play, followed while our record replays."""

    certs: dict[str, dict[int, Any]] = field(default_factory=dict)  # company -> n -> holder
    depot: dict[str, int] = field(default_factory=dict)  # colour -> next copy
    trams: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # co -> (id, colour)
    on_line: dict[int, str] = field(default_factory=dict)  # line -> tram id
    tiles: dict[str, str] = field(default_factory=dict)  # hex -> piece id on it
    slots: dict[tuple[str, int], list[Any]] = field(default_factory=dict)


def _player_id(seat: int) -> int:
    return seat + 1


def _site_company(co: str) -> str:
    return SITE_COMPANY_ID.get(co, co)


def _variant(colour: str, price: int) -> str:
    prices = VARIANT_PRICES[colour]
    prefix = TRAM_PREFIX[colour]
    if price in prices:
        return f"{prefix}{prices.index(price) + 1}"
    return f"{prefix}1"
