"""The example script plays the rule bot against random actions through the environment."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rule_vs_random.py"


def test_rule_vs_random_example_prints_the_win_rate(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--games", "4", "--seed", "3"])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    m = re.fullmatch(r"trambahn: rule beats random in (\d+\.\d)% of 4 games .*\n", out)
    assert m and float(m.group(1)) >= 75.0  # rule beat random in every one of 1,000 games
