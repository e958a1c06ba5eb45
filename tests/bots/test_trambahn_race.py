"""The Trambahn search that plays the race for the last scorings to the end of the game
(:mod:`tramways.bots.trambahn_race`)."""

from __future__ import annotations

import random

from tests.bots.hidden_cards import hidden_swapped
from tramways.bots import make_bot
from tramways.bots.match import play_match
from tramways.bots.trambahn_race import (
    RaceBot,
    held_back,
    outcome,
    passenger_key,
    punish,
    switch_verdict,
)
from tramways.core import Session
from tramways.trambahn.actions import Passenger
from tramways.trambahn.cards import IDS_BY_FACE
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.game import GAME
from tramways.trambahn.invariants import check_invariants
from tramways.trambahn.position import Column

SMALL = {"samples": 2, "top": 3, "start": 5}
"""A small budget that checks the turns from the 5th regular scoring on."""


def _late_positions(seed: int, count: int) -> list[TrambahnState]:
    """Positions of a rule-against-rule game from its 6th regular scoring on."""
    state = Session.new("trambahn", {}, seed=seed).state
    rule = make_bot("rule", GAME)
    rng = random.Random(seed)
    found: list[TrambahnState] = []
    while not state.is_over() and len(found) < count:
        if state.regular >= 6 and state.step == 1 and not state.passengers:
            found.append(state.clone())
        state.apply(rule.choose(state.view(state.turn), state.legal_actions(), rng))
    return found


def test_t_r_4_the_race_search_is_reproducible_under_a_seed():
    scores = []
    for _ in range(2):
        bots = [make_bot("search", GAME, race=SMALL), make_bot("rule", GAME)]
        session = play_match("trambahn", bots, 21)
        assert session.state.is_over()
        scores.append(session.state.result()["scores"])
    assert scores[0] == scores[1]


def _assert_hidden_cards_change_no_choice(options: dict, seed: int, count: int) -> None:
    """Changing only hidden cards (the other hand against the draw pile) changes no choice of
    a ``RaceBot(**options)`` at ``count`` late positions of the series ``seed``."""
    for state in _late_positions(seed, count):
        other = hidden_swapped(state)
        a = RaceBot(GAME, **options).choose(state.view(state.turn), state.legal_actions(),
                                            random.Random(5))
        b = RaceBot(GAME, **options).choose(other.view(other.turn), other.legal_actions(),
                                            random.Random(5))
        assert a == b


def test_the_race_search_reads_its_view_alone_not_the_hidden_cards():
    _assert_hidden_cards_change_no_choice(SMALL, 31, 4)


def test_the_race_search_plays_whole_turns_and_follows_them():
    state = Session.new("trambahn", {}, seed=7).state
    bot = RaceBot(GAME, **SMALL)
    other = make_bot("rule", GAME)
    rng = random.Random(3)
    explanations = []
    while not state.is_over():
        view = state.view(state.turn)
        chooser = bot if state.turn == 0 else other
        action = chooser.choose(view, state.legal_actions(), rng)
        if state.turn == 0:
            explanations.append(bot.explanation)
        state.apply(action)
    checked = [e for e in explanations if e.startswith("checked")]
    assert len(checked) >= 4
    assert all(e.startswith(("the rest of the planned turn", "only action", "the planner's",
                             "checked")) for e in explanations)


def _blue_row_at_3(yellow: bool = False) -> TrambahnState:
    """Seat 0 to move: the blue row at 3, seat 0's blue column (2, 6, 9, electric tram) and a
    hand of 1r 7b 2b 8y 3g 9g; with ``yellow`` also the yellow row at 3 (1, 2, 3) and seat
    0's yellow column (4, 5, horse tram)."""
    state = Session.new("trambahn", {}, seed=11).state
    pool = {f: list(ids) for f, ids in IDS_BY_FACE.items()}
    state.rows[0] = [pool["3b"].pop(), pool["4b"].pop(), pool["5b"].pop()]
    columns = [(0, ("2b", "6b", "9b"), "electric")]
    if yellow:
        state.rows[3] = [pool["1y"].pop(), pool["2y"].pop(), pool["3y"].pop()]
        columns.append((3, ("4y", "5y"), "horse"))
    state.columns = [[], []]
    for colour, faces, tram in columns:
        col = Column(colour, [])
        for f in faces:
            col.add(pool[f].pop())
        col.tram = tram
        state.stack.remove(tram)
        state.columns[0].append(col)
    hand = [pool[f].pop() for f in ("1r", "7b", "2b", "8y", "3g", "9g")]
    taken = set(hand) | {c for row in state.rows for c in row}
    taken |= {c for col in state.columns[0] for c in col.stations}
    rest = [c for c in state.deck + state.hands[0] + state.hands[1] if c not in taken]
    rest += [c for c in state.money[0] + state.money[1] if c not in taken]
    state.hands = [hand, rest[:6]]
    state.money = [rest[6:18], rest[18:33]]
    state.deck, state.discard = rest[33:], []
    check_invariants(state)
    return state


