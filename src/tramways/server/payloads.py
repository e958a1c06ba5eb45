"""What one viewer of a game is sent: the payload of a position, built from views only.

Everything here comes from ``state.view(player)``, the legal notations of that player, and
the public log (engine log lines and redacted notation,
:func:`tramways.core.visibility.public_notation`).  A payload may carry only what is new
after a ``cursor`` the client holds (:func:`cursor`, :func:`delta`).
"""

from __future__ import annotations

import re
from typing import Any

from tramways.core.game import view_json
from tramways.core.undo import undoable
from tramways.core.visibility import public_notation, record_is_public
from tramways.server.errors import ApiError
from tramways.server.history import History
from tramways.server.positions import Live, status
from tramways.server.rows import SeatRow


def cursor(live: Live) -> str:
    """What a payload of ``live`` holds, as ``REV.N.LOG``: its revision, its number of moves
    and of log lines.  A client sends it back as ``since`` to be sent only what is new."""
    return f"{live.rev}.{live.n}.{len(live.log)}"


_CURSOR = re.compile(r"(\d{1,12})\.(\d{1,9})\.(\d{1,9})")


def delta(live: Live, since: str | None) -> tuple[int, int]:
    """``(log_from, moves_from)``: where the log and the moves sent to a client holding the
    payload of cursor ``since`` start.  The log only grows (an undo adds a line), so it
    restarts at 0 only for a cursor that cannot be this game's; the moves restart at 0 when
    an undo came after the cursor (a move adds one to both ``rev`` and ``n``, an undo adds one
    to ``rev`` and takes from ``n``).  A text that is no cursor: 422."""
    if since is None or since == "":
        return 0, 0
    m = _CURSOR.fullmatch(since)
    if m is None:
        raise ApiError(422, "bad_since", "since is the 'cursor' of a payload: REV.N.LOG")
    rev, n, lines = (int(g) for g in m.groups())
    if rev > live.rev or lines > len(live.log):
        return 0, 0  # not a cursor of this game as it is: everything
    appended = live.rev - rev
    moves_from = n if n + appended == live.n else 0
    return lines, moves_from


def seats_json(seats: list[SeatRow]) -> list[dict[str, Any]]:
    """The seats as every viewer sees them: number, kind (``human``, ``bot:NAME``), name."""
    return [{"seat": s.seat, "kind": s.kind, "name": s.name} for s in seats]


def payload(live: Live, seat: int | None, history: History, at: int | None = None,
            since: str | None = None) -> dict[str, Any]:
    """What ``seat`` (1-based; ``None``: a spectator) may see, now or after ``at`` moves.

    ``log`` holds the log lines from number ``log_from`` on and ``moves`` the moves from
    number ``moves_from`` on: all of them (0) unless ``since`` is the ``cursor`` of a
    payload the client holds, and then only what was added after it (the moves again
    from the first when an undo came between; the log only grows).  A past position
    (``at``) always carries its whole log; it is replayed from the nearest kept one
    (:class:`~tramways.server.history.History`)."""
    if at is not None and at != live.n:
        return past_payload(live, seat, history, at)
    player = seat - 1 if seat is not None else None
    state = live.state
    human = (player is not None and live.seats[player].kind == "human"
             and live.row.status != "closed")
    log_from, moves_from = delta(live, since)
    return {
        "id": live.row.id,
        "game": live.row.game,
        "n": live.n,
        "at": None,
        "latest": live.n,
        "rev": live.rev,
        "to_act": [] if live.row.status == "closed" else
        [p + 1 for p in state.current_players()],
        "view": view_json(state.view(player)),
        "legal": [live.game.format_action(a) for a in state.legal_actions(player)]
        if human and player is not None else [],
        "seat": seat,
        "status": "closed" if live.row.status == "closed" else status(state),
        "seats": seats_json(live.seats),
        "log": live.log[log_from:],
        "log_at": live.line_positions(log_from),
        "moves": [public_notation(live.game, a, player) for a in live.actions[moves_from:]],
        "undoable": undoable(live.played, player) if human and player is not None else 0,
        "record": record_is_public(live.game, state),
        "log_from": log_from,
        "moves_from": moves_from,
        "log_length": len(live.log),
        "cursor": cursor(live),
    }


def past_payload(live: Live, seat: int | None, history: History, at: int) -> dict[str, Any]:
    """The payload of the position after ``at`` moves (nothing to play, nothing to take
    back); 422 for a number outside ``0..n``."""
    if not 0 <= at <= live.n:
        raise ApiError(422, "bad_position", f"?at must be between 0 and {live.n}")
    player = seat - 1 if seat is not None else None
    game = live.game
    row = live.row
    past = history.position(
        (row.id, live.rev - live.n), at,
        lambda: game.new_state(row.settings, row.setup, row.seed),
        live.actions, live.played)
    state = past.state
    return {
        "id": row.id,
        "game": row.game,
        "n": at,
        "at": at,
        "latest": live.n,
        "rev": live.rev,
        "to_act": [p + 1 for p in state.current_players()],
        "view": view_json(state.view(player)),
        "legal": [],
        "seat": seat,
        "status": status(state),
        "seats": seats_json(live.seats),
        "log": list(past.lines),
        "log_at": list(past.line_at),
        "moves": [public_notation(game, a, player) for a in live.actions[:at]],
        "undoable": 0,
        "record": False,
        "log_from": 0,
        "moves_from": 0,
        "log_length": len(past.lines),
        "cursor": None,
    }
