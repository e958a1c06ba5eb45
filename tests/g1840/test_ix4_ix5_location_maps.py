"""IX.4 / IX.5: the location map a lay keeps its old track and locations by
(:func:`tramways.g1840.legality.matching.match_locations`): a printed hex without track keeps
only its locations, and an upgrade keeps every old edge's track or is refused."""

from __future__ import annotations

from tramways.g1840.data import load_layout, tiles
from tramways.g1840.legality.matching import match_locations
from tramways.g1840.legality.tiles import printed_map, upgrade_map, upgrade_turns


def test_ix4_a_blank_printed_hex_keeps_nothing_at_any_rotation() -> None:
    layout, halt_tile = load_layout("full"), tiles()["3"]
    assert [printed_map(layout, "B4", halt_tile, r) for r in range(6)] == [()] * 6


def test_ix4_a_printed_interchange_without_track_moves_to_the_tiles_interchange() -> None:
    layout, t = load_layout("full"), tiles()
    assert [printed_map(layout, "B12", t["5"], r) for r in range(6)] == [((0, 0),)] * 6
    assert printed_map(layout, "B12", t["3"], 0) is None  # a halt is no interchange (IX.4)


def test_ix5_an_upgrade_keeps_every_old_edge_or_is_refused() -> None:
    # tile 5 joins edges 0 and 1 at its interchange; 619 has track at 0, 2, 3 and 4: only
    # the turns bringing two of its edges onto 0 and 1 keep the old track
    assert [upgrade_map("5", "619", turn) for turn in range(6)] == [
        None, None, None, ((0, 0),), ((0, 0),), None]
    assert upgrade_turns("5", "619") == (3, 4)


def test_ix5_a_tile_replacing_itself_keeps_its_locations() -> None:
    tile = tiles()["8858"]
    assert match_locations(tile.paths_at(0), tile.locations, tile.paths_at(0),
                           tile.locations) == ((0, 0), (1, 1))
    assert match_locations(tile.paths_at(0), tile.locations, tile.paths_at(1),
                           tile.locations) is None
