"""The 1840 ``normal`` and ``easy`` bots play the economy as people do (issue 26), and the
figures of a game are read from its log as the benchmark reads them (benchmarks/realism.py)."""

from __future__ import annotations

import pytest

from tests.bots.g1840_games import bot_decisions
from tramways.bots import bot_names, make_bot
from tramways.bots.g1840_realism import game_figures, read_log
from tramways.bots.match import play_match
from tramways.core import Session
from tramways.g1840.game import GAME


@pytest.fixture(scope="module")
def normal_game():
    """Two ``normal`` bots, seed 4 (2 players, as the recorded game)."""
    session = play_match("1840", [make_bot("normal", GAME) for _ in range(2)], 4,
                         {"players": 2})
    return session, game_figures(session.log, session.state.view(None))


def test_difficulty_bots_are_registered_for_1840():
    assert {"easy", "normal"} <= set(bot_names("1840"))
    assert make_bot("easy", GAME).name == "easy" and make_bot("normal", GAME).name == "normal"


def test_ix7_line_runs_and_ix4_lays_are_read_from_the_log():
    figures = read_log([
        "Line 4 lays tile 6 on H28 (rotation 4)",
        "Line 4 lays tile L2 on B20 (rotation 2) for 20",
        "Line 4 runs (H30.0-H28.0-I27.0) for 50",
        "Line 15 runs (no tram) for 0",
        "WT buys line 4 for 20",
        "WT buys a orange tram for 300",
        "GW scraps line 15's yellow tram",
        "WT scraps a orange tram",
        "Player 1 buys KK for 20",
        "Player 2 takes 2 loan(s) of 100",
    ])
    assert figures.runs == [50, 0] and figures.lays == 2 and figures.stadtbahn_lays == 1
    assert figures.tiles_per_run == 1.0 and figures.zero_runs == 0.5 and figures.mean_run == 25
    assert figures.line_prices == [20] and figures.trams_bought == {"orange": 1}
    assert figures.scrapped == 2 and figures.private_prices == {"KK": 20} and figures.loans == 2


def test_ix3_r_lr_1_the_tiles_per_run_ceiling_is_an_own_lay_a_run_and_every_bonus_tile():
    figures = read_log([
        "Line 4 lays tile L2 on B20 (rotation 2) for 20",
        "Bonus action: lay additional yellow tile",
        "Line 4 lays tile 3 on F16 (rotation 2)",
        "Line 4 runs (no route) for 0",
        "Line 5 lays tile L1 on G23 (rotation 1) for 20",
        "Bonus action: place additional station marker",
        "Line 5 lays tile 5 on I21 (rotation 0)",
        "Line 5 runs (I19.0-I21.0) for 30",
        "Line 6 lays tile 14 on A24 (rotation 0) for 40",  # the Danube bridge: no bonus
        "Line 6 runs (A24.0-B23.0) for 40",
        "Line 7 runs (no route) for 0",
    ])
    assert figures.bonus_actions == 2 and figures.tile_bonuses == 1
    # 4 runs, each its own lay (4), 2 Stadtbahn tiles, 1 tile-laying bonus: 7 tiles
    assert figures.tiles_ceiling == 7 / 4 and figures.tiles_per_run == 5 / 4


def test_the_recorded_2_player_game_has_the_issues_figures(oracle_dir):
    from tramways.g1840.interop.importer import import_export
    from tramways.g1840.interop.log18xx import load_export

    session = Session.from_record(import_export(load_export(oracle_dir / "2player.json")))
    f = game_figures(session.log, session.state.view(None))
    assert f.lays == 80 and len(f.runs) == 54 and round(f.tiles_per_run, 2) == 1.48
    # every Stadtbahn tile with its bonus, 15 of them tile-laying: at most 88 tiles in 54 runs
    assert f.bonus_actions == 19 and f.tile_bonuses == 15 and round(f.tiles_ceiling, 2) == 1.63
    assert round(f.zero_runs, 3) == 0.185 and round(f.mean_run) == 173
    assert f.line_prices == [20] * 6 and f.scrapped == 4
    assert f.trams_bought == {"orange": 3, "yellow": 1, "red": 1, "pink": 1, "purple": 2}
    assert f.stadtbahn_price["W"] == 185 and f.wealth == [8351, 7618]


def test_viii6_normal_bots_bid_for_lines_by_their_promise_not_their_treasury(normal_game):
    _, f = normal_game
    assert f.line_prices and max(f.line_prices) <= 80
    assert f.line_prices.count(20) >= 2


