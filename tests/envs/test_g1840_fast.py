"""The 1840 observation read from the position (:mod:`tramways.envs.g1840_fast`) is the
observation encoded from the agent's view, value for value."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

from tramways.envs import g1840_fast, g1840_seats, g1840_v0, g1840_v1  # noqa: E402

SETTINGS = [{"players": 2}, {"players": 3, "small_map": True}, {"players": 4},
            {"players": 5}, {"players": 6}]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: f"{s['players']}p")
def test_observation_from_the_position_equals_encode_of_every_seats_view(settings):
    """Every seat at every position of a random game (every round type, auctions, line turns,
    markers, the end): the same float32 array as ``encode(view(seat), seat)``."""
    env = g1840_v0.raw_env(max_steps=2000, **settings)
    env.reset(seed=70 + settings["players"])
    rng = random.Random(settings["players"])
    state = env.state
    rounds = set()
    positions = 0
    while positions < 400:
        rounds.add(state.round.type)
        for seat in range(state.n):
            expected = g1840_v0.encode(state.view(seat), seat)
            got = g1840_fast.observe(state, seat)
            assert got.dtype == np.float32 and got.shape == (g1840_v0.OBS_SIZE,)
            assert np.array_equal(got, expected), (state.round.name, seat,
                                                   np.flatnonzero(got != expected)[:5])
        positions += 1
        if state.is_over():
            break
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert {"PRE", "SR", "CR", "LR"} <= rounds


def test_a_copy_that_lays_differently_has_its_own_board_part():
    """The per-board part is kept per board version: a copy that diverges (another lay) gets
    its own, and the original's stays right."""
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=5)
    rng = random.Random(5)
    state = env.state
    checked = 0
    while not state.is_over() and checked < 20:
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        lays = [a for a in legal if type(a).__name__ == "LayTile"]
        if len(lays) >= 2:
            copy = state.clone()
            copy.apply(lays[0], seat)
            state.apply(lays[1], seat)
            for pos in (copy, state, copy):
                assert np.array_equal(g1840_fast.observe(pos, 0), g1840_v0.encode(pos.view(0), 0))
            checked += 1
            continue
        state.apply(legal[rng.randrange(len(legal))], seat)
    assert checked >= 5


@pytest.mark.parametrize("settings", [{"players": 3, "small_map": True}, {"players": 4}],
                         ids=["3p-small", "4p"])
def test_v1_observation_from_the_position_equals_encode_of_the_view_at_every_choice(settings):
    """g1840_v1: the tables, the hex grid and the choice in progress read from the position
    are ``encode(view(seat), seat)``, for every seat, at every stage of a choice."""
    env = g1840_v1.raw_env(**settings)
    env.reset(seed=90 + settings["players"])
    rng = random.Random(9)
    for _ in range(600):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        for seat in range(len(env.possible_agents)):
            got = env.observation_array(seat)
            expected = env.encode(env.state.view(seat), seat)
            assert got.dtype == np.float32 and np.array_equal(got, expected), (
                env.state.round.name, seat, env.prefix, np.flatnonzero(got != expected)[:5])
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
    assert len(env.actions) > 150


GAMES = [{"players": 2}, {"players": 3}, {"players": 3, "small_map": True}, {"players": 4},
         {"players": 5}, {"players": 6}]


