"""Replay: state as a pure function of the record; undo as replay of a prefix.

:class:`Session` bundles a record with its current state, so that applying an action both
advances the state and appends to the record (saving is appending).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction, NotationError, RecordError
from tramways.core.game import Game, GameState, settings_for_new_game
from tramways.core.record import GameRecord


def _game_for(record: GameRecord) -> Game:
    from tramways.games import get_game

    game = get_game(record.game)
    if record.version != game.version:
        raise RecordError(
            f"record: version {record.version} of {record.game!r} is not supported "
            f"(this engine reads version {game.version})"
        )
    return game


def replay(record: GameRecord, upto: int | None = None) -> tuple[GameState, list[str]]:
    """Replay ``record`` (its first ``upto`` actions) and return the state and the log.

    A record whose action fails to parse or is refused raises ``RecordError`` naming the
    action's index and the rule.
    """
    session = Session.from_record(record, upto=upto)
    return session.state, session.log


@dataclass
class Session:
    """A record and the state it replays to."""

    game: Game
    record: GameRecord
    state: GameState
    log: list[str] = field(default_factory=list)

    @classmethod
    def new(cls, game_name: str, settings: dict, seed: int, meta: dict | None = None) -> Session:
        from tramways.games import get_game

        game = get_game(game_name)
        settings = settings_for_new_game(game, dict(settings))  # 1840: the newest edition
        setup = game.setup(settings, seed)
        record = GameRecord(
            game=game.name,
            version=game.version,
            settings=settings,
            seed=seed,
            setup=setup,
            actions=[],
            meta=dict(meta or {}),
        )
        return cls.from_record(record)

    @classmethod
    def from_record(cls, record: GameRecord, upto: int | None = None) -> Session:
        game = _game_for(record)
        settings = game.normalize_settings(dict(record.settings))
        state = game.new_state(settings, record.setup, record.seed)
        actions = record.actions if upto is None else record.actions[:upto]
        log: list[str] = []
        for index, text in enumerate(actions):
            try:
                action = game.parse_action(text)
                log.extend(state.apply(action))
            except NotationError as exc:
                raise RecordError(f"action {index} {text!r}: {exc}") from None
            except IllegalAction as exc:
                raise RecordError(f"action {index} {text!r} is illegal: {exc}") from None
        kept = record.model_copy(update={"actions": list(actions)})
        return cls(game=game, record=kept, state=state, log=log)

    def parse(self, text: str) -> Action:
        return self.game.parse_action(text)

    def play(self, action: Action | str, seat: int | None = None) -> list[str]:
        """Apply an action (or its notation) played by ``seat`` and append it to the record.

        ``seat=None`` infers the seat: the single seat that may play this action
        (``state.seats_for``); with none the engine refuses it naming its rule, with more than
        one it is refused asking for the seat.  A server always passes the seat.
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if seat is None:
            seats = self.state.seats_for(action)
            if len(seats) > 1:
                names = ", ".join(str(s + 1) for s in seats)
                raise IllegalAction("seat", f"{self.game.format_action(action)!r} may be played "
                                            f"by seats {names}: name the seat")
            # one seat: that one; none: the engine refuses it, naming the rule
            seat = seats[0] if seats else None
        lines = self.state.apply(action, seat)
        self.record.actions.append(self.game.format_action(action))
        self.log.extend(lines)
        return lines

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` actions by replaying the shorter record."""
        if n < 0 or n > len(self.record.actions):
            raise RecordError(f"cannot undo {n} of {len(self.record.actions)} actions")
        again = Session.from_record(self.record, upto=len(self.record.actions) - n)
        self.record, self.state, self.log = again.record, again.state, again.log

    def legal_notation(self, player: int | None = None) -> list[str]:
        return [self.game.format_action(a) for a in self.state.legal_actions(player)]
