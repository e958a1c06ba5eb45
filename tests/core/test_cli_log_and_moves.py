"""``tramways log`` (the game log as text, at any past point) and ``tramways moves`` for games
with hidden information (``--as`` required)."""

from __future__ import annotations

import pytest

from tramways.cli import main
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.core.selfplay import play_game


@pytest.fixture(scope="module")
def game_1840(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("log") / "g.json"
    out = play_game("1840", {"players": 3}, 4, max_actions=80)
    out.session.record.save(path)
    return str(path)


def _body(text: str) -> list[str]:
    return [line[5:] for line in text.splitlines() if line.startswith("     ")]


def test_log_prints_every_action_and_its_lines(game_1840: str, capsys) -> None:
    assert main(["log", game_1840]) == 0
    out = capsys.readouterr().out
    record = GameRecord.load(game_1840)
    session = Session.from_record(record)
    assert _body(out) == ["Pre-Share Round: the private companies are auctioned", *session.log]
    numbered = [line for line in out.splitlines() if not line.startswith("     ")]
    assert numbered == [f"{i + 1:>4} {a}" for i, a in enumerate(record.actions)]


def test_log_as_of_stops_after_n_actions(game_1840: str, capsys) -> None:
    assert main(["log", game_1840, "--as-of", "3"]) == 0
    out = capsys.readouterr().out
    record = GameRecord.load(game_1840)
    assert [ln for ln in out.splitlines() if not ln.startswith("     ")] == [
        f"{i + 1:>4} {a}" for i, a in enumerate(record.actions[:3])]
    assert _body(out)[1:] == Session.from_record(record, upto=3).log
    assert main(["log", game_1840, "--as-of", "0"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "     Pre-Share Round: the private companies are auctioned"]


@pytest.mark.parametrize("n", ["-1", "81", "x"])
def test_log_as_of_out_of_range_is_one_line_exit_2(game_1840: str, capsys, n: str) -> None:
    assert main(["log", game_1840, "--as-of", n]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--as-of" in err


def test_log_of_trambahn_hides_income_cards(tmp_path, capsys) -> None:
    """Income puts a card face down (Step 3): the log shows ``P1 income ?``."""
    out = play_game("trambahn", {}, 3, max_actions=40)
    path = str(tmp_path / "t.json")
    out.session.record.save(path)
    assert any(" income " in a for a in out.session.record.actions)
    assert main(["log", path]) == 0
    text = capsys.readouterr().out
    incomes = [line for line in text.splitlines() if " income " in line]
    assert incomes and all(line.endswith("income ?") for line in incomes)
    assert "adds a card to the money pile" in text


def test_moves_of_a_hidden_information_game_needs_as(tmp_path, capsys) -> None:
    path = str(tmp_path / "t.json")
    assert main(["new", "trambahn", "--seed", "3", "-o", path]) == 0
    capsys.readouterr()
    assert main(["moves", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "hidden information" in captured.err and "--as" in captured.err
    assert main(["moves", path, "--as", "1"]) == 0
    assert all(m.startswith("P1 ") for m in capsys.readouterr().out.splitlines())
    assert main(["moves", path, "--as", "2"]) == 0
    assert capsys.readouterr().out == ""  # not P2's turn, and nothing of P1's hand


def test_moves_of_1840_needs_no_as(game_1840: str, capsys) -> None:
    assert main(["moves", game_1840]) == 0
    assert capsys.readouterr().out.strip()
