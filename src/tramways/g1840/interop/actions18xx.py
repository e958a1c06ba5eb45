"""The catalogue of 18xx.games action types in 1840 records, each as a typed value.

An export's action is a JSON object with ``type``, ``entity``, ``entity_type``, ``id`` and
type-specific fields.  :func:`parse_action` checks the fields each type needs and returns a
frozen dataclass; an unknown type or a missing/ill-typed field raises
:class:`~tramways.g1840.interop.errors.ImportError18xx` naming the action.  Fields that carry no
game information (``created_at``, ``user``) are dropped.

Entities: players are numeric user ids (kept as strings), tram companies and Stadtbahn
companies their ids (``WT``, ``GWStStB``, ``W``), lines their number as a string (``"4"``),
privates their symbol (``KK``).  Ids of pieces: trains ``O1-0`` (variant family ``O``, copy
0), tiles ``6-1`` (tile ``6``, copy 1; a preprinted hex's tile is named after the hex), cities
``6-1-0`` (tile ``6-1``, city 0 of that tile).

Types seen in the 2-player oracle are marked "(oracle)"; the others are possible in 1840 from
the steps 18xx.games uses (reference/1840/interpretations.md) and are parsed to the same
standard.  Program actions only store a player's automation: their consequences are recorded as
``auto_actions`` of later actions, so they have no effect of their own on replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.fields18xx import (
    STADTBAHN_TRAIN,
    TRAIN_COLOURS,
    _Fields,
    train_colour,
)

__all__ = ["STADTBAHN_TRAIN", "TRAIN_COLOURS", "train_colour"]  # (read as a18.train_colour)


# ------------------------------------------------------------------------------ actions


@dataclass(frozen=True)
class Action18xx:
    """Base of every 18xx.games action: who acts (``entity`` of ``entity_type``)."""

    TYPE: ClassVar[str] = ""
    entity: str
    entity_type: str

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base)


@dataclass(frozen=True)
class Bid(Action18xx):
    """(oracle) A bid: on a private in the Pre-Share Round (``company``, VI, R-PRE-1), or by a
    tram company on the line being auctioned in CRe (``corporation`` = the line, R-CR-7)."""

    TYPE: ClassVar[str] = "bid"
    price: int
    company: str | None = None
    corporation: str | None = None

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        company, corporation = f.opt_str("company"), f.opt_str("corporation")
        if (company is None) == (corporation is None):
            raise f.fail("a bid names exactly one of 'company' and 'corporation'")
        return cls(**base, price=f.int_("price"), company=company, corporation=corporation)


@dataclass(frozen=True)
class Pass(Action18xx):
    """(oracle) Pass: on a private or line auction, in a share round, on tram buying, on
    track/token, on buying privates (the active step decides what is passed)."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Choose(Action18xx):
    """(oracle) A choice offered by the active step; in 1840 the playing order card after the
    Pre-Share Round (R-ORDER-1): ``choice`` is the site's key of the offered position."""

    TYPE: ClassVar[str] = "choose"
    choice: str

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, choice=f.str_("choice"))


@dataclass(frozen=True)
class Par(Action18xx):
    """(oracle) SR1: buy the director's certificate of a tram company at a par price (VII.5).
    ``share_price`` is ``"PRICE,ROW,COLUMN"`` of the share-price chart."""

    TYPE: ClassVar[str] = "par"
    corporation: str
    price: int
    row: int
    column: int

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        text = f.str_("share_price")
        parts = text.split(",")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            raise f.fail(f"share_price must be 'PRICE,ROW,COLUMN', got {text!r}")
        price, row, column = (int(p) for p in parts)
        return cls(**base, corporation=f.str_("corporation"), price=price, row=row,
                   column=column)


def _share_corporation(share: str) -> str:
    """``"WT_1"`` -> ``"WT"``; ``"DT K&C_3"`` -> ``"DT K&C"``."""
    corporation, sep, number = share.rpartition("_")
    if not sep or not corporation or not number.isdigit():
        raise ValueError(share)
    return corporation


