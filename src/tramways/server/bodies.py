"""The bodies clients send, as pydantic models: the API validates them, and the pages post
the same models from their forms (``web/pages.py``), so both refuse the same things alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field, JsonValue, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from tramways.bots import bot_names
from tramways.core import TramwaysError
from tramways.core.game import settings_for_new_game
from tramways.games import game_names, get_game
from tramways.server.errors import ApiError
from tramways.server.text import TextRefused, clean_name


def _seat_kinds() -> list[JsonValue]:
    bots = sorted({b for g in game_names() for b in bot_names(g)})
    return ["human", *(f"bot:{b}" for b in bots)]


def _game_names() -> list[JsonValue]:
    return list(game_names())


MAX_SEATS = 6

BODY_ERRORS = frozenset({"bad_game", "bad_seats", "bad_names", "bad_settings", "bad_seed",
                         "bad_pace", "bad_table"})
"""The codes of a new game's refusals (422 ``{"error": CODE, "message"}``, as every refusal
of the service)."""

SETTINGS_FAILURES = (TramwaysError, TypeError, ValueError, KeyError, AttributeError)
"""What a game's settings code raises for settings it cannot use: settings are any JSON, so a
wrong type is the client's mistake, never a 500."""


def _refuse(code: str, message: str) -> PydanticCustomError:
    """A refusal of the body with the service's code (the message is context, so that braces
    in it are never read as a template)."""
    return PydanticCustomError(code, "{message}", {"message": message})


OnDeadline = Literal["nothing", "remind", "bot_move", "hand_over"]
"""What a paced seat's deadline does (docs/async.md)."""

OnResign = Literal["bot", "end"]
"""What a resignation does (docs/async.md): the seat goes to the computer, or the game ends."""

MAX_PACE_MINUTES = 24 * 60
MAX_PACE_HOURS = 30 * 24


class PaceChoice(BaseModel):
    """A new game's pace, as the lobby's form and ``POST /api/lobby`` send it (docs/accounts.md,
    docs/async.md): ``none``; ``live``, minutes per move (1 to 1,440); ``async``
    (over days), hours per move (1 to 720); what the deadline does; the bot that stands in
    (``bot_move``, ``hand_over``).  Checked as a whole (``bad_pace``) by :meth:`pace_of`
    once the game is known."""

    pace: Literal["none", "live", "async"] = Field(
        default="none", description="none, live (minutes per move) or async (hours per move)")
    minutes: int | None = Field(default=None, description="live: minutes per move")
    hours: int | None = Field(default=None, description="async: hours per move (24)")
    on_deadline: OnDeadline = "remind"
    bot: str = Field(default="bot:rule", max_length=32,
                     description="who stands in at the deadline: a bot of the game")
    on_resign: OnResign = Field(default="bot", description="what a resignation does, with "
                                "any pace: bot (the computer plays the seat to the end) or "
                                "end (the game ends at once, the resigner placed last)")

    def pace_seconds(self) -> int | None:
        """Seconds per move (``None``: no pace)."""
        if self.pace == "live":
            if self.minutes is None or not 1 <= self.minutes <= MAX_PACE_MINUTES:
                raise _refuse("bad_pace", f"a live pace is 1 to {MAX_PACE_MINUTES} minutes a move")
            return self.minutes * 60
        if self.pace == "async":
            if self.hours is None or not 1 <= self.hours <= MAX_PACE_HOURS:
                raise _refuse("bad_pace", f"a pace over days is 1 to {MAX_PACE_HOURS} hours a move")
            return self.hours * 3600
        return None

    def check_bot(self, game: str) -> None:
        """The stand-in is a bot of ``game`` (``bad_pace``)."""
        bots = bot_names(game) if game in game_names() else []
        if self.pace != "none" and (not self.bot.startswith("bot:")
                                    or self.bot.removeprefix("bot:") not in bots):
            raise _refuse("bad_pace", "the stand-in is one of "
                          + ", ".join(f"bot:{b}" for b in bots))


