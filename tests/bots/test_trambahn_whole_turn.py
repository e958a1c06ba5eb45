"""The independent whole-turn opponent (issue 26, item 3): ``bots/trambahn_whole_turn.py``."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

from tramways.bots import make_bot
from tramways.bots.match import play_match
from tramways.bots.trambahn_whole_turn import WholeTurnBot, at_least
from tramways.core import Session
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import IDS_BY_FACE
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.game import GAME
from tramways.trambahn.invariants import check_invariants
from tramways.trambahn.position import Column

ROOT = Path(__file__).resolve().parents[2]


def _position(hand: list[str], mine: list[tuple[list[str], str | None]],
              theirs: list[tuple[list[str], str | None]] = (), money: int = 0,
              rows: dict[int, list[str]] | None = None) -> TrambahnState:
    """P1 to move at the start of its turn, holding ``hand``, with columns (faces, tram)."""
    state = Session.new("trambahn", {}, seed=5).state
    pool = {f: list(ids) for f, ids in IDS_BY_FACE.items()}
    state.hands = [[pool[f].pop() for f in hand], [pool["1b"].pop() for _ in range(0)]]
    state.columns = [[], []]
    for p, columns in enumerate((mine, theirs)):
        for faces, tram in columns:
            col = Column(next(i for i, c in enumerate("brgy") if faces[0][-1] == c), [])
            for f in faces:
                col.add(pool[f].pop())
            col.tram = tram
            state.columns[p].append(col)
    state.rows = [[], [], [], []]
    for c, faces in (rows or {}).items():
        state.rows[c] = [pool[f].pop() for f in faces]
    used = {c for h in state.hands for c in h} | {c for r in state.rows for c in r} | {
        c for cols in state.columns for col in cols for c in col.stations + col.conductors}
    rest = [c for ids in pool.values() for c in ids if c not in used]
    state.hands[1] = rest[:6]
    state.money = [rest[6:6 + money], rest[6 + money:16 + money]]
    state.deck = rest[16 + money:]
    state.discard = []
    state.passengers, state.step, state.turn = 0, 1, 0
    return state


def _plan(state: TrambahnState) -> list[object]:
    bot = WholeTurnBot(GAME)
    first = bot.choose(state.view(0), state.legal_actions(0), random.Random(1))
    return [first, *bot.plan]


def test_t_r_4_it_places_the_tenth_scoring_when_that_wins_the_game():
    # nine scorings done, the red row at 3: its red column (x3) wins the last scoring
    state = _position(["4r", "1b", "2g", "3g", "5y", "6y"], [(["2r", "5r", "8r"], "steam")],
                      [(["3b"], "horse")], rows={1: ["1r", "3r", "6r"]})
    state.regular = 9
    state.scores = [40, 45]
    plan = _plan(state)
    assert plan[-1] == Passenger(0, "4r", "r")  # the game ends at once (T-R-4)
    assert all(isinstance(a, Passenger) for a in plan)


def test_t_r_2_it_leaves_no_row_at_three_that_favours_the_other_player():
    # the other player's green column (x4) would score if a green row reached 3 and they hold
    # a green card: it places its passengers elsewhere
    state = _position(["2g", "9b", "8y", "7r", "1y", "6b"], [],
                      [(["1g", "4g", "7g", "9g"], "electric")], money=8,
                      rows={2: ["3g", "5g"]})
    plan = _plan(state)
    passengers = [a for a in plan if isinstance(a, Passenger)]
    assert all(a.row != "g" for a in passengers)


def test_step_2_and_4_a_station_and_the_tram_it_needs_are_one_plan():
    # 2y and 5y with 10 money and horses on display: one new yellow column of two stations
    # and a horse tram for it, in one turn
    state = _position(["2y", "5y", "9b", "8r", "7g", "C"], [], money=10)
    assert state.display[0] == "horse"
    plan = _plan(state)
    assert Station(0, "2y", None) in plan
    yellow = sum(1 for a in plan[: plan.index(Station(0, "2y", None))]
                 if isinstance(a, Station) and a.column is None)
    assert Station(0, "5y", yellow) in plan
    assert any(isinstance(a, Buy) and a.column == yellow for a in plan)
    assert plan[-1] == EndTurn(0)


def test_step_3_it_banks_the_cards_no_column_wants_and_keeps_the_hand_cycling():
    # no tram left to buy (T-R-6: the display is empty): high cards of colours without a
    # column are worth a money card and a fresh card more than kept
    state = _position(["9b", "8r", "9g", "8g", "6y", "7b"], [(["1y", "3y"], "horse")], money=4)
    state.display, state.stack = [], []
    plan = _plan(state)
    banked = {a.card for a in plan if isinstance(a, Income)}
    assert {"9b", "8r", "9g"} <= banked | {a.card for a in plan if isinstance(a, Passenger)}
    assert len(banked) >= 3


def test_hypergeometric_chance_of_the_other_players_cards():
    assert at_least(1, 0, 50, 6) == 0.0
    assert at_least(0, 3, 50, 6) == 1.0
    assert abs(at_least(1, 10, 50, 6) - (1 - (40 * 39 * 38 * 37 * 36 * 35)
                                         / (50 * 49 * 48 * 47 * 46 * 45))) < 1e-12


def test_it_plays_whole_legal_games_from_its_view():
    for seed in (3, 4):
        session = play_match("trambahn", [WholeTurnBot(GAME), make_bot("rule", GAME)], seed)
        assert session.state.is_over()
        check_invariants(session.state)


def test_it_is_independent_of_our_bots():
    """Written from the rulebook: it imports the engine's data and the bot interface only."""
    tree = ast.parse((ROOT / "src/tramways/bots/trambahn_whole_turn.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert {m for m in imported if m and m.startswith("tramways.bots")} == {"tramways.bots.base"}


def test_the_benchmark_runs_a_short_series():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks/trambahn_whole_turn.py"),
                          "--games", "2", "--bot", "rule"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    line = json.loads(out)
    assert line["games"] == 2 and 0.0 <= line["win_rate"] <= 1.0