def test_t_r_2_play_outs_fill_a_row_at_3_that_favours_the_player_to_move():
    state = _blue_row_at_3()
    col = state.columns[0][0]
    expected = col.score
    assert expected > 0
    punish(state)
    assert state.regular == 1 and state.scores == [expected, 0]
    assert state.rows[0] == [] and state.passengers == 1


def test_t_r_2_play_outs_with_double_fill_two_rows_at_3_in_one_turn():
    """Two rows at 3 favouring the player to move (blue and yellow): ``punish`` fills the
    better alone; with ``double`` the second passenger fills the other (two scorings)."""
    single, double = _blue_row_at_3(yellow=True), _blue_row_at_3(yellow=True)
    blue, yellow = (col.score for col in single.columns[0])
    assert blue > yellow > 0
    punish(single)
    assert single.regular == 1 and single.scores == [blue, 0] and len(single.rows[3]) == 3
    punish(double, double=True)
    assert double.regular == 2 and double.scores == [blue + yellow, 0]
    assert double.rows[0] == [] and double.rows[3] == [] and double.passengers == 2


def test_t_r_4_outcome_is_points_then_the_money_pile():
    state = Session.new("trambahn", {}, seed=3).state
    state.scores = [50, 50]
    state.money = [state.money[0][:3], state.money[1][:5]]
    assert outcome(state, 0) == 0.0 and outcome(state, 1) == 1.0
    state.scores = [51, 50]
    assert outcome(state, 0) == 1.0


def test_the_race_search_beats_the_rule_bot():
    """A loose smoke test of strength (the benchmark: ``benchmarks/trambahn_whole_turn.py``)."""
    wins = 0.0
    for g in range(4):
        bots = [make_bot("search", GAME, race={"samples": 2, "top": 3}), make_bot("rule", GAME)]
        if g % 2:
            bots.reverse()
        result = play_match("trambahn", bots, 400 + g).state.result()
        seat = g % 2
        wins += 1.0 if result["winner"] == seat else 0.5 if result["winner"] is None else 0.0
    assert wins >= 3


def test_t_r_4_the_default_search_is_the_race_checked_from_the_5th_scoring():
    """The default ``search`` (and so ``strong``) is the race search with the other player's
    next passengers weighed 0.4 and an Extra Tour's share 0.6 (T-R-3), its turns checked from
    the 5th regular scoring on;
    ``flat=True`` is the previous flat Monte Carlo."""
    from tramways.bots.search import RACE, SearchBot
    from tramways.bots.trambahn_turns import TurnPlanner

    bot = make_bot("search", GAME)
    assert isinstance(bot, SearchBot) and isinstance(bot.race, RaceBot)
    assert bot.race.start == 5
    assert RACE == {"start": 5, "weights": {"danger": 0.4, "tour": 0.6}}
    assert bot.race.planner.danger == 0.4 and TurnPlanner.danger == 1.0
    assert bot.race.planner.tour == 0.6 and TurnPlanner.tour == 0.9
    assert make_bot("search", GAME, flat=True).race is None
    assert make_bot("search", GAME, whole_turn=True).race is None
    assert make_bot("search", GAME, race={}).race.start == 7
    strong = make_bot("strong", GAME)
    assert strong.name == "strong"


def test_the_default_search_is_reproducible_and_reads_its_view_alone():
    """Seeded play-outs: the same game twice; hidden cards swapped change no choice."""
    scores = [play_match("trambahn", [make_bot("search", GAME), make_bot("rule", GAME)], 27)
              .state.result()["scores"] for _ in range(2)]
    assert scores[0] == scores[1]
    for state in _late_positions(33, 3):
        other = hidden_swapped(state)
        a = make_bot("search", GAME).choose(state.view(state.turn), state.legal_actions(),
                                            random.Random(5))
        b = make_bot("search", GAME).choose(other.view(other.turn), other.legal_actions(),
                                            random.Random(5))
        assert a == b


