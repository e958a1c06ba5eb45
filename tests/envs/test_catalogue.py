"""The catalogue's index map of a legal list (:meth:`tramways.envs.base.Catalogue.legal_map`):
indices in the order listed, actions without an index left out, a shared index refused."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tramways.core.actions import Action
from tramways.envs.base import Catalogue


@dataclass(frozen=True)
class Move(Action):
    name: str


def _catalogue(key_of: bool) -> Catalogue:
    keys = [("move", n) for n in "abcd"] if key_of else [Move(0, n) for n in "abcd"]
    return Catalogue(keys, (lambda a: ("move", a.name) if a.name != "x" else None)
                     if key_of else None, [f"move {n}" for n in "abcd"],
                     aliases={("move", "z"): 0} if key_of else None)


@pytest.mark.parametrize("key_of", [True, False])
def test_legal_map_keeps_the_listed_order_and_leaves_out_actions_without_index(
        key_of: bool) -> None:
    cat = _catalogue(key_of)
    listed = [Move(0, "c"), Move(0, "x"), Move(0, "a"), Move(0, "q")]
    for _ in range(2):  # the second time from the catalogue's memory of these objects
        got = cat.legal_map(listed)
        assert list(got.items()) == [(2, listed[0]), (0, listed[2])]


def test_legal_map_refuses_two_actions_with_one_index() -> None:
    cat = _catalogue(True)
    with pytest.raises(RuntimeError, match="share index 0"):
        cat.legal_map([Move(0, "b"), Move(0, "a"), Move(0, "z")])  # z is an alias of a's index
