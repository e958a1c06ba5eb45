"""The 1840 part of a record's schema: its ``setup``, checked against its settings at load.

A record's shape is checked by :class:`~tramways.core.record.GameRecord` and its settings by
:meth:`Game1840.normalize_settings`; this module checks the set-up (R-SETUP-2, III.1, XII, XIII,
X-1) so that a malformed one is refused with one line naming the field, before any of it
reaches the engine: the layout fits the players and the map, the playing order is a
permutation of the seats, and the line cards, privates, Stadtbahn companies and drawn tram
companies are the layout's own, each at most once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from tramways.core.errors import RecordError
from tramways.g1840.entities import (
    entities,
    layout_name,
    lines_in,
    privates_in,
    stadtbahn_in,
)


class Setup1840(BaseModel):
    """Every random outcome of the set-up, as the record holds it (strict JSON types)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    layout: Literal["full", "small3", "two_player"]
    playing_order: list[int]
    line_display: list[int]
    line_deck: list[int]
    privates: list[str]
    stadtbahn: list[str]
    tram_companies: list[str] | None = None  # drawn at set-up by the 18xx.games ruleset


def check_setup(settings: Mapping[str, Any], setup: Any) -> Setup1840:
    """The set-up of a record with these (normalised) settings, or ``RecordError``."""
    try:
        parsed = Setup1840.model_validate(setup)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise RecordError(f"1840: setup{'.' + where if where else ''}: {err['msg']}") from None
    players, small = settings["players"], settings.get("small_map", False)
    layout = layout_name(players, small)
    if parsed.layout != layout:
        raise RecordError(f"1840: setup.layout {parsed.layout!r} does not fit {players} players"
                          f"{' on the small map' if small else ''} (expected {layout!r})")
    if sorted(parsed.playing_order) != list(range(players)):
        raise RecordError(f"1840: setup.playing_order must hold each of the seats 0-{players - 1} "
                          "once")
    lines = parsed.line_display + parsed.line_deck
    _each_once("line_display and line_deck", lines, lines_in(layout))
    _each_once("privates", parsed.privates, privates_in(layout))
    _each_once("stadtbahn", parsed.stadtbahn, stadtbahn_in(layout))
    if parsed.tram_companies is not None:
        _each_once("tram_companies", parsed.tram_companies, list(entities().tram_companies))
        if len(parsed.tram_companies) != players:
            raise RecordError(f"1840: setup.tram_companies must name {players} companies (X-1)")
    return parsed


def _each_once(field: str, items: list[Any], allowed: list[Any]) -> None:
    unknown = [x for x in items if x not in allowed]
    if unknown:
        raise RecordError(f"1840: setup.{field}: {unknown[0]!r} is not in this layout's game")
    if len(set(items)) != len(items):
        raise RecordError(f"1840: setup.{field}: an entry appears twice")
