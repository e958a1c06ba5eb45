"""A tiny two-player game used to test the core: take 1-3 counters; who takes the last wins."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tramways.core import Action, IllegalAction, NotationError, RecordError
from tramways.core.game import GameBase, GameInfo


@dataclass(frozen=True, slots=True)
class Take(Action):
    n: int


@dataclass(frozen=True, slots=True)
class ToyOutcome:
    """Who took the last counter: one point for the winner (the core's ``Outcome``)."""

    winner: int

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(int(seat == self.winner) for seat in (0, 1))

    @property
    def places(self) -> tuple[int, ...]:
        return tuple(1 if seat == self.winner else 2 for seat in (0, 1))

    @property
    def winners(self) -> tuple[int, ...]:
        return (self.winner,)

    def to_json(self) -> dict[str, int]:
        return {"winner": self.winner}


class ToyState:
    def __init__(self, counters: int) -> None:
        self.counters = counters
        self.turn = 0
        self.winner: int | None = None

    def current_players(self) -> list[int]:
        return [] if self.is_over() else [self.turn]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.is_over() or (player is not None and player != self.turn):
            return []
        return [Take(self.turn, n) for n in range(1, min(3, self.counters) + 1)]

    def seats_for(self, action: Action) -> list[int]:
        """A Take is decided by the player it names."""
        return [action.player] if action.player in (0, 1) else []

    def apply(self, action: Action, seat: int | None = None) -> list[str]:
        if not isinstance(action, Take):
            raise IllegalAction("T1", "only Take")
        if seat is not None and seat != action.player:
            raise IllegalAction("T0", f"seat {seat + 1} may not take for player {action.player + 1}")
        if action.player != self.turn:
            raise IllegalAction("T2", f"it is player {self.turn + 1}'s turn")
        if not 1 <= action.n <= min(3, self.counters):
            raise IllegalAction("T3", f"take 1 to {min(3, self.counters)}")
        self.counters -= action.n
        if self.counters == 0:
            self.winner = action.player
        self.turn = 1 - self.turn
        return [f"Player {action.player + 1} takes {action.n}"]

    def is_over(self) -> bool:
        return self.winner is not None

    def outcome(self) -> ToyOutcome:
        assert self.winner is not None
        return ToyOutcome(self.winner)

    def view(self, player: int | None) -> Any:
        return {"counters": self.counters, "turn": self.turn, "finished": self.is_over()}

    def clone(self) -> ToyState:
        other = ToyState(self.counters)
        other.turn, other.winner = self.turn, self.winner
        return other


class ToyGame(GameBase):
    name = "toy"
    version = 1
    info = GameInfo(name="toy", title="Take the last counter", players=(2,),
                    hidden_information=False, chance=False)

    def normalize_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        players = settings.get("players", 2)
        if players != 2:
            raise RecordError("toy: players must be 2")
        return {"players": 2}

    def setup(self, settings: dict[str, Any], seed: int) -> dict[str, Any]:
        return {"counters": 10 + seed % 5}

    def new_state(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> ToyState:
        return ToyState(int(setup["counters"]))

    def format_action(self, action: Action) -> str:
        assert isinstance(action, Take)
        return f"P{action.player + 1} take {action.n}"

    def parse_action(self, text: str) -> Action:
        m = re.fullmatch(r"P(\d) take (\d+)", text.strip())
        if not m:
            raise NotationError(f"not a toy action: {text!r}")
        return Take(int(m.group(1)) - 1, int(m.group(2)))

    def player_names(self, settings: dict[str, Any]) -> list[str]:
        return ["Ann", "Bob"]


GAME = ToyGame()