@dataclass(frozen=True)
class BuyShares(Action18xx):
    """(oracle) Buy share certificates (VII.6); ``shares`` are certificate ids such as
    ``WT_1`` (all of one company), ``percent`` their total."""

    TYPE: ClassVar[str] = "buy_shares"
    corporation: str
    shares: tuple[str, ...]
    percent: int
    share_price: int | None = None  # on a sale: the site pays it per share (X-19, proposed)

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        shares = f.str_list("shares")
        if not shares:
            raise f.fail("field 'shares' is empty")
        try:
            corporations = {_share_corporation(s) for s in shares}
        except ValueError as exc:
            raise f.fail(f"not a share id: {exc.args[0]!r}") from None
        if len(corporations) != 1:
            raise f.fail("shares of several companies in one action")
        return cls(**base, corporation=corporations.pop(), shares=shares,
                   percent=f.int_("percent"), share_price=f.opt_int("share_price"))


@dataclass(frozen=True)
class SellShares(BuyShares):
    """Sell share certificates (VII.4, R-SR-3; from SR2 on). Not in the oracle."""

    TYPE: ClassVar[str] = "sell_shares"


@dataclass(frozen=True)
class BuyTrain(Action18xx):
    """(oracle) A tram company buys a tram from the depot (VIII.5.3); ``train`` is the piece id
    (``O1-0``), ``variant`` the name at the price paid (``O2`` = orange in its second CR)."""

    TYPE: ClassVar[str] = "buy_train"
    train: str
    price: int
    variant: str | None = None

    @property
    def colour(self) -> str | None:
        return train_colour(self.variant or self.train)

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        action = cls(**base, train=f.str_("train"), price=f.int_("price"),
                     variant=f.opt_str("variant"))
        try:
            action.colour  # noqa: B018 - validates the train name
        except ValueError as exc:
            raise f.fail(str(exc)) from None
        return action


@dataclass(frozen=True)
class ScrapTrain(Action18xx):
    """(oracle) Scrap a tram without compensation (R-LR-8; CR tram buying or a line's run)."""

    TYPE: ClassVar[str] = "scrap_train"
    train: str

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, train=f.str_("train"))


@dataclass(frozen=True)
class Assignment:
    """One tram put on one line (or left with the company: ``corporation`` = the company)."""

    train: str
    corporation: str


@dataclass(frozen=True)
class ReassignTrains(Action18xx):
    """(oracle, also as auto action) Rearrange a company's trams over its lines."""

    TYPE: ClassVar[str] = "reassign_trains"
    assignments: tuple[Assignment, ...]

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        out = []
        for item in f.list_("assignments"):
            if not isinstance(item, dict):
                raise f.fail("an assignment must be an object")
            g = _Fields(item, f.where)
            out.append(Assignment(g.str_("train"), g.str_("corporation")))
        return cls(**base, assignments=tuple(out))


@dataclass(frozen=True)
class Merge(Action18xx):
    """(oracle) CRe: a tram company chooses the line (``corporation``) to auction (R-CR-7);
    its opening bid follows as a :class:`Bid`."""

    TYPE: ClassVar[str] = "merge"
    corporation: str

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, corporation=f.str_("corporation"))


@dataclass(frozen=True)
class LayTile(Action18xx):
    """(oracle) A line lays or upgrades a tile (IX.4/IX.5), a Stadtbahn tile or a bonus tile
    (R-LR-1); ``tile`` is the piece id (``6-0``), ``rotation`` the site's 0-5."""

    TYPE: ClassVar[str] = "lay_tile"
    hex: str
    tile: str
    rotation: int

    @property
    def tile_name(self) -> str:
        return self.tile.rpartition("-")[0] or self.tile

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        rotation = f.int_("rotation")
        if not 0 <= rotation <= 5:
            raise f.fail(f"rotation must be 0-5, got {rotation}")
        return cls(**base, hex=f.str_("hex"), tile=f.str_("tile"), rotation=rotation)


