"""Whole random games: every action keeps the invariants; replay and notation round-trip."""

from __future__ import annotations

import json
import random

from tramways.cli import main
from tramways.core import GameRecord, Session, replay
from tramways.core.selfplay import play_game
from tramways.trambahn.game import GAME
from tramways.trambahn.invariants import check_invariants


def test_random_games_keep_every_invariant():
    """300 random games: 120 cards accounted for, scores equal their history, 10 scorings."""
    reasons = set()
    for seed in range(300):
        out = play_game("trambahn", {}, seed, check=check_invariants)
        assert out.finished
        res = out.result
        assert res["scores"] == [r + e for r, e in zip(res["regular"], res["extra_tours"],
                                                      strict=True)]
        reasons.add(res["reason"])
    assert "tenth scoring" in reasons


def test_notation_round_trips_for_every_legal_action():
    rng = random.Random(4)
    s = Session.new("trambahn", {}, seed=4)
    seen = set()
    while not s.state.is_over():
        for action in s.state.legal_actions():
            text = GAME.format_action(action)
            assert GAME.parse_action(text) == action
            seen.add(text.split()[1])
        s.play(rng.choice(s.state.legal_actions()))
    assert seen == {"passenger", "station", "income", "buy", "end"}


def test_replay_of_a_record_reproduces_the_game(tmp_path):
    out = play_game("trambahn", {}, 17)
    path = tmp_path / "g.json"
    out.session.record.save(path)
    state, log = replay(GameRecord.load(path))
    assert state == out.session.state
    assert log[-1].startswith("Game over")
    text = GAME.text_view(state.view(None))
    assert text.startswith("Game over (") and "Your hand" not in text


def test_cli_new_show_moves_play_selfplay(tmp_path, capsys):
    path = str(tmp_path / "t.json")
    assert main(["new", "trambahn", "--seed", "3", "-o", path]) == 0
    assert main(["show", path, "--as", "1"]) == 0
    out = capsys.readouterr().out
    assert "Your hand (P1)" in out and "Tram display: horse x2 (5)" in out
    assert main(["moves", path, "--json"]) == 2  # hidden information: --as is required
    assert "--as" in capsys.readouterr().err
    assert main(["moves", path, "--as", "1", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert all(m.startswith("P1 passenger") for m in moves)
    assert main(["play", path, moves[0], "P1 end"]) == 0
    assert "P1 ends turn 1" in capsys.readouterr().out
    assert main(["show", path, "--as", "2", "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["turn"] == 1 and len(view["hand"]) == 6
    assert main(["play", path, "P2 end"]) == 2
    assert "illegal: 1:" in capsys.readouterr().err
    assert main(["selfplay", "trambahn", "--games", "3", "--seed", "1", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    assert all(x["finished"] and x["actions"] > 0 and "winner" in x["result"] for x in lines)
