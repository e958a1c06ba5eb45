"""The translator and the probe against the oracle (docs/interop.md, the mapping).

These are lower bounds: as the engine gains the 18xx.games switches the probe goes further.
"""

from __future__ import annotations

import pytest

from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.log18xx import EffectiveAction, load_export

from .helpers import cached_trace

pytest.importorskip("tramways.g1840.game")

from tramways.g1840.interop.probe import probe  # noqa: E402
from tramways.g1840.interop.setup18xx import compute_setup  # noqa: E402
from tramways.g1840.interop.translate import Translator, new_session  # noqa: E402


@pytest.fixture
def export(oracle_dir):
    return load_export(oracle_dir / "2player.json")


def test_the_oracle_replays_figure_for_figure(export, oracle_dir):
    """Every processed action of the oracle, translated and applied with the 18xx.games ruleset,
    gives the site's figures (trams being reassigned during a company's CR turn, and the D18
    home marker the site waits for at 75, compared once settled)."""
    result = probe(export, cached_trace(oracle_dir / "2player.trace.jsonl"))
    assert (result.reached, result.failure) == (391, None)
    # the two passes the site made by itself after action 16 ("has no valid actions")
    k = result.played.index("P2 buy WT", result.played.index("P1 buy WT"))
    assert result.played[k:k + 3] == ["P2 buy WT", "P1 pass", "P2 pass"]


def test_ix_the_oracle_replays_legally_without_a_trace(export):
    result = probe(export)
    assert (result.reached, result.failure) == (391, None)
    assert "WT auction L4 20" in result.played and "GW pass" in result.played
    assert "L4 lay H28 6 r4" in result.played and "L5 station F14.0" in result.played
    assert "L5 skip" in result.played  # 136: a Stadtbahn bonus declined
    assert "L15 run" in result.played and "L15 done" in result.played  # 205-206: no tram


def test_translation_of_single_actions(export):
    session = new_session(export, compute_setup(export.seed, 2))
    t = Translator(export, session)

    def eff(action):
        return EffectiveAction(0, 1, None, action)

    assert t.notations(eff(a18.Bid("2006", "player", price=20, company="KK"))) == [
        "P1 bid KK 20"]
    assert t.notations(eff(a18.Choose("621", "player", choice="0"))) == ["P2 order 1"]
    assert t.notations(eff(a18.Par("621", "player", corporation="GWStStB", price=70, row=4,
                                   column=2))) == ["P2 par GW 70"]
    assert t.notations(eff(a18.BuyShares("621", "player", corporation="WT",
                                         shares=("WT_1", "WT_2"), percent=20))) == [
        "P2 buy WT", "P2 buy WT"]
    assert t.notations(eff(a18.Program("621", "player", program="share_pass"))) == []
    assert t.notations(eff(a18.Merge("WT", "corporation", corporation="4"))) == ["?WT done"]
    assert t.notations(eff(a18.Bid("WT", "corporation", price=20, corporation="4"))) == [
        "WT auction L4 20"]
    assert t.notations(eff(a18.Bid("GWStStB", "corporation", price=25,
                                   corporation="4"))) == ["GW bid 25"]
    assert t.notations(eff(a18.LayTile("4", "corporation", hex="H28", tile="6-0",
                                       rotation=4))) == ["L4 lay H28 6 r4"]
    # with nothing of WT's after it, the site's buying step has ended with the purchase
    assert t.notations(eff(a18.BuyTrain("WT", "corporation", train="O1-0", price=300,
                                        variant="O1"))) == ["WT buy orange", "?WT done"]
    assert t.notations(eff(a18.BuyTrain("WT", "corporation", train="O1-0", price=300,
                                        variant="O1")),
                       eff(a18.Pass("WT", "corporation"))) == ["WT buy orange"]


def test_every_oracle_action_maps_to_a_legal_action_with_the_engine_changes_emulated(export):
    """With the engine changes of docs/interop.md emulated in the probe (X-2 order, private returned out
    of turn, private bought after the run, X-8 run not the best at 384) all 391 actions map to
    legal actions and the game ends after CR6."""
    result = probe(export, emulate=True)
    assert (result.reached, result.failure) == (391, None)
    assert result.played[-2:] == ["WT pay 4100", "GW pay 710"]
    assert "L15 run" in result.played  # 205: line 15 has no tram, the site skips its run
    assert "P2 return HB" in result.played  # 112


def test_emulation_cannot_be_checked_against_figures(export, oracle_dir):
    with pytest.raises(ValueError, match="figures cannot be compared"):
        probe(export, cached_trace(oracle_dir / "2player.trace.jsonl"), emulate=True)


def test_final_figures_equal_the_sites(export, oracle_dir):
    """After the replay every final figure equals the site's, wealth included (8351, 7618)."""
    from tramways.g1840.interop.figures_view import figures_from_view
    from tramways.g1840.interop.trace import compare

    result = probe(export)
    session = new_session(export, compute_setup(export.seed, 2))
    for text in result.played:
        session.play(text)
    assert session.state.is_over()
    expected = cached_trace(oracle_dir / "2player.trace.jsonl").entries[-1].figures
    actual = figures_from_view(session.state.view(None), ["GW", "WT"], ["KK", "SB", "HB", "SD"])
    diff = compare(expected, actual)
    assert diff is None, diff.message()
    assert (actual["player:Player 1.value"], actual["player:Player 2.value"]) == (8351, 7618)
