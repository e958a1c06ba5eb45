"""The terminal duel: a whole game against a bot, bad input, undo, quit and resume."""

from __future__ import annotations

import io

from tramways.cli import main
from tramways.core import GameRecord, replay


def _run(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["duel", "trambahn", *args])
    return code, " ".join(capsys.readouterr().out.split())  # rich wraps long lines


def test_duel_plays_a_whole_game_and_shows_the_final_scores(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    code, out = _run(monkeypatch, capsys, "1\n" * 3000, "--bot", "random", "--seed", "3",
                     "--record", str(path))
    assert code == 0
    assert "Final scores" in out and "Game over:" in out and "Your hand" in out
    state, _ = replay(GameRecord.load(path))
    assert state.is_over()


def test_duel_answers_bad_input_and_asks_again(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    answers = ["", "abc", "999", "passenger 10z", "P2 end", "end", "h", "u", "1", "q"]
    code, out = _run(monkeypatch, capsys, "\n".join(answers) + "\n", "--seed", "5",
                     "--record", str(path))
    assert code == 0
    assert "I do not understand that" in out
    assert "Choose a number from 1 to" in out
    assert "You can only move for yourself" in out
    assert "Not allowed (1)" in out  # ending the turn before any passenger
    assert "Nothing of yours to undo yet" in out
    assert "Saved the record" in out
    assert len(GameRecord.load(path).actions) == 1


def test_duel_undo_takes_back_the_bot_moves_too(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    # passenger, end turn (the bot then plays its whole turn), undo -> back before "end"
    code, out = _run(monkeypatch, capsys, "1\nend\nu\nq\n", "--seed", "5", "--record", str(path))
    assert code == 0 and "took back" in out
    actions = GameRecord.load(path).actions
    assert len(actions) == 1 and actions[0].startswith("P1 passenger")


def test_duel_end_of_input_quits_cleanly_and_resumes(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    code, out = _run(monkeypatch, capsys, "1\n", "--bot", "rule", "--seed", "9",
                     "--record", str(path), "--seat", "2")
    assert code == 0 and "Saved the record" in out
    record = GameRecord.load(path)
    assert record.meta["duel"] == {"human": 1, "bot": "rule"}
    assert record.settings["names"] == ["Bot (rule)", "You"]
    played = len(record.actions)
    assert played > 1  # the bot's first turn, then our passenger
    code, out = _run(monkeypatch, capsys, "q\n", "--record", str(path))
    assert code == 0 and f"Resuming {path} ({played} actions played)" in out
