"""The oracle's Pre-Share Round replayed by our engine, figure for figure (VI, R-PRE-1..3,
R-ORDER-1): the first check of the whole chain export -> set-up -> engine -> view -> figures.

The actions are written by hand in our notation (the mapping module is not written yet).
"""

from __future__ import annotations

import pytest

from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.interop.figures_view import figures_from_view
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.setup18xx import compute_setup
from tramways.g1840.interop.trace import compare, in_view_gaps

from .helpers import cached_trace

PRE_SHARE_ROUND = [  # oracle actions 0-11
    "P1 bid KK 20", "P2 pass", "P2 bid SB 30", "P1 bid SB 35", "P2 pass", "P1 pass",
    "P2 bid HB 40", "P1 pass", "P1 bid SD 50", "P2 bid SD 55", "P1 pass", "P2 order 1",
]


def _session(oracle_dir) -> tuple[Session, list[str]]:
    pytest.importorskip("tramways.g1840.game")
    from tramways.games import get_game

    exp = load_export(oracle_dir / "2player.json")
    site = compute_setup(exp.seed, len(exp.players))
    game = get_game("1840")
    settings = game.normalize_settings({"players": 2, "names": exp.player_names})
    setup = game.setup(settings, exp.seed)
    setup.update({k: v for k, v in site.engine_setup().items() if k != "tram_companies"})
    record = GameRecord(game="1840", version=game.version, settings=settings, seed=exp.seed,
                        setup=setup, actions=[])
    companies = [c if c != "GWStStB" else "GW" for c in site.tram_companies]
    return Session.from_record(record), companies


def test_vi_oracle_pre_share_round_matches_figure_for_figure(oracle_dir):
    session, companies = _session(oracle_dir)
    trace = cached_trace(oracle_dir / "2player.trace.jsonl")
    first = compare(trace.header.initial, figures_from_view(session.state.view(None), companies),
                    skip=in_view_gaps)
    assert first is None, first.message()
    for index, text in enumerate(PRE_SHARE_ROUND):
        session.play(text)
        actual = figures_from_view(session.state.view(None), companies)
        diff = compare(trace.entries[index].figures, actual, index=index, action=text,
                       skip=in_view_gaps)
        assert diff is None, diff.message()
    assert actual["round"] == "SR1" and actual["player:Player 2.cash"] == 605
