"""IX.4 / IX.5: the tile lay listing's lays (:func:`tramways.g1840.legality.types.listed_lay`,
made through the slots' setters) are the very values ``TileLay(...)`` makes: equal, with the
same hash, repr and fields, and as frozen."""

from __future__ import annotations

import dataclasses

import pytest

from tramways.g1840.legality.types import TileLay, listed_lay

CASES = [
    ("B12", "5", 3, 0, False, None, ((0, 0),), "normal"),
    ("H20", "3", 0, 40, False, None, (), "normal"),  # a Danube hex's lay cost (R-LR-10)
    ("D18", "619", 5, 0, True, "5", ((0, 0),), "bonus_upgrade"),
    ("E11", "OO2", 1, 0, True, "OO1", ((0, 1), (1, 0)), "normal"),
]


@pytest.mark.parametrize("case", CASES)
def test_ix4_ix5_a_listed_lay_is_the_tile_lay_value(case: tuple) -> None:  # type: ignore[type-arg]
    coord, tile_id, rotation, cost, upgrade, replaced, location_map, kind = case
    made = listed_lay(*case)
    want = TileLay(coord, tile_id, rotation, cost=cost, upgrade=upgrade, replaced=replaced,
                   location_map=location_map, kind=kind)
    assert type(made) is TileLay
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    assert dataclasses.astuple(made) == dataclasses.astuple(want)
    assert made.landmark is None and made.mapping == dict(location_map)


def test_ix4_a_listed_lay_is_frozen() -> None:
    made = listed_lay("B12", "5", 3, 0, False, None, ((0, 0),), "normal")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.cost = 20  # type: ignore[misc]
