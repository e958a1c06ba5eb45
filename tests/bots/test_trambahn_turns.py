"""The search's whole turns (issue 26, item 3): :mod:`tramways.bots.trambahn_turns` and the
``search`` that plays them (``whole_turn=True``)."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

import pytest

from tramways.bots import make_bot
from tramways.bots.match import play_match
from tramways.bots.trambahn_turns import TurnPlanner, variant_of
from tramways.bots.trambahn_unseen import chance_of
from tramways.core import Session
from tramways.trambahn.actions import Buy, EndTurn, Passenger, Station
from tramways.trambahn.cards import IDS_BY_FACE, TRAMS
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.game import GAME
from tramways.trambahn.position import Column


def _position(hand: list[str], mine: list[tuple[list[str], str | None]],
              theirs: list[tuple[list[str], str | None]] = (), money: int = 0,
              rows: dict[int, list[str]] | None = None) -> TrambahnState:
    """P1 to move at the start of its turn with ``hand``, columns (faces, tram) and rows."""
    state = Session.new("trambahn", {}, seed=11).state
    pool = {f: list(ids) for f, ids in IDS_BY_FACE.items()}
    state.hands = [[pool[f].pop() for f in hand], []]
    state.columns = [[], []]
    for p, columns in enumerate((mine, theirs)):
        for faces, tram in columns:
            col = Column("brgy".index(faces[0][-1]), [])
            for f in faces:
                col.add(pool[f].pop())
            col.tram = tram
            state.columns[p].append(col)
    state.rows = [[pool[f].pop() for f in (rows or {}).get(c, [])] for c in range(4)]
    rest = [c for ids in pool.values() for c in ids]
    state.hands[1] = rest[:6]
    state.money = [rest[6:6 + money], rest[6 + money:16 + money]]
    state.deck = rest[16 + money:]
    state.discard = []
    state.passengers, state.step, state.turn = 0, 1, 0
    return state


def _turn(state: TrambahnState) -> list[object]:
    """The whole turn the planner picks, checked legal action by action."""
    _, draft = TurnPlanner(state.view(0), Counter()).best()[0]
    for action in draft.actions:
        assert action in state.legal_actions()
        state.apply(action)
    return list(draft.actions)


def test_hypergeometric_chance_of_the_other_players_next_passengers():
    assert chance_of(1, 0, 80, 6) == 0.0
    assert chance_of(0, 0, 80, 6) == 1.0
    assert chance_of(1, 80, 80, 6) == 1.0
    # 1 - C(60, 6) / C(80, 6): at least one of 20 fitting cards among 6 drawn of 80
    assert chance_of(1, 20, 80, 6) == pytest.approx(1 - comb(60, 6) / comb(80, 6))
    assert chance_of(2, 20, 80, 6) < chance_of(1, 20, 80, 6)


def test_step_2_and_4_a_station_and_the_tram_it_needs_are_one_turn():
    # 5y and 8y start a yellow column only if a horse tram (5) is bought for it (T-R-6)
    state = _position(["1b", "5y", "8y", "3g", "9g", "C"], [(["2g", "4g", "6g"], "steam")],
                      money=5, rows={0: ["1b", "2b"]})
    plan = _turn(state)
    assert Station(0, "5y", None) in plan and Station(0, "8y", 1) in plan
    assert Buy(0, "horse", 1) in plan
    assert plan[-1] == EndTurn(0)
    assert [c.tram for c in state.columns[0]] == ["steam", "horse"]


def test_t_r_4_the_search_places_the_tenth_scoring_when_it_wins_by_it():
    state = _position(["4r", "1b", "2b", "3g", "5g", "6y"], [(["2r", "5r", "7r"], "steam")],
                      rows={1: ["2r", "3r", "6r"]})
    state.regular, state.scores = 9, [45, 50]  # 45 + 4 x 3 = 57 against 50
    assert Passenger(0, "4r", "r") in _turn(state)
    assert state.over and state.scores[0] > state.scores[1]


def test_t_r_4_the_search_does_not_end_the_game_behind():
    state = _position(["4r", "1b", "2b", "3g", "5g", "6y"], [(["2r", "5r", "7r"], "steam")],
                      rows={1: ["2r", "3r", "6r"]})
    state.regular, state.scores = 9, [30, 50]  # 30 + 12 against 50: still behind
    assert Passenger(0, "4r", "r") not in _turn(state)
    assert not state.over


def test_t_r_2_no_row_left_at_3_for_a_scoring_that_favours_the_other_player():
    # the other player's green column scores 5 x 4 = 20 against our nothing in green: with a
    # choice, the search does not bring the green row to 3 (their next 6 cards very likely
    # hold a green card or a conductor)
    state = _position(["5g", "2b", "3b", "8y", "9y", "C"], [(["1b", "4b"], "horse")],
                      theirs=[(["2g", "3g", "5g", "6g", "7g"], "electric")],
                      rows={2: ["1g", "4g"]})
    plan = _turn(state)
    assert Passenger(0, "5g", "g") not in plan
    assert Passenger(0, "C", "g") not in plan
    assert len(state.rows[2]) == 2


def test_variant_of_changes_weights_and_refuses_unknown_names():
    planner = variant_of({"danger": 0.5})
    assert planner.danger == 0.5 and TurnPlanner.danger == 1.0
    with pytest.raises(ValueError, match="no weight"):
        variant_of({"nonsense": 1})


def test_the_whole_turn_search_plays_whole_turns_and_follows_them():
    """Every decision of the search's turn (``whole_turn=True``) comes from the whole turn it planned at its
    first decision (or is the only legal action)."""
    state = Session.new("trambahn", {}, seed=7).state
    bot = make_bot("search", GAME, whole_turn=True)
    other = make_bot("rule", GAME)
    rng = random.Random(3)
    explanations = []
    while not state.is_over() and state.turn_number < 30:
        view = state.view(state.turn)
        if state.turn == 1:
            state.apply(other.choose(view, state.legal_actions(), rng))
            continue
        action = bot.choose(view, state.legal_actions(), rng)
        explanations.append(bot.explanation)
        state.apply(action)
    planned = sum(e.startswith("whole turn") for e in explanations)
    assert planned >= 14
    assert all(e.startswith(("whole turn", "the rest of the building plan", "only action"))
               for e in explanations)


def test_the_search_with_reply_play_outs_finishes_a_game_under_a_seed():
    options = {"whole_turn": True, "top": 3, "lookahead": 1.0, "determinizations": 2,
               "lookahead_from": 0}
    scores = []
    for _ in range(2):
        bots = [make_bot("search", GAME, **options), make_bot("rule", GAME)]
        scores.append(play_match("trambahn", bots, 21).state.result()["scores"])
    assert scores[0] == scores[1]


def _two_rows_at_3(regular: int) -> tuple[TrambahnState, list[int]]:
    """Blue and yellow rows at 3, both scorings favouring the other player (its blue and
    yellow columns against our red one), the scores level, ``regular`` scorings made."""
    state = _position(["5r", "6r", "7g", "8g", "1r", "2g"], [(["2r", "5r", "7r"], "steam")],
                      theirs=[(["2b", "4b", "6b"], "steam"), (["3y", "5y"], "horse")],
                      rows={0: ["1b", "3b", "5b"], 3: ["1y", "2y", "4y"]})
    state.regular, state.scores = regular, [40, 40]
    mine = [0, 0, 0, 0]
    for col in state.columns[0]:
        mine[col.colour] += col.points * TRAMS["steam"][0]  # x3 (T-FACT-1)
    return state, mine


def _danger(state: TrambahnState, mine: list[int], pair: float) -> tuple[float, list[int]]:
    planner = variant_of({"pair": pair})(state.view(0), Counter())
    planner.p_one = [0.5, 0.0, 0.0, 0.5]
    return planner._danger(planner.start(), mine, 0.0), planner.theirs


def test_t_r_2_the_other_player_may_fill_two_rows_at_3_in_its_next_turn():
    """Its two passengers (T-R-2) can score both rows: with ``pair`` each row counts while at
    most one better row is open to it; without, the second only when the first is not."""
    state, mine = _two_rows_at_3(regular=5)
    plain, theirs = _danger(state, mine, 0.0)
    paired, _ = _danger(state, mine, 1.0)
    blue, yellow = sorted((theirs[0], theirs[3]), reverse=True)
    assert theirs[0] > 0 and theirs[3] > 0 and mine[0] == mine[3] == 0
    assert plain == pytest.approx(0.5 * blue + 0.5 * 0.5 * yellow)
    assert paired == pytest.approx(0.5 * blue + 0.5 * yellow)


def test_t_r_4_two_rows_at_3_that_end_the_game_for_the_other_player_cost_the_game():
    """With two scorings left, both rows scored by the other player in one turn are the 9th
    and 10th scorings: the game ends with it ahead (T-R-4), which costs the game times the
    chance of both (0.25)."""
    state, mine = _two_rows_at_3(regular=8)
    paired, theirs = _danger(state, mine, 1.0)
    margin = theirs[0] + theirs[3]
    blue, yellow = sorted((theirs[0], theirs[3]), reverse=True)
    assert paired == pytest.approx(0.5 * blue + 0.5 * yellow + 0.25 * (1000.0 + margin))
