"""The contract every game plugs into.

A :class:`Game` describes a game (its name, record version, settings, set-up and action
notation); a :class:`GameState` is one position of it.  State is a pure function of the
record: ``game.new_state(settings, setup)`` followed by ``apply`` of every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from tramways.core.actions import Action

JSON = Any
"""A JSON-compatible value (dict / list / str / int / bool / None)."""


@runtime_checkable
class GameState(Protocol):
    """One position of a game.

    ``apply`` validates first and mutates only if the action is legal: an
    :class:`~tramways.core.errors.IllegalAction` leaves the state untouched.
    """

    def current_players(self) -> list[int]:
        """Seats that may act now (empty when the game is over)."""
        ...

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action now, of ``player`` (or of every current player)."""
        ...

    def apply(self, action: Action) -> list[str]:
        """Apply a legal action; return the log lines it produced."""
        ...

    def is_over(self) -> bool: ...

    def result(self) -> JSON:
        """The final result (JSON-compatible); only meaningful once ``is_over()``."""
        ...

    def view(self, player: int | None) -> JSON:
        """What ``player`` may know, as JSON; ``None`` is the spectator view."""
        ...

    def clone(self) -> GameState: ...


@runtime_checkable
class Game(Protocol):
    """A game: name, record format version, settings, set-up and notation."""

    name: str
    version: int

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

    # Optional: ``new_game_settings() -> dict`` (settings every new game starts from, under
    # the ones given; never applied to a replayed record), ``text_view(view) -> str`` (for
    # ``tramways show``), ``selfplay_policy(state, player, rng)``, ``selfplay_players`` and
    # ``check_invariants(state)`` (raises on a broken invariant; ``tramways selfplay --check``
    # calls it after every action).
