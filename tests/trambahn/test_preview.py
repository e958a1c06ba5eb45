"""The score preview of a passenger (Step 1, T-R-2) or station (T-R-3) from the view alone."""

from __future__ import annotations

import random
from dataclasses import replace

from tramways.bots import make_bot
from tramways.core import Session
from tramways.trambahn.actions import Passenger, Station
from tramways.trambahn.game import GAME
from tramways.trambahn.preview import passenger_preview, preview, station_preview
from tramways.trambahn.view_types import ColumnView, TrambahnView


def _positions(games: int, seed: int):
    """Positions of games between the rule bot and random play (the bot builds long columns)."""
    rng = random.Random(seed)
    bot = make_bot("rule", GAME)
    for g in range(games):
        s = Session.new("trambahn", {}, seed=seed * 100 + g)
        while not s.state.is_over():
            yield s.state
            legal = s.state.legal_actions()
            if s.state.turn == 0:
                s.play(bot.choose(s.state.view(0), legal, rng))
            else:
                s.play(rng.choice(legal))


def test_preview_equals_the_engines_scoring_T_R_2_T_R_3():
    """Every legal passenger and station: the preview's points are the engine's score change."""
    checked = {"scoring": 0, "extra": 0, "plain": 0}
    for state in _positions(6, 11):
        view = state.view(state.turn)
        for action in state.legal_actions():
            p = preview(view, action)
            if p is None:
                continue
            after = state.clone()
            regular = after.regular
            before = list(after.scores)
            after.apply(action)
            gained = [after.scores[i] - before[i] for i in (0, 1)]
            if p["kind"] == "passenger":
                assert p["scoring"] == (after.regular == regular + 1)
                assert p["points"] == gained
                assert p["ends_game"] == (p["scoring"] and after.over)
                checked["scoring" if p["scoring"] else "plain"] += 1
            else:
                expected = [0, 0]
                expected[action.player] = p["points"]
                assert gained == expected
                assert p["extra_tour"] == any(
                    h.kind == "extra" for h in after.history[len(state.history) :]
                )
                checked["extra" if p["extra_tour"] else "plain"] += 1
    assert checked["scoring"] > 20 and checked["extra"] > 0 and checked["plain"] > 100


def _view(rows, columns, regular=0):
    """A view with these rows, columns and regular scorings (the rest as at the start)."""
    return TrambahnView(
        you=0, names=("A", "B"), turn=0, turn_number=1, step=1, passengers_placed=0,
        hand=(), hand_sizes=(0, 0), money_sizes=(0, 0), deck_size=0, discard_size=0,
        rows={c: tuple(rows.get(c, ())) for c in "brgy"},
        columns=tuple(tuple(cols) for cols in columns), display=(), stack=(), scores=(0, 0),
        regular_scorings=regular, history=(), reshuffles=0, over=False, end_reason="",
        result=None)


def _col(colour, stations, conductors=(), points=0, multiplier=0, toured=False):
    return ColumnView(colour=colour, stations=tuple(stations), conductors=tuple(conductors),
                      tram=None, extra_tour=toured, points=points, multiplier=multiplier)


def test_fourth_passenger_scores_both_players_columns_of_its_colour_T_R_2():
    rows = {"b": ["1b", "C", "4b"], "r": [], "g": [], "y": []}
    mine = [_col("b", ["1b", "2b", "7b"], points=4, multiplier=3), _col("r", ["3r"], points=1)]
    theirs = [_col("b", ["5b"], points=1, multiplier=2), _col("b", ["10b"], points=3, multiplier=4)]
    p = passenger_preview(_view(rows, [mine, theirs], regular=9), Passenger(0, "C", "b"))
    assert p == {
        "kind": "passenger",
        "row": "b",
        "count": 4,
        "scoring": True,
        "points": [12, 14],
        "ends_game": True,
    }
    q = passenger_preview(_view(rows, [mine, theirs]), Passenger(0, "3r", "r"))
    assert (q["count"], q["scoring"], q["points"]) == (1, False, [0, 0])


def test_eighth_card_previews_the_extra_tour_once_T_R_3():
    col = _col("g", ["1g", "2g", "3g", "4g", "5g", "6g"], ["C"], points=6, multiplier=2)
    view = _view({}, [[col], []])
    p = station_preview(view, Station(0, "9g", 0))
    assert (p["size"], p["extra_tour"], p["points"]) == (8, True, 16)
    view = _view({}, [[replace(col, extra_tour=True)], []])
    assert station_preview(view, Station(0, "9g", 0))["extra_tour"] is False
    assert station_preview(view, Station(0, "2y", None))["size"] == 1