def test_play_outs_punish_for_the_other_player_with_its_fill_rate(monkeypatch):
    """``rate`` is the chance that the other player fills an open row at the start of its
    turn in a play-out (T-R-2); the bot's own side (``me``) always does."""
    from tramways.bots import trambahn_race

    original = trambahn_race.punish
    turns: list[int] = []

    def counted(state: TrambahnState, double: bool = False) -> None:
        turns.append(state.turn)
        original(state, double)

    monkeypatch.setattr(trambahn_race, "punish", counted)
    for rate, mine_only in ((0.0, True), (1.0, False)):
        turns.clear()
        state = Session.new("trambahn", {}, seed=11).state
        trambahn_race.play_out(state, 0, False, rate=rate, rng=random.Random(4))
        assert state.is_over() and 0 in turns
        assert (set(turns) == {0}) is mine_only


def test_t_r_2_a_held_back_turn_places_no_passenger_that_fills_a_row():
    """``hold``: the blue row at 3 is left open (no 4th passenger, T-R-2: 7b and 2b are not
    placed); the other rows still take their cards."""
    state = _blue_row_at_3()
    rows = sorted(a.row for a in state.legal_actions() if isinstance(a, Passenger))
    kept = sorted(a.row for a in held_back(state) if isinstance(a, Passenger))
    assert rows == ["b", "b", "g", "g", "r", "y"]
    assert kept == ["g", "g", "r", "y"]


def test_play_outs_hold_back_only_the_other_players_turns_drawn_as_not_punishing(monkeypatch):
    """With ``rate`` 0 and ``hold``, every turn of the other player (seat 1) is held back,
    none of ``me``'s; with ``rate`` 1 none is."""
    from tramways.bots import trambahn_race

    original = trambahn_race.held_back
    turns: list[int] = []

    def counted(state: TrambahnState) -> list:
        turns.append(state.turn)
        return original(state)

    monkeypatch.setattr(trambahn_race, "held_back", counted)
    for rate, held in ((0.0, {1}), (1.0, set())):
        turns.clear()
        state = Session.new("trambahn", {}, seed=11).state
        trambahn_race.play_out(state, 0, False, rate=rate, rng=random.Random(4), hold=True)
        assert state.is_over() and set(turns) == held


def test_the_race_search_with_the_fill_habit_reads_its_view_alone():
    """``punish_habit`` (with and without ``hold``): the fill rate is read from the bot's own
    views; hidden cards swapped change no choice."""
    for options in ({**SMALL, "punish_habit": 1.4}, {**SMALL, "punish_habit": 1.4, "hold": True}):
        _same_choices_with_hidden_cards_swapped(options)


def _same_choices_with_hidden_cards_swapped(options: dict) -> None:
    for state in _late_positions(35, 3):
        other = hidden_swapped(state)
        bot = RaceBot(GAME, **options)
        a = bot.choose(state.view(state.turn), state.legal_actions(), random.Random(5))
        b = RaceBot(GAME, **options).choose(other.view(other.turn), other.legal_actions(),
                                            random.Random(5))
        assert a == b and bot.fill is not None and 0.0 < bot.fill.rate() <= 1.0


def test_t_r_2_fill_first_puts_the_turn_filling_the_favoured_row_first():
    """``fill_first``: the blue row at 3 favours seat 0 (its blue column scores, T-R-2), so the
    planner's best turn whose passenger fills it becomes the reference candidate, even when
    it was ranked last; the other turns keep their order."""
    state = _blue_row_at_3()
    view = state.view(0)
    bot = RaceBot(GAME, top=50, start=0, fill_first=True)
    ranked = list(reversed(RaceBot(GAME, top=50, start=0).candidates(view)))
    fills = [i for i, (_, d) in enumerate(ranked)
             if [a.row for a in passenger_key(d)] == ["b"]]
    best = fills[-1]  # the list is reversed: the last filling turn is the planner's best
    moved = bot.filling_first(view, ranked)
    assert [a.row for a in passenger_key(moved[0][1])] == ["b"]
    assert moved[0] == ranked[best] and moved[0][0] == max(ranked[i][0] for i in fills)
    assert moved[1:] == ranked[:best] + ranked[best + 1:]
    first = bot.candidates(view)[0][1]
    assert [a.row for a in passenger_key(first)] == ["b"]


