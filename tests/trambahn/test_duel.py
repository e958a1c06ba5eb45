"""The terminal duel (issue 11, "The terminal duel, as a player expects"): a whole game against a
bot, every screen within 80x24, autosave after every move, help, the row 3-of-4 warning, the
undo policy of ``tramways.core.undo`` and resuming with ``--seat``/``--bot``."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from tramways.cli import main
from tramways.cli.duel import Duel
from tramways.core import GameRecord, Session, replay
from tramways.core.undo import played_history

CLEAR = "\x1b[2J\x1b[H"


def _run(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["duel", "trambahn", *args])
    return code, " ".join(capsys.readouterr().out.split())  # rich wraps long lines


def _duel(path: Path, answers: Iterator[str] | Callable[[Duel], str], human: int = 0,
          bot: str = "random", seed: int = 3) -> tuple[Duel, io.StringIO]:
    """A duel on an 80-column terminal (clear-screen codes, no colours) read from ``answers``."""
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    names = ["You", f"Bot ({bot})"] if human == 0 else [f"Bot ({bot})", "You"]
    session = Session.new("trambahn", {"names": names}, seed,
                          meta={"duel": {"human": human, "bot": bot}})
    holder: list[Duel] = []

    def ask(prompt: str) -> str:
        if callable(answers):
            return answers(holder[0])
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    duel = Duel(session, human, bot, console, path, ask=ask)
    holder.append(duel)
    return duel, out


def _screens(out: io.StringIO) -> list[list[str]]:
    return [s.rstrip("\n").split("\n") for s in out.getvalue().split(CLEAR)[1:]]


def test_duel_plays_a_whole_game_and_shows_the_final_scores(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    code, out = _run(monkeypatch, capsys, "1\n" * 3000, "--bot", "random", "--seed", "3",
                     "--record", str(path))
    assert code == 0
    assert "Game over:" in out and "Your hand" in out and "total" in out
    assert f"the game is saved to {path} after every move" in out
    state, _ = replay(GameRecord.load(path))
    assert state.is_over()


def test_every_screen_of_a_whole_game_fits_80x24(tmp_path):
    """Each screen (table, log, choices, message) is at most 23 lines of at most 80 columns,
    so the prompt is the 24th line; help and refusals included."""
    rng = random.Random(4)
    script = iter(["h", "", "u", "999"])

    def answer(duel: Duel) -> str:
        """First help, a refused undo and a bad number; then any legal choice, at random."""
        for scripted in script:
            return scripted
        return str(rng.randint(1, len(duel.session.state.legal_actions(duel.human))))

    duel, out = _duel(tmp_path / "d.json", answer, seed=11, bot="rule")
    assert duel.run() == 0
    screens = _screens(out)
    assert len(screens) > 50
    for screen in screens:
        assert len(screen) <= 23, "\n".join(screen)
        assert max(len(line) for line in screen) <= 80, "\n".join(screen)
    assert any("Game over:" in line for line in screens[-1])
    assert any(line.startswith("You ") and "total" not in line for line in screens[-1])


def test_the_record_is_saved_after_every_move(tmp_path):
    """Autosave: whenever the person is asked, the file holds every move played so far."""
    path = tmp_path / "auto.json"
    seen: list[int] = []

    def answer(duel: Duel) -> str:
        assert GameRecord.load(path).actions == duel.session.record.actions
        seen.append(len(duel.session.record.actions))
        if len(seen) > 40:
            raise EOFError
        return "1"

    duel, _ = _duel(path, answer, human=1)
    assert duel.run() == 0
    assert seen[0] > 0  # seat 2: the bot's first turn was saved before we were asked
    assert len(set(seen)) == len(seen) > 30


def test_help_explains_the_turn_points_trams_extra_tours_and_the_end(tmp_path):
    duel, out = _duel(tmp_path / "h.json", iter(["h"]))
    duel.run()
    help_screen = _screens(out)[1]
    text = " ".join(" ".join(help_screen).split())
    for words in ("1 Passengers", "2 Stations", "3 Income", "4 Trams", "5 End turn",
                  "Victory points", "times its tram's value", "horse x2 (5 money)",
                  "Extra Tour", "8th card", "10th scoring", "bigger money pile"):
        assert words in text
    assert len(help_screen) <= 23 and max(len(line) for line in help_screen) <= 80


def test_a_passenger_making_a_row_3_of_4_is_marked_and_warned(tmp_path):
    """Step 1: a row one short of its 4th passenger may be scored by the other player."""
    duel, out = _duel(tmp_path / "w.json", iter(["1"] * 60), seed=11, bot="rule")
    duel.run()
    text = out.getvalue()
    assert "3/4!" in text
    warned = re.findall(r"Warning: the (\w+) row has 3 of 4 passengers", " ".join(text.split()))
    assert warned and set(warned) <= {"blue", "red", "green", "yellow"}
    assert "Bot (rule) may fill it and score it" in " ".join(text.split())


def test_undo_within_the_turn_is_logged_and_stops_at_the_start(tmp_path, monkeypatch, capsys):
    """The person takes back their own moves of this turn, one by one; each undo is logged
    (on screen and in the record's meta)."""
    path = tmp_path / "u.json"
    code, out = _run(monkeypatch, capsys, "1\n1\nu\nu\nu\nq\n", "--seed", "5",
                     "--record", str(path))
    assert code == 0
    assert "You take back: passenger 6g" in out and "You take back: passenger 3r" in out
    assert "Cannot take that back: nothing has been played yet." in out
    record = GameRecord.load(path)
    assert record.actions == []
    assert [u["at"] for u in record.meta["duel"]["undone"]] == [1, 0]


def test_undo_after_ending_the_turn_is_refused(tmp_path, monkeypatch, capsys):
    """Ending the turn draws cards (hidden information) and the bot acts: no undo then, so
    the next draws can never be seen and taken back."""
    path = tmp_path / "duel.json"
    code, out = _run(monkeypatch, capsys, "1\nend\nu\nq\n", "--seed", "5", "--record", str(path))
    assert code == 0
    assert "Cannot take that back: another player has acted since your last action." in out
    actions = GameRecord.load(path).actions
    assert actions[:2] == [actions[0], "P1 end"] and actions[0].startswith("P1 passenger")
    assert len(actions) > 2 and all(a.startswith("P2 ") for a in actions[2:])


def test_the_history_marks_ending_a_turn_as_revealing(tmp_path):
    session = Session.new("trambahn", {}, 5)
    for text in ("P1 passenger 3r", "P1 end"):
        session.play(text)
    played = played_history(session.record)
    assert [(p.seat, p.reveals) for p in played] == [(0, False), (0, True)]


def test_duel_answers_bad_input_and_asks_again(tmp_path, monkeypatch, capsys):
    path = tmp_path / "duel.json"
    answers = ["", "abc", "999", "passenger 10z", "P2 end", "end", "h", "", "u", "1", "q"]
    code, out = _run(monkeypatch, capsys, "\n".join(answers) + "\n", "--seed", "5",
                     "--record", str(path))
    assert code == 0
    assert "I do not understand that" in out
    assert "Choose a number from 1 to" in out
    assert "You can only move for yourself" in out
    assert "Not allowed (1)" in out  # ending the turn before any passenger
    assert "Cannot take that back: nothing has been played yet." in out
    assert "Saved the record" in out
    assert len(GameRecord.load(path).actions) == 1


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
    # the log goes on where it stopped: the bot's first turn, then our passenger
    assert "Bot (rule): passenger" in out and "You: passenger" in out
    # the same seat and bot, named again, are fine
    code, out = _run(monkeypatch, capsys, "q\n", "--record", str(path), "--seat", "2",
                     "--bot", "rule")
    assert code == 0 and "Resuming" in out


@pytest.mark.parametrize(("option", "words"), [
    (["--seat", "1"], "you play seat 2 in this duel, not seat 1: resume without --seat"),
    (["--bot", "search"], "this duel is against bot 'rule', not 'search': resume without --bot"),
    (["--seed", "4"], "this duel has seed 9, not 4: resume without --seed"),
])
def test_resuming_refuses_another_seat_bot_or_seed(tmp_path, monkeypatch, capsys, option, words):
    path = tmp_path / "duel.json"
    _run(monkeypatch, capsys, "1\n", "--bot", "rule", "--seed", "9", "--record", str(path),
         "--seat", "2")
    before = path.read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["duel", "trambahn", "--record", str(path), *option]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: {path}: {words}"
    assert path.read_text() == before


def test_resuming_a_record_without_a_duel_honours_seat_and_bot(tmp_path, monkeypatch, capsys):
    """A record made by ``tramways new trambahn`` has no duel yet: the options are taken and
    remembered in its meta."""
    path = tmp_path / "plain.json"
    assert main(["new", "trambahn", "--seed", "6", "-o", str(path)]) == 0
    code, out = _run(monkeypatch, capsys, "1\nq\n", "--record", str(path), "--seat", "2",
                     "--bot", "random")
    assert code == 0 and "Resuming" in out
    record = GameRecord.load(path)
    assert record.meta["duel"]["human"] == 1 and record.meta["duel"]["bot"] == "random"
    assert record.actions[0].startswith("P1 ") and record.actions[-1].startswith("P2 passenger")


def test_the_default_record_is_named_by_the_seed_and_resumed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out = _run(monkeypatch, capsys, "1\nq\n", "--seed", "8")
    assert code == 0
    assert "the game is saved to trambahn-duel-8.json after every move" in out
    assert len(GameRecord.load(tmp_path / "trambahn-duel-8.json").actions) == 1
    code, out = _run(monkeypatch, capsys, "q\n", "--seed", "8")
    assert "Resuming trambahn-duel-8.json (1 actions played)" in out