@pytest.mark.parametrize("settings", GAMES, ids=lambda s: "-".join(f"{v}" for v in s.values()))
def test_the_incremental_board_part_equals_one_built_from_scratch(settings):
    """The environment's observer updates its board part hex by hex along a random game
    (lays, relays, markers placed and removed, lines changing hands); at every position its
    observation of every seat is the one a fresh observer builds from the empty board, and
    the encoded view's (the two-player and the small three-player map included)."""
    env = g1840_v0.raw_env(max_steps=3000, **settings)
    env.reset(seed=300 + settings["players"])
    rng = random.Random(settings["players"])
    state = env.state
    lays = 0
    for step in range(3000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        seats = range(state.n) if step % 5 == 0 else [state.current_players()[0]]
        for seat in seats:
            got = env.observe(env.possible_agents[seat])["observation"]
            fresh = g1840_fast.Observer().observe(state, seat)
            assert np.array_equal(got, fresh), (state.round.name, seat,
                                                np.flatnonzero(got != fresh)[:5])
            if step % 5 == 0:
                assert np.array_equal(got, g1840_v0.encode(state.view(seat), seat))
        legal = env.legal_actions()
        index = rng.choice(list(legal))
        lays += type(legal[index]).__name__ == "LayTile"
        env.step(index)
    assert state.board.placed() and lays >= 20


def test_one_observer_over_two_interleaved_games_stays_right():
    """An observer asked about two games in turn (its board part is the other game's each
    time) gives each game's own observation."""
    observer = g1840_fast.Observer()
    games = []
    for seed in (1, 2):
        env = g1840_v0.raw_env(players=4)
        env.reset(seed=seed)
        games.append((env, random.Random(seed)))
    for _ in range(400):
        for env, rng in games:
            if env.terminations[env.agent_selection]:
                continue
            state = env.state
            seat = state.current_players()[0]
            assert np.array_equal(observer.observe(state, seat),
                                  g1840_v0.encode(state.view(seat), seat))
            legal = env.legal_indices()
            env.step(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("settings", [{"players": 2}, {"players": 3, "small_map": True},
                                      {"players": 5}], ids=["2p", "3p-small", "5p"])
def test_v1_grid_kept_hex_by_hex_equals_the_grid_built_from_scratch(settings):
    """g1840_v1's hex grid, updated hex by hex along a random game, equals the grid built
    from the whole board (:func:`g1840_v1.grid_of`) at every engine position."""
    env = g1840_v1.raw_env(max_steps=3000, **settings)
    env.reset(seed=500 + settings["players"])
    rng = random.Random(settings["players"])
    positions = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        if not env.prefix:
            got = env.grid.update(env.state)
            assert np.array_equal(got, g1840_v1.grid_of(env.state, env.layout))
            positions += 1
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
    assert positions > 100 and env.state.board.placed()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_tables_of_one_seat_moved_to_another_seat_are_that_seats_tables(players):
    """The seat-relative values (actor, my turn, high bidder, seat blocks, directors, owners)
    are the only difference between the seats' tables: ``between`` moves them, for every
    pair of seats, at positions of every round type."""
    env = g1840_v0.raw_env(players=players)
    env.reset(seed=40 + players)
    rng = random.Random(players)
    state = env.state
    rounds = set()
    for step in range(600):
        if state.is_over():
            break
        if step % 3 == 0:
            rounds.add(state.round.type)
            direct = [g1840_fast.Observer().tables(state, s) for s in range(players)]
            for a in range(players):
                for b in range(players):
                    assert np.array_equal(direct[a][g1840_seats.between(players, a, b)],
                                          direct[b]), (a, b, state.round.name)
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
    assert {"PRE", "SR", "CR", "LR"} <= rounds


def test_the_seats_of_one_position_share_its_tables_and_a_step_makes_a_new_position():
    """The environment's position key changes with every action and reset; the seats'
    observations of one position are computed once (the others moved from it) and equal
    each seat's own."""
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=8)
    keys = {env.position}
    rng = random.Random(8)
    for _ in range(150):
        for seat in (2, 0, 3, 1):
            got = env.observation_array(seat)
            assert np.array_equal(got, g1840_fast.Observer().observe(env.state, seat))
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
        keys.add(env.position)
    env.reset(seed=8)
    keys.add(env.position)
    assert len(keys) == 152


def test_another_position_object_under_the_same_key_is_read_again():
    """The kept tables are the very position's they were written for: a position put in the
    environment's place by hand (the key unchanged) is read afresh."""
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=21)
    rng = random.Random(21)
    for _ in range(60):
        legal = env.legal_indices()
        env.step(legal[rng.randrange(len(legal))])
    before = env.observation_array(0)
    other = env.state.clone()
    seat = other.current_players()[0]
    other.apply(other.legal_actions(seat)[-1], seat)
    env.state = other
    got = env.observation_array(0)
    assert np.array_equal(got, g1840_v0.encode(other.view(0), 0))
    assert not np.array_equal(got, before)