def split_city(city: str) -> tuple[str, int]:
    """``"619-1-0"`` -> (tile piece ``"619-1"``, city index 0)."""
    tile, sep, index = city.rpartition("-")
    if not sep or not tile or not index.isdigit():
        raise ValueError(f"not a city id: {city!r}")
    return tile, int(index)


@dataclass(frozen=True)
class PlaceToken(Action18xx):
    """(oracle) A line places a station marker (IX.6), or the free bonus marker (R-LR-4).
    The hex is not in the action: it is where the tile piece of ``city`` lies."""

    TYPE: ClassVar[str] = "place_token"
    city: str
    slot: int
    tokener: str | None = None

    @property
    def tile_piece(self) -> str:
        return split_city(self.city)[0]

    @property
    def city_index(self) -> int:
        return split_city(self.city)[1]

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        city = f.str_("city")
        try:
            split_city(city)
        except ValueError as exc:
            raise f.fail(str(exc)) from None
        return cls(**base, city=city, slot=f.int_("slot"), tokener=f.opt_str("tokener"))


@dataclass(frozen=True)
class RemoveToken(PlaceToken):
    """(oracle) A line removes a Stadtbahn marker for 40 (R-LR-5)."""

    TYPE: ClassVar[str] = "remove_token"


@dataclass(frozen=True)
class Route18xx:
    """One run as recorded: the train, the hexes and nodes visited, and the revenue
    **before** maintenance (interpretations.md, "Recorded runs")."""

    train: str
    hexes: tuple[str, ...]
    nodes: tuple[str, ...]
    revenue: int
    connections: tuple[tuple[str, ...], ...]
    revenue_str: str | None = None


@dataclass(frozen=True)
class RunRoutes(Action18xx):
    """(oracle, also as auto action for Stadtbahn runs) A line's tram run (IX.7) or a
    Stadtbahn company's automatic run."""

    TYPE: ClassVar[str] = "run_routes"
    routes: tuple[Route18xx, ...]

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        routes = []
        for item in f.list_("routes"):
            if not isinstance(item, dict):
                raise f.fail("a route must be an object")
            g = _Fields(item, f.where)
            connections = []
            for conn in g.list_("connections"):
                if not isinstance(conn, list) or not all(isinstance(h, str) for h in conn):
                    raise f.fail("a route connection must be a list of hexes")
                connections.append(tuple(conn))
            nodes = g.str_list("nodes") if "nodes" in item else ()
            routes.append(Route18xx(
                train=g.str_("train"), hexes=g.str_list("hexes"), nodes=nodes,
                revenue=g.int_("revenue"), connections=tuple(connections),
                revenue_str=g.opt_str("revenue_str"),
            ))
        return cls(**base, routes=tuple(routes))


@dataclass(frozen=True)
class Dividend(Action18xx):
    """(oracle) CRd: a tram company pays ``amount`` of its revenue space (``kind`` is
    ``variable`` in 1840; VIII.5.1)."""

    TYPE: ClassVar[str] = "dividend"
    kind: str
    amount: int | None = None

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, kind=f.str_("kind"), amount=f.opt_int("amount"))


@dataclass(frozen=True)
class BuyCompany(Action18xx):
    """(oracle) A line's tram company buys a private from a player (IV.2, from LR2a)."""

    TYPE: ClassVar[str] = "buy_company"
    company: str
    price: int

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, company=f.str_("company"), price=f.int_("price"))


@dataclass(frozen=True)
class SellCompany(BuyCompany):
    """A private is sold to the bank for its face value (IV.2). Not in the oracle."""

    TYPE: ClassVar[str] = "sell_company"


