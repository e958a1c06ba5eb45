"""Importing an 18xx.games export of 1840 as a tramways record.

:func:`import_export` turns a validated export into a :class:`~tramways.core.record.GameRecord`
that replays, and with a trace compares every figure after every processed action
(:mod:`.mapping`).  It needs the rules engine with the 18xx.games ruleset;
:func:`missing_engine_support` lists what is missing, and while anything is, the import refuses
with one line naming it (it never writes a record that does not replay).  docs/interop.md has the mapping and what is left.
"""

from __future__ import annotations

import importlib
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.core.record import GameRecord
from tramways.g1840.edition import LATEST
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.log18xx import Export18xx, effective_actions
from tramways.g1840.interop.ruleset import RULESET_18XX
from tramways.g1840.interop.setup18xx import Setup18xx, compute_setup
from tramways.g1840.interop.trace import Trace

MAPPING_MODULE = "tramways.g1840.interop.mapping"
"""The module that builds the record from the translated actions (docs/interop.md)."""


def engine_settings(export: Export18xx) -> dict[str, Any]:
    """Our settings for the imported game: the site's names, and its ruleset (X-1..X-20)."""
    settings: dict[str, Any] = {
        "players": len(export.players),
        "names": export.player_names,
        "ruleset": RULESET_18XX,
        "edition": int(LATEST),  # R-VERSION-1: an import is a new record
    }
    if export.small_map:
        settings["small_map"] = True
    return settings


def missing_engine_support(export: Export18xx) -> list[str]:
    """What the engine still lacks to import this export (empty when it can)."""
    missing: list[str] = []
    try:
        from tramways.games import get_game

        game = get_game("1840")
    except TramwaysError as exc:
        return [f"the 1840 rules engine ({exc})"]
    try:
        game.normalize_settings(engine_settings(export))
    except TramwaysError:
        missing.append(f"the 1840 engine does not accept settings.ruleset = {RULESET_18XX!r} "
                       "(switches X-1..X-20)")
    try:
        importlib.import_module(MAPPING_MODULE)
    except ModuleNotFoundError:
        missing.append(f"the action mapping ({MAPPING_MODULE}) is not written")
    return missing


def import_export(export: Export18xx, trace: Trace | None = None) -> GameRecord:
    """The record of an export; ``ImportError18xx`` when it cannot be imported (yet)."""
    if trace is not None:
        check_trace_matches(export, trace)
    setup18 = compute_setup(export.seed, len(export.players), export.small_map)
    effective = effective_actions(export)  # validates undo/redo before anything else
    missing = missing_engine_support(export)
    if missing:
        raise ImportError18xx("import-18xx is not available yet: " + "; ".join(missing)
                              + progress(export, trace))
    mapping = importlib.import_module(MAPPING_MODULE)
    record: GameRecord = mapping.build_record(export, setup18, effective, trace)
    return record


def progress(export: Export18xx, trace: Trace | None) -> str:
    """How far the translator replays the export in today's engine, as a message suffix."""
    try:
        from tramways.g1840.interop.probe import probe

        result = probe(export, trace)
    except Exception as exc:  # the engine is being written: report, never crash
        return f" (the translator could not run: {type(exc).__name__}: {exc})"
    total = len(export.actions)
    if result.failure is None:
        return f" (the translator replays all {total} actions)"
    return f" (the translator replays {result.reached} of {total} actions; then {result.failure})"


def check_trace_matches(export: Export18xx, trace: Trace) -> None:
    """A trace must be of the same game and list every export action."""
    if str(trace.header.game_id) != str(export.game_id):
        raise ImportError18xx(
            f"trace: it is of game {trace.header.game_id}, the export is game {export.game_id}")
    if trace.header.num_actions != len(export.actions):
        raise ImportError18xx(
            f"trace: {trace.header.num_actions} actions, the export has {len(export.actions)}")
    names = [name for _, name in trace.header.players]
    if names != export.player_names:
        raise ImportError18xx(
            f"trace: players {names}, the export has {export.player_names}")


def setup_summary(setup: Setup18xx) -> dict[str, Any]:
    """What the site drew at set-up, for messages and ``--dry-run`` style output."""
    return {
        "players": setup.players,
        "layout": setup.layout,
        "tram_companies": list(setup.tram_companies),
        "line_display": list(setup.display),
        "line_deck": list(setup.line_deck),
    }
