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


PPO = EXAMPLE.parent / "train_ppo_trambahn.py"


def test_ppo_example_trains_briefly_and_reports_one_json_object(monkeypatch, capsys):
    """A few seconds of masked PPO (the ``[train]`` extra; skipped without PyTorch)."""
    pytest.importorskip("torch")
    import json

    monkeypatch.setattr(sys, "argv", [str(PPO), "--minutes", "0.02", "--imitation-minutes",
                                      "0.01", "--envs", "2", "--rollout", "16",
                                      "--minibatch", "16", "--eval-games", "2"])
    runpy.run_path(str(PPO), run_name="__main__")
    result = json.loads(capsys.readouterr().out)
    assert result["updates"] >= 1 and result["eval_games"] == 2
    assert 0.0 <= result["win_rate_vs_rule"] <= 1.0
