"""The undo policy, shared by every user interface (the server, the terminal duel).

A seat may take back its own most recent actions as long as no other seat has acted since
and no hidden information has been revealed since (a card drawn, a reshuffle).  An action
that reveals hidden information can itself never be taken back: its outcome is known.

The game tells the core what reveals: a game object may define
``reveals(state, action) -> bool``, asked with the state *before* the action is applied.
A game without the hook (1840: everything is public) never reveals anything.  The action
that ends a game counts as revealing too (the record, seed and deck included, becomes
public then), so a UI marks it so: ``reveals(...) or state_after.is_over()``.

The policy is pure: it looks only at the list of :class:`Played` entries (who acted, and
whether that revealed anything), which a UI keeps beside the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction

UNDO_RULE = "undo"
"""The rule id named by a refused undo (the project's undo policy, not a rulebook section)."""


@dataclass(frozen=True, slots=True)
class Played:
    """One action of the record as the undo policy sees it."""

    seat: int | None
    """The acting seat (0-based), or ``None`` if the action belongs to nobody's hand."""
    reveals: bool
    """Whether applying it revealed hidden information (a draw, a reshuffle)."""


def reveals(game: Any, state: Any, action: Action) -> bool:
    """Whether ``action``, applied to ``state``, reveals hidden information (the game's hook)."""
    return bool(game.reveals(state, action))


def undoable(history: Sequence[Played], seat: int) -> int:
    """How many of the last actions ``seat`` may take back now (0 if none)."""
    count = 0
    for played in reversed(history):
        if played.seat != seat or played.reveals:
            break
        count += 1
    return count


def check_undo(history: Sequence[Played], seat: int, count: int = 1) -> None:
    """Raise ``IllegalAction`` unless ``seat`` may take back its last ``count`` actions."""
    if count < 1:
        raise IllegalAction(UNDO_RULE, "take back at least one action")
    allowed = undoable(history, seat)
    if count <= allowed:
        return
    if not history:
        raise IllegalAction(UNDO_RULE, "nothing has been played yet")
    if allowed == 0:
        last = history[-1]
        if last.seat != seat:
            raise IllegalAction(UNDO_RULE, "another player has acted since your last action")
        raise IllegalAction(
            UNDO_RULE, "hidden information has been revealed since (a card drawn or a reshuffle)"
        )
    raise IllegalAction(UNDO_RULE, f"only your last {allowed} action(s) may be taken back")


def played_history(record: Any) -> list[Played]:
    """The undo policy's view of a whole record (a :class:`GameRecord`), by replaying it.

    For a UI that keeps no history beside the record (the terminal duel resuming a saved
    game): each action's seat is the single seat the engine names for it
    (``state.seats_for``), and it reveals as :func:`reveals` says, or when it ended the game.
    """
    from tramways.core.replay import Session

    session = Session.from_record(record, upto=0)
    out: list[Played] = []
    for text in record.actions:
        action = session.parse(text)
        seats = session.state.seats_for(action)
        seat = seats[0] if len(seats) == 1 else None
        revealing = reveals(session.game, session.state, action)
        session.play(action, seat)
        out.append(Played(seat, revealing or session.state.is_over()))
    return out