@dataclass(frozen=True)
class ChooseAbility(Action18xx):
    """(oracle) A private's ability; in 1840 ``{"type": "sell"}``: its owner returns it to the
    bank for its face value (IV.2).  ``entity`` is the private."""

    TYPE: ClassVar[str] = "choose_ability"
    choice: str

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        choice = f.data.get("choice")
        if isinstance(choice, dict):
            choice = choice.get("type")
        if not isinstance(choice, str) or not choice:
            raise f.fail(f"field 'choice' must name the ability, got {f.data.get('choice')!r}")
        return cls(**base, choice=choice)


@dataclass(frozen=True)
class Program(Action18xx):
    """(oracle: ``program_share_pass``) A player's automation (``program_*``), e.g. "pass in
    this share round".  No effect on replay: what it does is recorded in ``auto_actions``."""

    TYPE: ClassVar[str] = "program_*"
    program: str


@dataclass(frozen=True)
class Message(Action18xx):
    """A chat message. No game effect, never undone. Not in the oracle."""

    TYPE: ClassVar[str] = "message"
    message: str = ""

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        text = f.data.get("message", "")
        return cls(**base, message=text if isinstance(text, str) else str(text))


@dataclass(frozen=True)
class EndGame(Action18xx):
    """The game is ended early by a player or an admin: it stops where it is. Not in the
    oracle."""

    TYPE: ClassVar[str] = "end_game"


@dataclass(frozen=True)
class Undo(Action18xx):
    """(oracle) Take back the last action, or back to the action with id ``action_id``."""

    TYPE: ClassVar[str] = "undo"
    action_id: int | None = None

    @classmethod
    def _parse(cls, base: dict[str, Any], f: _Fields) -> Action18xx:
        return cls(**base, action_id=f.opt_int("action_id"))


@dataclass(frozen=True)
class Redo(Action18xx):
    """Restore what the last undo took back. Not in the oracle."""

    TYPE: ClassVar[str] = "redo"


CATALOGUE: dict[str, type[Action18xx]] = {
    cls.TYPE: cls
    for cls in (
        Bid, Pass, Choose, Par, BuyShares, SellShares, BuyTrain, ScrapTrain, ReassignTrains,
        Merge, LayTile, PlaceToken, RemoveToken, RunRoutes, Dividend, BuyCompany, SellCompany,
        ChooseAbility, Message, EndGame, Undo, Redo,
    )
}
"""Every action type an 1840 record may contain (``program_*`` types are :class:`Program`)."""

AUTO_ACTION_TYPES: frozenset[str] = frozenset({
    "run_routes", "reassign_trains", "pass", "buy_shares", "program_disable"})
"""Types 18xx.games embeds as ``auto_actions`` in 1840: Stadtbahn runs, automatic tram
assignment, and what players' programs do for them (``program_buy_shares``: a buy, or a pass;
``program_share_pass``: a pass; the site then disables a finished program:
``program_disable``), often for another player than the parent action's, several on one
parent; other types are refused there."""


def known_type(type_: str) -> bool:
    return type_ in CATALOGUE or type_.startswith("program_")


def parse_action(data: Any, where: str) -> Action18xx:
    """The typed action of one export entry; ``where`` names it in errors (``"action 12"``)."""
    if not isinstance(data, dict):
        raise ImportError18xx(f"{where}: expected an object, got {type(data).__name__}")
    type_ = data.get("type")
    if not isinstance(type_, str) or not type_:
        raise ImportError18xx(f"{where}: missing action type")
    f = _Fields(data, where)
    if type_.startswith("program_"):
        return Program(entity=f.str_("entity"), entity_type=f.str_("entity_type"),
                       program=type_[len("program_"):])
    cls = CATALOGUE.get(type_)
    if cls is None:
        raise ImportError18xx(f"{where}: unknown action type {type_!r}")
    base = {"entity": f.str_("entity"), "entity_type": f.str_("entity_type")}
    return cls._parse(base, f)
