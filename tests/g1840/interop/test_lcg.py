"""The 18xx.games generator (interpretations.md, "Random set-up on 18xx.games")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tramways.g1840.interop.lcg import A, C, Lcg18xx, M, seed_of_export


def test_lcg_first_draws_from_seed_zero():
    """By hand, with A = 1103515245, C = 12345, M = 2**31:

    * state 0 -> A*0 + C = 12345;
    * 12345 -> A*12345 + C = 13622895711870 = 6343 * 2**31 + 1406932606 -> 1406932606;
    * the third draw continues the same way: 654583775.
    """
    rng = Lcg18xx(0)
    assert [rng.draw(), rng.draw(), rng.draw()] == [12345, 1406932606, 654583775]
    assert rng.draws == 3


def test_lcg_seed_is_taken_mod_2_31():
    """The state starts as seed mod M: seeds M + 5 and 5 give the same draws."""
    a, b = Lcg18xx(M + 5), Lcg18xx(5)
    assert [a.draw() for _ in range(4)] == [b.draw() for _ in range(4)]
    assert Lcg18xx(5).draw() == (A * 5 + C) % M == 1222621274


def test_lcg_oracle_seed_first_draw():
    assert Lcg18xx(133875).draw() == (A * 133875 + C) % M == 1260839856


def test_sort_by_random_key_draws_one_number_per_element_in_order():
    """Keys for seed 0 are 12345, 1406932606, 654583775: smallest first."""
    rng = Lcg18xx(0)
    assert rng.sort_by_random_key(["a", "b", "c"]) == ["a", "c", "b"]
    assert rng.draws == 3


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.lists(st.integers(), max_size=20))
def test_sort_by_random_key_is_a_permutation(seed, items):
    rng = Lcg18xx(seed)
    out = rng.sort_by_random_key(items)
    assert sorted(out) == sorted(items)
    assert rng.draws == len(items)
    assert 0 <= rng.state < M


def test_seed_of_export_uses_settings_seed_then_game_id_digits():
    assert seed_of_export({"seed": 133875}, 1) == 133875
    assert seed_of_export({"seed": "42"}, 1) == 42
    assert seed_of_export({"seed": None}, 133875) == 133875
    assert seed_of_export({}, "hs_abc_12_34") == 1234
    assert seed_of_export({"seed": ""}, "no digits") == 0


@pytest.mark.parametrize("bad", [True, 1.5, "abc", [1]])
def test_seed_of_export_refuses_a_seed_it_cannot_read(bad):
    with pytest.raises(ValueError, match="settings.seed"):
        seed_of_export({"seed": bad}, 1)