def test_ix4_normal_bots_build_and_run_the_w_and_g_stadtbahn(normal_game):
    _, f = normal_game
    assert f.stadtbahn_lays >= 10
    assert f.stadtbahn_run["W"] > 0 and f.stadtbahn_run["G"] > 0
    assert f.stadtbahn_price["W"] > 100


def test_xi_normal_bots_end_above_3000_and_their_lines_earn(normal_game):
    _, f = normal_game
    assert f.lowest_wealth > 3000
    assert f.zero_runs < 0.2 and f.mean_run > 100 and f.tiles_per_run > 1.2


def test_vi_normal_bots_value_privates_by_a_taste_drawn_per_game():
    prices = []
    for seed in (1, 2):
        s = play_match("1840", [make_bot("normal", GAME) for _ in range(2)], seed,
                       {"players": 2})
        prices.append(game_figures(s.log, s.state.view(None)).private_prices)
    assert prices[0] != prices[1]


def test_easy_bot_plays_a_whole_game():
    session = play_match("1840", [make_bot("easy", GAME), make_bot("normal", GAME)], 3,
                         {"players": 2})
    assert session.state.is_over()


def test_ix7_a_line_without_a_route_takes_its_best_lay_not_a_near_equal_one():
    """A line whose run is still 0 (IX.7: no route) lays the best-scored tile, the one that
    leads towards stops, never one of the near-equal lays at random; once it runs, the
    near-equal choice (varied play) is back."""
    import random

    from tramways.bots.g1840_economy import Economy1840
    from tramways.bots.g1840_model import ViewModel
    from tramways.g1840.actions import LayTile

    no_route = 0
    for d in bot_decisions("normal", 2, 4, until="CR3"):
        view, legal = d.view, d.legal
        lt = view.round_info.line_turn
        if view.round_info.type == "LR" and lt is not None and lt.line and \
                any(isinstance(a, LayTile) for a in legal):
            model = ViewModel(view, me=d.seat)
            if model.run_value(lt.line, with_maintenance=False) <= 0:
                tastes = d.bot.tastes
                picks = set()
                for r in range(6):
                    rules = Economy1840(view, legal, random.Random(r), tastes)
                    action, _ = rules.decide()
                    picks.add(action)
                    if isinstance(action, LayTile):
                        best = max(s for s, a in rules.scored)
                        assert dict((a, s) for s, a in rules.scored)[action] == best
                assert len(picks) == 1
                no_route += 1
    assert no_route >= 2


def test_r_lr_1_normal_lays_the_pending_bonus_tile_not_its_own_lay_first():
    """While a Stadtbahn tile's tile-laying bonus is pending (R-LR-1) and the line may still
    make its own lay too (IX.3), ``normal`` lays a tile the bonus allows: a normal lay now
    would forfeit the bonus and use up the line's own lay.  And a Stadtbahn tile whose bonus
    tile could not be laid waits for the line's own lay (R-LR-3: it may bring one within
    reach)."""
    from tramways.bots.g1840_model import ViewModel
    from tramways.g1840.actions import LayTile
    from tramways.g1840.legality.context import SimpleBuildState
    from tramways.g1840.legality.stadtbahn import TILE_BONUSES, legal_bonus_lays

    pending = own_first = 0
    for d in bot_decisions("normal", 2, 1):
        seat, view, action = d.seat, d.view, d.action
        lt = view.round_info.line_turn
        if lt is not None and lt.bonus in TILE_BONUSES and not lt.tile_laid:
            m = ViewModel(view, me=seat)
            state = SimpleBuildState(m.board, m.phase, set(range(1, 19)))
            bonus = {(t.coord, t.tile_id, t.rotation)
                     for t in legal_bonus_lays(state, lt.line, lt.bonus)}
            if bonus:
                assert isinstance(action, LayTile)
                assert (action.hex, action.tile, action.rotation) in bonus
                pending += 1
        if "first: the Stadtbahn tile's bonus" in d.bot.explanation:
            assert isinstance(action, LayTile) and lt is not None and not lt.tile_laid
            board = ViewModel(view, me=seat).board
            assert board.layout.hexes[action.hex].stadtbahn is None \
                or board.tile(action.hex) is not None  # its own lay, not a Stadtbahn tile
            own_first += 1
    assert pending >= 3 and own_first >= 1
