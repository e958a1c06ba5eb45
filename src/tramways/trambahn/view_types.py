"""The shape of a Trambahn view: frozen dataclasses, and their one JSON form.

A seat sees its own hand, everything face up (the passenger rows, both players' columns and
their trams, the tram display and stack, the scores and every scoring so far) and only the
sizes of the hidden piles (the other hand, the draw and discard piles, both money piles:
money faces are hidden from everybody, T-R-6).  A spectator (``you`` None) sees no hand.

``to_json`` is the JSON the server and ``tramways show --json`` send; ``from_json`` reads it
back unchanged.  Cards are named by their faces (``"7r"``, ``"C"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from tramways.core.game import View

JSONObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ColumnView:
    """One route of a player (T-FACT-2): its stations in ascending value, the conductors beside
    it, its tram, whether it had its Extra Tour (T-R-3), its points and the tram's
    multiplier."""

    colour: str
    stations: tuple[str, ...]
    conductors: tuple[str, ...]
    tram: str | None
    extra_tour: bool
    points: int
    multiplier: int

    def to_json(self) -> JSONObject:
        return {"colour": self.colour, "stations": list(self.stations),
                "conductors": list(self.conductors), "tram": self.tram,
                "extra_tour": self.extra_tour, "points": self.points,
                "multiplier": self.multiplier}

    @classmethod
    def from_json(cls, d: JSONObject) -> ColumnView:
        return cls(colour=d["colour"], stations=tuple(d["stations"]),
                   conductors=tuple(d["conductors"]), tram=d["tram"],
                   extra_tour=d["extra_tour"], points=d["points"], multiplier=d["multiplier"])


@dataclass(frozen=True, slots=True)
class ScoringView:
    """One scoring: a regular one of a row's colour (T-R-2: ``number``, each player's
    ``columns`` scores) or an Extra Tour (T-R-3: the ``player`` and their ``column``)."""

    kind: str  # "regular" or "extra"
    colour: str
    turn: int
    points: tuple[int, ...]  # per player
    number: int | None = None  # regular: the how-manieth regular scoring
    columns: tuple[tuple[int, ...], ...] | None = None  # regular: each column's score
    player: int | None = None  # extra
    column: int | None = None  # extra: the column's index

    def to_json(self) -> JSONObject:
        if self.kind == "regular":
            return {"kind": "regular", "number": self.number, "colour": self.colour,
                    "turn": self.turn,
                    "columns": [list(c) for c in self.columns or ()],
                    "points": list(self.points)}
        return {"kind": self.kind, "player": self.player, "colour": self.colour,
                "turn": self.turn, "column": self.column, "points": list(self.points)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ScoringView:
        columns = d.get("columns")
        return cls(kind=d["kind"], colour=d["colour"], turn=d["turn"],
                   points=tuple(d["points"]), number=d.get("number"),
                   columns=tuple(tuple(c) for c in columns) if columns is not None else None,
                   player=d.get("player"), column=d.get("column"))


class TrambahnResultJSON(TypedDict):
    """The JSON of a :class:`TrambahnResult` (``TrambahnState.outcome().to_json()``, also
    ``TrambahnState.result()``)."""

    scores: list[int]
    regular: list[int]
    extra_tours: list[int]
    money: list[int]
    winner: int | None
    regular_scorings: int
    reason: str
    resigned: NotRequired[int]


@dataclass(frozen=True, slots=True)
class TrambahnResult:
    """The final result (T-R-4): scores, their regular and Extra Tour parts, the money piles'
    sizes (the tie-break), the winner (a seat, None: a draw), the reason the game ended; the
    core's :class:`~tramways.core.game.Outcome` (``places`` and ``winners`` from ``winner``)."""

    scores: tuple[int, ...]
    regular: tuple[int, ...]
    extra_tours: tuple[int, ...]
    money: tuple[int, ...]
    winner: int | None
    regular_scorings: int
    reason: str
    resigned: int | None = None
    """The player whose resignation ended the game (placed second), if one did."""

    @property
    def places(self) -> tuple[int, ...]:
        """T-R-4: the winner first, the other second; a draw (equal points and money) shares
        the first place."""
        if self.winner is None:
            return tuple(1 for _ in self.scores)
        return tuple(1 if seat == self.winner else 2 for seat in range(len(self.scores)))

    @property
    def winners(self) -> tuple[int, ...]:
        """The winner; both seats after a draw."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_json(self) -> TrambahnResultJSON:
        out: TrambahnResultJSON = {
            "scores": list(self.scores), "regular": list(self.regular),
            "extra_tours": list(self.extra_tours), "money": list(self.money),
            "winner": self.winner, "regular_scorings": self.regular_scorings,
            "reason": self.reason}
        if self.resigned is not None:
            out["resigned"] = self.resigned
        return out

    @classmethod
    def from_json(cls, d: JSONObject) -> TrambahnResult:
        return cls(scores=tuple(d["scores"]), regular=tuple(d["regular"]),
                   extra_tours=tuple(d["extra_tours"]), money=tuple(d["money"]),
                   winner=d["winner"], regular_scorings=d["regular_scorings"],
                   reason=d["reason"], resigned=d.get("resigned"))


@dataclass(frozen=True, slots=True)
class TrambahnView:
    """What seat ``you`` may know (None: a spectator)."""

    you: int | None
    names: tuple[str, ...]
    turn: int  # the seat in turn
    turn_number: int
    step: int  # the step of the turn (1-4)
    passengers_placed: int
    hand: tuple[str, ...] | None  # the own hand, sorted by colour and value; None: spectator
    hand_sizes: tuple[int, ...]
    money_sizes: tuple[int, ...]
    deck_size: int
    discard_size: int
    rows: Mapping[str, tuple[str, ...]]  # passenger rows by colour
    columns: tuple[tuple[ColumnView, ...], ...]  # per player
    display: tuple[str, ...]  # the tram display
    stack: tuple[str, ...]  # the tram stack, top first
    scores: tuple[int, ...]
    regular_scorings: int
    history: tuple[ScoringView, ...]
    reshuffles: int
    over: bool
    end_reason: str
    result: TrambahnResult | None  # once over

    def to_json(self) -> JSONObject:
        """The JSON the server and ``tramways show --json`` send (the one place it is made)."""
        out: JSONObject = {
            "game": "trambahn",
            "you": self.you,
            "names": list(self.names),
            "turn": self.turn,
            "turn_number": self.turn_number,
            "step": self.step,
            "passengers_placed": self.passengers_placed,
            "hand": list(self.hand) if self.hand is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "money_sizes": list(self.money_sizes),
            "deck_size": self.deck_size,
            "discard_size": self.discard_size,
            "rows": {c: list(row) for c, row in self.rows.items()},
            "columns": [[col.to_json() for col in cols] for cols in self.columns],
            "display": list(self.display),
            "stack": list(self.stack),
            "scores": list(self.scores),
            "regular_scorings": self.regular_scorings,
            "history": [h.to_json() for h in self.history],
            "reshuffles": self.reshuffles,
            "over": self.over,
            "end_reason": self.end_reason,
        }
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    @classmethod
    def from_json(cls, d: JSONObject) -> TrambahnView:
        """The view back from its JSON."""
        hand = d["hand"]
        result = d.get("result")
        return cls(
            you=d["you"], names=tuple(d["names"]), turn=d["turn"],
            turn_number=d["turn_number"], step=d["step"],
            passengers_placed=d["passengers_placed"],
            hand=tuple(hand) if hand is not None else None,
            hand_sizes=tuple(d["hand_sizes"]), money_sizes=tuple(d["money_sizes"]),
            deck_size=d["deck_size"], discard_size=d["discard_size"],
            rows={c: tuple(row) for c, row in d["rows"].items()},
            columns=tuple(tuple(ColumnView.from_json(c) for c in cols)
                          for cols in d["columns"]),
            display=tuple(d["display"]), stack=tuple(d["stack"]), scores=tuple(d["scores"]),
            regular_scorings=d["regular_scorings"],
            history=tuple(ScoringView.from_json(h) for h in d["history"]),
            reshuffles=d["reshuffles"], over=d["over"], end_reason=d["end_reason"],
            result=TrambahnResult.from_json(result) if result else None)


def as_trambahn_view(view: TrambahnView | Mapping[str, Any] | View) -> TrambahnView:
    """The typed view of ``view``, or of its JSON (what the service sends): the one door
    through which a JSON view becomes typed again.  A view of another game is a
    ``TypeError``."""
    if isinstance(view, TrambahnView):
        return view
    if isinstance(view, Mapping):
        return TrambahnView.from_json(dict(view))
    raise TypeError(f"not a Trambahn view: {type(view).__name__}")


__all__ = ["ColumnView", "ScoringView", "TrambahnResult", "TrambahnResultJSON", "TrambahnView",
           "as_trambahn_view"]
