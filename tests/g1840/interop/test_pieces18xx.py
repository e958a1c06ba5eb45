"""Finding the hex of a station action from the site's tile pieces (pieces18xx)."""

from __future__ import annotations

import pytest

from tramways.g1840.interop.actions18xx import LayTile, PlaceToken, RemoveToken
from tramways.g1840.interop.log18xx import effective_actions, load_export
from tramways.g1840.interop.pieces18xx import TilePieces

from .helpers import cached_trace


def _lay(hexname: str, tile: str) -> LayTile:
    return LayTile("4", "corporation", hex=hexname, tile=tile, rotation=0)


def test_ix5_an_upgrade_frees_the_old_piece():
    pieces = TilePieces()
    pieces.lay(_lay("H28", "6-0"))
    assert pieces.hex_of_city("6-0-0") == ("H28", 0)
    pieces.lay(_lay("H28", "619-0"))
    assert pieces.hex_of_city("619-0-1") == ("H28", 1)
    with pytest.raises(KeyError):
        pieces.hex_of_piece("6-0")
    pieces.lay(_lay("F14", "6-0"))  # the piece is laid again elsewhere
    assert pieces.hex_of_piece("6-0") == "F14" and pieces.piece_on("H28") == "619-0"


def test_printed_hexes_are_their_own_pieces_until_a_tile_covers_them():
    pieces = TilePieces()
    assert pieces.hex_of_city("E23-0-0") == ("E23", 0)
    pieces.lay(_lay("E23", "L12-0"))
    with pytest.raises(KeyError):
        pieces.hex_of_piece("E23-0")


def test_ix6_every_oracle_station_action_finds_its_hex(oracle_dir):
    """After each effective place_token the line holds a marker on the hex found; after each
    remove_token the Stadtbahn marker there is gone."""
    export = load_export(oracle_dir / "2player.json")
    trace = cached_trace(oracle_dir / "2player.trace.jsonl")
    pieces = TilePieces()
    previous: dict[int, dict] = {}
    last = trace.header.initial
    for entry in trace.entries:
        if entry.processed:
            previous[entry.index], last = last, entry.figures
    checked = 0
    for eff in effective_actions(export):
        action = eff.action
        if isinstance(action, LayTile):
            pieces.lay(action)
        elif isinstance(action, (PlaceToken, RemoveToken)):
            hexname, _ = pieces.hex_of_city(action.city)
            before = previous[eff.index]
            after = trace.entries[eff.index].figures
            if isinstance(action, RemoveToken):
                owners = [k for k, v in before.items()
                          if k.startswith("stadtbahn:") and k.endswith(".markers")
                          and hexname in v and hexname not in after[k]]
                assert len(owners) == 1, (eff.index, hexname)
            else:
                key = f"line:{action.entity}.markers"
                assert after[key].count(hexname) == before[key].count(hexname) + 1
            checked += 1
    assert checked == 22
