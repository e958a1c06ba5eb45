"""Building the tramways record of an 18xx.games export of 1840 (docs/interop.md).

:func:`build_record` translates the effective actions with :mod:`.translate` into our
notation on a live game with the 18xx.games ruleset, checks every figure after every processed
action against a trace when one is given, checks the site's own final result when the export has
one, and returns the record only after replaying it from scratch to the same position.
"""

from __future__ import annotations

from typing import Any

from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.figures_view import figures_from_view
from tramways.g1840.interop.log18xx import EffectiveAction, Export18xx
from tramways.g1840.interop.probe import probe
from tramways.g1840.interop.ruleset import RULESET_18XX
from tramways.g1840.interop.setup18xx import Setup18xx
from tramways.g1840.interop.trace import Trace
from tramways.g1840.view_types import as_view1840


def build_record(export: Export18xx, setup18: Setup18xx, effective: list[EffectiveAction],
                 trace: Trace | None = None) -> GameRecord:
    """The record of an export, or ``ImportError18xx`` naming the first problem."""
    result = probe(export, trace)
    session = result.session
    if result.failure is not None or session is None:
        raise ImportError18xx(f"cannot import: {result.failure}")
    if session.record.settings.get("ruleset") != RULESET_18XX:
        raise ImportError18xx("cannot import: the 1840 engine did not take the 18xx.games "
                              "ruleset")
    _check_result(export, session)
    record = session.record.model_copy(update={"meta": _meta(export, result.ended_early,
                                                              len(effective), trace)})
    again = Session.from_record(record)
    if again.state.view(None) != session.state.view(None):
        raise ImportError18xx("cannot import: the record does not replay to the same position")
    return record


def _check_result(export: Export18xx, session: Session) -> None:
    """The export's ``result`` (player id -> value) must be our players' wealth (R-END-1)."""
    if not export.result:
        return
    figures = figures_from_view(as_view1840(session.state.view(None)))
    for player in export.players:
        expected = export.result.get(player.id)
        if expected is None:
            continue
        ours = figures.get(f"player:{player.name}.value")
        if ours != expected:
            raise ImportError18xx(
                f"cannot import: the site's result gives {player.name} {expected}, "
                f"our replay {ours}")


def _meta(export: Export18xx, ended_early: bool, effective: int,
          trace: Trace | None) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "source": "18xx.games",
        "game_id": export.game_id,
        "player_ids": [p.id for p in export.players],
        "export_actions": len(export.actions),
        "effective_actions": effective,
        "status": export.status,
        "ended_early": ended_early,
    }
    if export.game_end_reason is not None:
        meta["game_end_reason"] = export.game_end_reason
    if trace is not None:
        meta["checked_against_trace"] = True
    return meta
