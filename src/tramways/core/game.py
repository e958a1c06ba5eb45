"""The contract every game plugs into.

A :class:`Game` describes a game (its name, record version, settings, set-up and action
notation); a :class:`GameState` is one position of it.  State is a pure function of the
record: ``game.new_state(settings, setup)`` followed by ``apply`` of every action.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tramways.core.actions import Action

JSON = Any
"""A JSON-compatible value (dict / list / str / int / bool / None)."""


@runtime_checkable
class View(Protocol):
    """What a player may know of a position, typed per game (1840's
    :class:`~tramways.g1840.view_types.View1840`, Trambahn's
    :class:`~tramways.trambahn.view_types.TrambahnView`): consumers read its attributes; only
    the wire (the server, ``tramways show --json``) needs its JSON."""

    def to_json(self) -> JSON:
        """The view as JSON: the one place it is serialised."""
        ...


def view_json(view: View | JSON) -> JSON:
    """The JSON of a view returned by ``GameState.view``: a typed :class:`View`'s
    ``to_json()``; a view that is JSON already (a game without view types, such as the
    tests' toy game) as it is."""
    return view.to_json() if isinstance(view, View) else view


@runtime_checkable
class Outcome(Protocol):
    """A finished game's result as every consumer reads it, whatever the game: per seat the
    figure the ranking reads (``scores``) and the place it gives (``places``), and the
    ``winners``.  Each game's result is a frozen dataclass with its own figures besides
    (1840's :class:`~tramways.g1840.view_types.Result`: wealth, XI / R-END-1; Trambahn's
    :class:`~tramways.trambahn.view_types.TrambahnResult`: points and the money tie-break,
    T-R-4); only the wire and the records need its JSON (``to_json()``)."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, the figure the game ranks by (1840: wealth; Trambahn: points)."""
        ...

    @property
    def places(self) -> tuple[int, ...]:
        """Per seat, its 1-based place; seats the game does not tell apart share a place and
        the next place is skipped (``(1, 1, 3)``)."""
        ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place (more than one: a shared win or a draw)."""
        ...

    def to_json(self) -> JSON:
        """The result as JSON (records, ``tramways selfplay --json``): the one place it is
        made."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One position of a game.

    **Seats and authority.** Every action is played *by a seat* (a 0-based player index), and
    the engine itself checks that this seat may play it, not the caller:

    * ``legal_actions(seat)`` lists exactly what ``seat`` may do now (on its turn, and what
      the rules allow it "at any time" on anybody's turn), and nothing of anybody else's.
      ``legal_actions(None)`` lists the actions of the seats in ``current_players()``.
    * ``apply(action, seat)`` plays ``action`` for ``seat``; an action ``seat`` has no authority
      over (another player's action; in 1840 a company's or a line's action from a player who
      does not direct that company, IV.1.2) is refused with an ``IllegalAction`` naming the rule.
      ``seat=None`` means "the single seat that decides this action" (``seats_for``), used when
      replaying a record, whose notation names the player or the company but not the seat; an
      action no seat may decide (a company not in the game, a line nobody owns) is refused.
    * ``seats_for(action)`` lists the seats that may decide ``action``: the seats ``apply`` would
      not refuse for lack of authority (in both games at most one: the player an action names,
      or the director of the company or line it names). The action may still be illegal now
      for other reasons. Callers that must infer a seat (``Session.play(action)``, the CLI
      without ``--as``) use it and refuse unless it names exactly one seat.

    The contract tested for every game: for every position, an action is accepted from seat
    ``s`` exactly when it is in ``legal_actions(s)`` (for parameterised actions, such as a
    claimed route, an equivalent exact check); so the union of ``legal_actions(s)`` over the
    seats is what the engine accepts.  The one exception is a resignation
    (``Action.resigns``, ``Game.resignation(seat)``): never listed, so that no computer player
    chooses it, and accepted from the seat it names whenever the game is not over.

    ``apply`` validates first and mutates only if the action is legal: an
    :class:`~tramways.core.errors.IllegalAction` leaves the state untouched.
    """

    def current_players(self) -> list[int]:
        """Seats whose turn it is (empty when the game is over)."""
        ...

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action of seat ``player`` now (``None``: of every current player)."""
        ...

    def seats_for(self, action: Action) -> list[int]:
        """The seats that have authority to play ``action`` (see the class docstring)."""
        ...

    def apply(self, action: Action, seat: int | None = None) -> list[str]:
        """Apply a legal action played by ``seat``; return the log lines it produced."""
        ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome:
        """The final result (an :class:`Outcome`; its JSON: ``to_json()``); only meaningful
        once ``is_over()``."""
        ...

    def view(self, player: int | None) -> View:
        """What ``player`` may know (a :class:`View`; serialise it with :func:`view_json`);
        ``None`` is the spectator view."""
        ...

    def clone(self) -> GameState: ...


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself, so that no caller has to probe it.

    Hosts read it to decide what they may show (``hidden_information``), whether a chosen
    seed is allowed, and how many seats a game takes (``players``)."""

    name: str
    """The registry name (``"1840"``, ``"trambahn"``)."""
    title: str
    """The name people know it by."""
    players: tuple[int, ...]
    """The player counts it can be played with (self-play draws from them)."""
    hidden_information: bool
    """Whether its record (seed, set-up, every action) holds what some player may not see
    until the game is over (cards in hands, a deck's order). See
    :mod:`tramways.core.visibility`."""
    chance: bool
    """Whether random events happen during play, after the set-up (drawn from the seed with
    :func:`tramways.core.rng.derive_rng`)."""


@runtime_checkable
class Game(Protocol):
    """A game: name, record format version, settings, set-up and notation.

    Beside the required methods, every game answers the hooks of :class:`GameBase` (a game
    class inherits it and overrides what it needs), so hosts call them without probing."""

    name: str
    version: int
    info: GameInfo

    def normalize_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Validate settings and fill defaults; raise ``RecordError`` when they are bad."""
        ...

    def setup(self, settings: dict[str, Any], seed: int) -> dict[str, Any]:
        """Draw every random set-up outcome from ``seed`` (JSON-compatible)."""
        ...

    def new_state(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> GameState:
        """The initial state for these settings and set-up."""
        ...

    def format_action(self, action: Action) -> str: ...

    def parse_action(self, text: str) -> Action:
        """Parse notation; raise ``NotationError`` for text that is no action."""
        ...

    def player_names(self, settings: dict[str, Any]) -> Sequence[str]: ...

    def new_game_settings(self) -> dict[str, Any]: ...

    def text_view(self, view: Any) -> str: ...

    def public_notation(self, action: Action, viewer: int | None) -> str: ...

    def reveals(self, state: Any, action: Action) -> bool: ...

    def selfplay_policy(self, state: Any, player: int, rng: random.Random) -> Action: ...

    def check_invariants(self, state: Any) -> None: ...

    def opening_log(self, state: Any) -> list[str]: ...

    def resignation(self, seat: int) -> Action | None: ...


class GameBase:
    """The hooks every game answers, with the answers of a game that needs none of them.

    A game class inherits this and overrides what applies to it; hosts (the CLI, the server,
    the environments, self-play) call the hooks directly."""

    def new_game_settings(self) -> dict[str, Any]:
        """Settings every new game starts from, under the ones given (never applied to a
        replayed record, which keeps what it states); none by default."""
        return {}

    def text_view(self, view: Any) -> str:
        """A view as text for ``tramways show``; by default its JSON."""
        return json.dumps(view_json(view), indent=2, default=str)

    def public_notation(self, action: Action, viewer: int | None) -> str:
        """The notation of ``action`` as ``viewer`` (0-based seat, ``None``: a spectator) may
        read it; a game with hidden information redacts what the viewer may not know."""
        return str(self.format_action(action))  # type: ignore[attr-defined]

    def reveals(self, state: Any, action: Action) -> bool:
        """Whether ``action`` on ``state`` reveals hidden information (it can then never be
        taken back: :mod:`tramways.core.undo`); nothing does by default."""
        return False

    def selfplay_policy(self, state: Any, player: int, rng: random.Random) -> Action:
        """The action of ``player`` in random self-play (``tramways selfplay``); by default a
        uniformly random legal one."""
        return rng.choice(state.legal_actions(player))

    def check_invariants(self, state: Any) -> None:
        """Raise on a broken invariant (``tramways selfplay --check`` calls it after every
        action); a game with none to check passes."""

    def opening_log(self, state: Any) -> list[str]:
        """The log lines of a new game's set-up, before any action (``tramways log``)."""
        return []

    def resignation(self, seat: int) -> Action | None:
        """The action by which ``seat`` (0-based) resigns and ends the game
        (``Action.resigns``; see :class:`GameState` on why no ``legal_actions`` lists it);
        ``None``: the game has none."""
        return None


def settings_for_new_game(game: Game, settings: dict[str, Any]) -> dict[str, Any]:
    """The normalised settings of a new game: what the game says every new game starts from
    (``new_game_settings()``, e.g. 1840's newest rulings edition, R-VERSION-1) under the ones
    given.  Everything that starts a game (a session, a server, an environment) goes through
    here; a replayed record never does, so it keeps what it states."""
    return game.normalize_settings({**game.new_game_settings(), **settings})
