"""Exporting a game of ours as an 18xx.games export of 1840.

:func:`export_record` replays a tramways record of 1840 played under the 18xx.games ruleset
(X-1..X-20) and writes every action in the site's export format, so that the site's engine
loads it to the same figures; :func:`tramways.g1840.interop.importer.import_export` reads it
back to the same record (``import(export(g)) == g``).

What the site needs beyond our notation, kept here while replaying:

* **ids of pieces**: a player's id (seat + 1), share certificates (``WT_0`` is the director's,
  ``W_3`` a Stadtbahn share: the lowest one where the share is bought from), trams
  (``O1-2``: the colour's next copy in the depot; the variant names the price paid, ``O2`` =
  200), tiles (``57-1``: the lowest copy of that tile not on the map; a printed hex's own tile
  is ``HEX-0``) and cities (``TILE-COPY-CITY``, CITY = the interchange's index on the tile);
* **the site's steps that our engine settles without an action** (the inverse of the
  importer's mapping, docs/interop.md): the pass that ends a line's track step before its run,
  the reassignment step after a company's buying turn (``reassign_trains`` with every tram,
  automatic when one tram meets one line), the Stadtbahn runs after the last dividend (auto
  actions with the revenue our engine paid), a home marker the site asks for;
* **what the site does by itself and our record has as an action**: a player's pass when
  passing is all they can do, the last playing-order card, the consent to a sale.

A record the site would not accept is refused with one line naming the first action or the
ruling: a game under the printed rules (their rulings differ from the site's: X-1..X-20), a
set-up that is not the site's draw for the record's seed.  A sale at a recorded price (X-19, in
records imported from the site's random generator) is written with that ``share_price``, which
the site's engine pays as our import did.  Runs are written with the revenue before maintenance (the
figure the site records and trusts on loading) and the stops and track of our route.
"""

from __future__ import annotations

import json
from typing import Any

from tramways.core.record import GameRecord
from tramways.g1840.interop.export_actions import HANDLERS, POST
from tramways.g1840.interop.export_pieces import ExportError18xx
from tramways.g1840.interop.exporter import Exporter
from tramways.g1840.interop.setup18xx import compute_setup
from tramways.g1840.site_draw import M


def check_exportable(record: GameRecord) -> None:
    """Refuse, in one line, a record the site would not load to the same game."""
    if record.game != "1840":
        raise ExportError18xx(f"only 1840 games go to 18xx.games, this is {record.game}")
    settings = record.settings
    if settings.get("ruleset") != "18xx.games":
        raise ExportError18xx(
            "the game is played under the printed rules with RULINGS.md, whose rulings differ "
            "from the site's (X-1: tram companies chosen at par, not drawn at set-up; "
            "X-2..X-20): only games under the 18xx.games ruleset can be exported")
    players = int(settings["players"])
    small = bool(settings.get("small_map"))
    site = compute_setup(record.seed, players, small).engine_setup()
    setup = record.setup
    for key in ("line_display", "line_deck", "tram_companies", "playing_order"):
        if list(setup.get(key) or []) != list(site[key]):
            raise ExportError18xx(
                f"set-up: {key} {setup.get(key)} is not the site's draw for seed "
                f"{record.seed} ({site[key]}; X-1): the site would set up another game")
    if not 0 <= record.seed < M:
        raise ExportError18xx(f"seed {record.seed} is outside the site's range 0..{M - 1}")


def export_record(record: GameRecord) -> dict[str, Any]:
    """The 18xx.games export of a record (``ExportError18xx`` naming what the site would not
    accept)."""
    check_exportable(record)
    return Exporter(record, HANDLERS, POST).run()


def export_json(record: GameRecord) -> str:
    return json.dumps(export_record(record), indent=1)
