"""The play-outs' lazily built view (``bots/g1840_playout.PositionView``) answers what the
engine's view does, field for field, at every position of a game (and the board's cache key
read from the position is the view's), and the garbage collector pause restores the
collector's state."""

from __future__ import annotations

import dataclasses
import gc
import random

from tramways.bots.g1840_model import board_key
from tramways.bots.g1840_playout import PositionView, gc_paused, position_board_key
from tramways.bots.g1840_rule import Rules1840
from tramways.core import Session
from tramways.core.actions import moves
from tramways.g1840.view_types import View1840

FIELDS = [f.name for f in dataclasses.fields(View1840)]


def test_position_view_equals_the_engines_view_at_every_position() -> None:
    session = Session.new("1840", {"players": 3}, 11)
    rng = random.Random(11)
    state = session.state
    checked = 0
    while not state.is_over() and checked < 400:
        seat = state.current_players()[0]
        full = state.view(seat)
        lazy = PositionView(state, seat)
        for name in FIELDS:
            got = getattr(lazy, name)
            want = getattr(full, name)
            if name == "players":
                got = tuple(got[s] for s in range(len(got)))
                assert lazy.players[-1] == want[-1]
            assert got == want, name
        assert lazy.round == full.round
        for cid in [*full.companies, *full.stadtbahn]:
            assert lazy.price(cid) == full.price(cid)
        for line in range(1, 25):
            assert lazy.company_of_line(line) == full.company_of_line(line)
        assert position_board_key(state) == board_key(full)
        legal = moves(state.legal_actions(seat))
        session.play(Rules1840(full, legal, 2, rng).decide()[0], seat=seat)
        state = session.state
        checked += 1
    assert checked == 400


def test_gc_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()