class NewGame(BaseModel):
    """A new game: its kind, settings, seats and names; validated as a whole (game kind, seat
    kinds, names through :func:`tramways.server.text.clean_name`, ``settings.names`` alike,
    and the settings as the game normalises them: 1840's map, ruleset and edition).  After
    validation ``settings`` are the game's normalised settings, with the names shown at the
    table, and ``names`` the cleaned names."""

    game: str = Field(examples=["trambahn"], json_schema_extra={"enum": _game_names()})
    settings: dict[str, Any] = Field(default_factory=dict)
    seats: list[str] = Field(
        min_length=1, max_length=MAX_SEATS,
        description="'human' or a bot of the game ('bot:easy', 'bot:normal', 'bot:strong', "
                    "'bot:random', 'bot:rule', 'bot:search')",
        examples=[["human", "bot:rule"]],
        json_schema_extra={"items": {"type": "string", "enum": _seat_kinds()}},
    )
    names: list[str | None] | None = Field(default=None, description="optional name per seat")
    pace: PaceChoice | None = Field(default=None, description="the game's pace (docs/async.md); "
                                    "none: the game waits as long as it takes")
    seed: int | None = Field(
        default=None, ge=0, le=2**63 - 1, examples=[7],
        description="fixes the set-up of a game without hidden cards (1840: the same seed and "
                    "settings, the same private deal), as the new-game form's seed does; a game "
                    "with hidden cards (Trambahn) refuses it (`bad_seed`): its deal stays secret")

    @model_validator(mode="after")
    def _whole(self) -> NewGame:
        """The checks, in order: the game (``bad_game``), the number of names and the seat
        kinds (``bad_names``, ``bad_seats``), the names, the settings, then the seed
        (``bad_seed``) and the pace."""
        if self.game not in game_names():
            raise _refuse("bad_game", f"unknown game {self.game!r} ({', '.join(game_names())})")
        if len(self.names or []) > len(self.seats):
            raise _refuse("bad_names", "more names than seats")
        self._check_seats()
        names = self._clean_names()
        self.names = [*names, *[None] * (len(self.seats) - len(names))]
        self.settings = self._game_settings()
        if self.seed is not None and get_game(self.game).info.hidden_information:
            raise _refuse("bad_seed", f"a game of {self.game} draws its own seed: "
                                      "its cards are hidden")
        if self.pace is not None:
            self.pace.pace_seconds()
            self.pace.check_bot(self.game)
        return self

    def _check_seats(self) -> None:
        bots = bot_names(self.game)
        for kind in self.seats:
            if kind != "human" and (not kind.startswith("bot:")
                                    or kind.removeprefix("bot:") not in bots):
                choices = ", ".join(f"bot:{b}" for b in bots)
                raise _refuse("bad_seats", f"a seat is 'human' or one of {choices}, not {kind!r}")

    def _clean_names(self) -> list[str | None]:
        """The seat names and ``settings.names``, cleaned (``bad_names``)."""
        try:
            cleaned = [clean_name(name) for name in self.names or []]
            if "names" in self.settings:  # the settings' names obey the same rules
                given = self.settings["names"]
                if not isinstance(given, list) or len(given) > MAX_SEATS:
                    raise TextRefused(f"settings.names is a list of at most {MAX_SEATS} names")
                self.settings = {**self.settings, "names": [clean_name(n) for n in given]}
                if not all(self.settings["names"]):
                    raise TextRefused("settings.names holds an empty name")
        except TextRefused as exc:
            raise _refuse("bad_names", str(exc)) from None
        return cleaned

    def _game_settings(self) -> dict[str, Any]:
        """The settings as the game normalises them, the seats' names among them
        (``bad_settings``; ``bad_seats`` when the players are not the seats)."""
        game = get_game(self.game)
        settings = {"players": len(self.seats), **self.settings}
        if self.game == "1840":  # played over days: programmed actions (docs/async.md)
            settings.setdefault("programs", True)
        names = self.names or []
        if any(names) and "names" not in settings:
            try:
                defaults = list(game.player_names(game.normalize_settings(dict(settings))))
            except SETTINGS_FAILURES as exc:
                raise _refuse("bad_settings", str(exc)) from None
            if len(defaults) != len(self.seats):
                defaults = [f"P{i + 1}" for i in range(len(self.seats))]
            settings["names"] = [c or d for c, d in zip(names, defaults, strict=True)]
        try:
            settings = settings_for_new_game(game, settings)  # 1840: the newest rulings edition
        except SETTINGS_FAILURES as exc:
            raise _refuse("bad_settings", str(exc) or type(exc).__name__) from None
        players = settings.get("players", len(self.seats))
        if players != len(self.seats):
            raise _refuse("bad_seats", f"{players} players need {players} seats")
        return settings

    @classmethod
    def checked(cls, **fields: Any) -> NewGame:
        """The body validated, as the API validates it; a refusal as the API's
        :class:`~tramways.server.errors.ApiError` (for callers without FastAPI: the pages'
        form, the tests)."""
        try:
            return cls(**fields)
        except ValidationError as exc:
            raise refusal(exc) from None


def refusal(exc: ValidationError | Sequence[Any]) -> ApiError:
    """The refusal of a body that does not validate: a new game's own checks keep their code
    (``bad_seats``, ...); anything else is 422 ``bad_request`` naming the place."""
    errors = list(exc.errors() if isinstance(exc, ValidationError) else exc)
    first = errors[0] if errors else {"loc": (), "msg": "invalid request", "type": ""}
    if first.get("type") in BODY_ERRORS:
        return ApiError(422, str(first["type"]), str(first.get("msg", "")))
    detail = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")),
               "type": str(e.get("type", ""))} for e in errors]
    return ApiError(422, "bad_request",
                    f"{'.'.join(str(p) for p in first.get('loc', ()))}: {first.get('msg', '')}",
                    detail=detail)


class Move(BaseModel):
    n: int = Field(ge=0, description="the number of moves played so far, as the client saw it")
    action: str = Field(min_length=1, max_length=500, examples=["P1 passenger 7r"])


class Undo(BaseModel):
    n: int = Field(ge=0, description="the number of moves played so far, as the client saw it")
    count: int = Field(default=1, ge=1, le=100, description="how many of your moves to take back")


class Notify(BaseModel):
    email: str | None = Field(default=None, max_length=254,
                              description="this seat's address for 'your turn' e-mails; "
                              "null or empty: none")
    webhook: str | None = Field(default=None, max_length=2000,
                                description="the game's webhook (a chat server's incoming "
                                "URL; public addresses only); null or empty: none")
    lang: str | None = Field(default=None, max_length=8,
                             description="the language of the messages (en, de, ru, es); "
                             "default: the request's Accept-Language")


class Mine(BaseModel):
    tokens: list[str] = Field(max_length=200)


