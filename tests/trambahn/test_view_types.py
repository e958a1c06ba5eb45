"""The typed Trambahn view (:mod:`tramways.trambahn.view_types`): one JSON form, read back
unchanged, for each seat and a spectator, through scorings (T-R-2), Extra Tours (T-R-3) and
the end (T-R-4)."""

from __future__ import annotations

import json
import random

from tramways.core import Session
from tramways.games import get_game
from tramways.trambahn.view_types import TrambahnView
from tramways.trambahn.views import build_view as build


def test_the_view_reads_back_from_its_json_for_every_seat_to_the_end() -> None:
    game = get_game("trambahn")
    session = Session.new("trambahn", {}, seed=5)
    state = session.state
    rng = random.Random(5)
    kinds: set[str] = set()
    while True:
        for seat in (None, 0, 1):
            view = build(state, seat)
            wire = json.loads(json.dumps(view.to_json()))
            assert TrambahnView.from_json(wire) == view
            assert state.view(seat) == view
            assert (view.hand is None) == (seat is None)
        kinds |= {h.kind for h in view.history}
        if state.is_over():
            break
        player = state.current_players()[0]
        state.apply(game.selfplay_policy(state, player, rng), player)
    assert view.over and view.result is not None
    assert view.result.scores == view.scores and "regular" in kinds