def test_fill_first_changes_nothing_before_the_start_scoring():
    state = _blue_row_at_3()
    view = state.view(0)
    plain = RaceBot(GAME, top=50, start=5).candidates(view)
    assert RaceBot(GAME, top=50, start=5, fill_first=True).candidates(view) == plain


def test_play_outs_own_side_fills_with_its_own_fill_chance(monkeypatch):
    """``own_fill``: with the chance 0 the bot's own side (``me``, seat 0) never punishes and
    every one of its turns is held back (it fills no row, T-R-2); with 1 it always punishes
    and none is held back (the default)."""
    from tramways.bots import trambahn_race

    punished: list[int] = []
    held: list[int] = []
    original_punish, original_held = trambahn_race.punish, trambahn_race.held_back

    def counted_punish(state: TrambahnState, double: bool = False) -> None:
        punished.append(state.turn)
        original_punish(state, double)

    def counted_held(state: TrambahnState) -> list:
        held.append(state.turn)
        return original_held(state)

    monkeypatch.setattr(trambahn_race, "punish", counted_punish)
    monkeypatch.setattr(trambahn_race, "held_back", counted_held)
    for own_rate, me_punishes, me_held in ((0.0, False, True), (1.0, True, False)):
        punished.clear()
        held.clear()
        state = Session.new("trambahn", {}, seed=11).state
        trambahn_race.play_out(state, 0, False, rng=random.Random(4), own_rate=own_rate)
        assert state.is_over() and 1 in punished and 1 not in held
        assert (0 in punished) is me_punishes and (0 in held) is me_held


def test_the_race_search_with_fill_first_or_own_fill_reads_its_view_alone():
    for options in ({**SMALL, "fill_first": True}, {**SMALL, "own_fill": 0.6}):
        _assert_hidden_cards_change_no_choice(options, 35, 3)


def test_switch_verdict_without_confidence_is_the_plain_switch_rule():
    """The best mean replaces the planner's turn (candidate 0) when it is ``switch`` a sample
    ahead; the earlier candidate wins a tie; nothing is ever close."""
    planner, ahead, level = [0.0] * 4, [1.0, 1.0, 0.0, 0.0], [0.0] * 4
    assert switch_verdict([planner, ahead], 0.06, 0.0) == (1, False)
    assert switch_verdict([planner, level, ahead, ahead], 0.06, 0.0) == (2, False)
    assert switch_verdict([planner, ahead], 0.6, 0.0) == (0, False)  # 0.5 a sample < 0.6
    assert switch_verdict([ahead, planner], 0.06, 0.0) == (0, False)


def test_switch_verdict_with_confidence_asks_for_standard_errors_and_calls_it_close():
    """Differences 1, -1, 1, 0: mean 0.25, standard error 0.479 (0.52 of them): enough at
    ``confidence`` 0.5, close at 1.0 (the planner's turn until more samples settle it)."""
    planner, noisy = [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0]
    assert switch_verdict([planner, noisy], 0.06, 0.5) == (1, False)
    assert switch_verdict([planner, noisy], 0.06, 1.0) == (0, True)
    assert switch_verdict([planner, noisy], 0.3, 1.0) == (0, False)  # below switch: settled
    steady = [1.0, 2.0, 1.0, 1.0]  # every difference 1: no spread
    assert switch_verdict([planner, steady], 0.06, 3.0) == (1, False)


def test_a_close_check_draws_more_samples_up_to_most_samples(monkeypatch):
    """``confidence``: while the call is close the check plays ``samples`` more play-outs of
    every candidate, and stops at ``most_samples``."""
    from tramways.bots import trambahn_race

    calls: list[bool] = []
    monkeypatch.setattr(trambahn_race, "switch_verdict",
                        lambda per, switch, confidence: calls.append(True) or (0, True))
    state = _late_positions(33, 1)[0]
    bot = RaceBot(GAME, samples=2, top=3, start=0, confidence=1.0, most_samples=6)
    view = state.view(state.turn)
    bot.choose(view, state.legal_actions(), random.Random(3))
    assert len(calls) == 3
    assert "x 6 play-outs" in bot.explanation


def test_the_race_search_with_confidence_or_double_reads_its_view_alone():
    for options in ({**SMALL, "confidence": 1.0, "most_samples": 6}, {**SMALL, "double": True}):
        _assert_hidden_cards_change_no_choice(options, 37, 3)
