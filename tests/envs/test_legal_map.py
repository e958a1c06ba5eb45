"""The 1840 environment's listing in parts (``State1840.legal_parts``, ``legal_map_parts``):
the same indices in the same order, and the same actions, as the full listing mapped through
the catalogue (VI private bids, VIII.6 line auctions, IX.4/IX.5 tile lays)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from tramways.core.game import settings_for_new_game  # noqa: E402
from tramways.envs import g1840_v0  # noqa: E402
from tramways.envs.g1840_catalogue import BLOCKS, CATALOGUE  # noqa: E402
from tramways.envs.legal_map import LegalMap, legal_map_parts  # noqa: E402
from tramways.g1840 import actions as A  # noqa: E402
from tramways.g1840.game import GAME  # noqa: E402
from tramways.g1840.shared_actions import Block, flatten  # noqa: E402


@pytest.mark.parametrize(("players", "seed", "ruleset"),
                         [(2, 1, "rules"), (4, 2, "rules"), (5, 3, "rules"),
                          (3, 4, "18xx.games")])
def test_vi_viii6_ix4_listing_in_parts_maps_like_the_full_listing(players: int, seed: int,
                                                                   ruleset: str) -> None:
    settings = settings_for_new_game(GAME, {"players": players, "ruleset": ruleset})
    state = GAME.new_state(settings, GAME.setup(settings, seed), seed)
    rng = random.Random(seed)
    blocks: dict[type, int] = {}
    while not state.is_over():
        for seat in range(players):
            parts = state.legal_parts(seat)
            plain = state.legal_actions(seat)
            assert flatten(parts) == plain
            if ruleset != "rules":  # the plain list itself
                assert not any(isinstance(p, Block) for p in parts)
                continue
            want = CATALOGUE.legal_map(plain)
            got = legal_map_parts(CATALOGUE, parts, BLOCKS)
            assert list(got) == list(want)
            for i in list(got)[::3]:  # made on demand, equal to the listed action
                assert got[i] == want[i] and got.get(i) == want[i]
            assert dict(got) == want
            for part in parts:
                if isinstance(part, Block):
                    blocks[part.cls] = blocks.get(part.cls, 0) + len(part)
        seat = state.current_players()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    if ruleset == "rules":  # every kind of block met, and mapped without making it
        assert set(blocks) == {A.LayTile, A.OpenAuction, A.LineBid, A.Bid}


def test_env_steps_the_listed_action_made_on_demand() -> None:
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=5)
    rng = random.Random(5)
    while not env.terminations[env.agent_selection]:
        legal = env._legal
        parts = env.state.legal_parts(env.state.current_players()[0])
        made_later = any(isinstance(p, Block) for p in parts)
        assert isinstance(legal, LegalMap if made_later else dict)
        want = CATALOGUE.legal_map(env.state.legal_actions(env.state.current_players()[0]))
        assert env.legal_indices() == list(want)
        i = rng.choice(env.legal_indices())
        assert legal[i] == want[i]
        env.step(i)
        assert env.actions[-1] == want[i]


def test_two_actions_of_one_index_across_blocks_raise() -> None:
    """A catalogue bug (two listed actions with one index) raises, blocks or not."""
    settings = settings_for_new_game(GAME, {"players": 4})
    state = GAME.new_state(settings, GAME.setup(settings, 1), 1)
    parts = state.legal_parts(state.current_players()[0])
    block = next(p for p in parts if isinstance(p, Block) and len(p))
    with pytest.raises(RuntimeError, match="share index"):
        legal_map_parts(CATALOGUE, [block, block], BLOCKS)
    with pytest.raises(RuntimeError, match="share index"):
        legal_map_parts(CATALOGUE, [block, *block.actions()[:1]], BLOCKS)


def test_vi_bids_kept_as_a_run_answer_lookups_like_a_dict() -> None:
    """A private's bids (VI) are one run of indices: looked up, tested and iterated like the
    full listing's dict, with no entry for an index outside the listing."""
    settings = settings_for_new_game(GAME, {"players": 4})
    state = GAME.new_state(settings, GAME.setup(settings, 1), 1)
    seat = state.current_players()[0]
    got = legal_map_parts(CATALOGUE, state.legal_parts(seat), BLOCKS)
    want = CATALOGUE.legal_map(state.legal_actions(seat))
    assert isinstance(got, LegalMap) and len(got) == len(want) > 2
    assert all(i in got for i in want) and -1 not in got and len(CATALOGUE) not in got
    assert got.get(-1) is None and got.get(-1, "none") == "none"
    with pytest.raises(KeyError):
        got[len(CATALOGUE)]
    assert [got[i] for i in reversed(list(got))] == [want[i] for i in reversed(list(want))]
