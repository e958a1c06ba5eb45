"""Fresh site games that did not import (issue 22, ``benchmarks/oracle_import_volume.py``):
each class of failure kept as the game cut just after its first difference, with the site's
trace (``tests/g1840/interop/volume/``, made by the shared oracle's ``cut.rb``: data, not its
code).  Each imports figure for figure (``--check``); Ruby is not needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.trace import read_trace

HERE = Path(__file__).parent / "volume"

CASES = {
    # fz3302r_7_3p cut after 190: line 13 has no tram, lays, ends its track step and buys a
    # private (the site's BuyCompany step, its run skipped); it can buy no more, so the site
    # ends its turn and line 17 goes on
    "x17_line_without_tram_buys_a_private_and_its_turn_ends":
        "line-without-tram-buys-private-turn-ends",
}


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
def test_volume_case_imports_figure_for_figure(case):
    export = load_export(HERE / f"{case}.json")
    record = import_export(export, read_trace(HERE / f"{case}.trace.jsonl.gz"))
    assert record.meta["status"] == "active"
    assert len(record.actions) > 100
