"""The oracle's cases (``../shared/oracle/cases``: exports cut just after a first difference
found on fresh site games, issue 22) import figure for figure, and their re-export loads in the
site's engine to the same figures (``export(import(r))``).  Run where ``ruby`` and the shared
oracle are; skipped elsewhere."""

from __future__ import annotations

import json

import pytest

from tramways.g1840.interop.export18xx import export_record
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.probe import probe
from tramways.g1840.interop.roundtrip import oracle_dir, same_game, trace_with_oracle
from tramways.g1840.interop.trace import read_trace

ORACLE = oracle_dir()
pytestmark = pytest.mark.skipif(ORACLE is None, reason="the 18xx.games oracle needs ruby")

CASES = {
    "x17_crd_buying_turn_ended_by_purchase_and_reassignment": "i-crd-turn-after-buy",
    "x17_line_turn_ended_by_scrapping_its_only_tram": "i-line-scrap-next-lr",
    "x17_line_turn_ended_after_buying_a_private": "i-line-buy-company-turn-end",
    "x21_two_circle_tile_lifts_another_lines_home_marker": "s-marker-lift-choice",
    "x20_red_offboard_takes_the_second_home_marker": "e-x20-home-waits-offboard",
    "x16_choice_back_to_the_opener_after_a_forced_pass": "s-pre-elim-order",
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_oracle_case_imports_and_reexports_to_the_sites_figures(tmp_path, case):
    assert ORACLE is not None
    source = ORACLE / "cases" / f"{case}.json"
    site = trace_with_oracle(source, tmp_path / "site", ORACLE)
    record = import_export(load_export(source), read_trace(site.trace))  # --check
    again = tmp_path / f"{case}-again.json"
    again.write_text(json.dumps(export_record(record)), encoding="utf-8")
    run = trace_with_oracle(again, tmp_path / "again", ORACLE)
    assert run.error is None
    result = probe(load_export(again), read_trace(run.trace))
    assert result.failure is None and result.session is not None
    assert same_game(record, result.session.record) is None
