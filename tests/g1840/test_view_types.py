"""The typed 1840 view (:mod:`tramways.g1840.view_types`): one JSON form, read back unchanged."""

from __future__ import annotations

import json

from tramways.core import View, view_json
from tramways.g1840.view import view as build
from tramways.g1840.view_types import LineAuctionView, PrivateAuctionView, View1840

from .test_game_support import CR1_SCRIPT, make, play, two_player_after_pre


def _round_trips(view: View1840) -> None:
    wire = json.loads(json.dumps(view.to_json()))
    assert View1840.from_json(wire) == view
    assert View1840.from_json(wire).to_json() == wire


def test_the_view_reads_back_from_its_json_in_every_kind_of_round() -> None:
    """PRE with a private auction (R-PRE-1), SR, CR with a line auction (VIII.6), LR with a
    line turn (R-LR-1): ``from_json(to_json())`` is the same view."""
    s = make(2, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18])
    _round_trips(build(s, None))
    play(s, "P1 bid KK 20")
    assert isinstance(build(s, None).round_info.auction, PrivateAuctionView)
    _round_trips(build(s, 1))
    s = two_player_after_pre()
    _round_trips(build(s, 0))
    play(s, "P2 par WT 100", "P1 par SJE 70", "P2 pass", "P1 pass")
    for text in CR1_SCRIPT:
        _round_trips(build(s, None))
        play(s, text)
        auction = build(s, None).round_info.auction
        if text == "WT auction L1 20":
            assert auction == LineAuctionView(line=1, high=20, high_company="WT", turn="SJE")
    v = build(s, None)
    assert v.round == "LR1a" and v.round_info.line_turn is not None
    assert v.turn is not None and v.turn.line == v.round_info.line_turn.line == 1
    _round_trips(v)


def test_the_wire_json_is_the_typed_views_to_json() -> None:
    """What the server and ``tramways show --json`` send (``core.view_json``)."""
    s = two_player_after_pre()
    assert isinstance(s.view(1), View)
    assert view_json(s.view(1)) == build(s, 1).to_json()
    assert view_json(s.view(1))["viewer"] == 1 and view_json(s.view(None))["viewer"] is None
