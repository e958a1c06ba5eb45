"""``tramways duel 1840``: a person against bots in the terminal, the board after each LR."""

from __future__ import annotations

from tramways.bots import make_bot
from tramways.bots.match import explanation
from tramways.cli import main
from tramways.cli.duel1840 import Duel1840
from tramways.core import GameRecord, Session
from tramways.core.rng import derive_rng


def test_duel_1840_saves_and_resumes(tmp_path, monkeypatch, capsys):
    record = tmp_path / "d.json"
    answers = iter(["h", "f pass", "hint", "P1 pass", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["duel", "1840", "--bots", "rule,random", "--seed", "5",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "rule bot: " in out and "Saved the record" in out
    saved = GameRecord.load(record)
    assert saved.meta["duel"] == {"human": 0, "bots": [None, "rule", "random"]}
    assert saved.actions[0] == "P1 pass"
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["duel", "1840", "--record", str(record)]) == 0
    assert "Resuming" in capsys.readouterr().out
    assert main(["duel", "1840", "--bots", "rule,genius"]) == 2


def test_duel_1840_whole_game_draws_the_board_after_each_line_round(tmp_path):
    """The person's moves come from the rule bot's hints; IX: one picture per Line Round."""
    session = Session.new("1840", {"players": 2, "names": ["You", "Bot"]}, 9,
                          meta={"duel": {"human": 0, "bots": [None, "rule"]}})
    lines: list[str] = []
    adviser = make_bot("rule", session.game)

    def ask(prompt: str) -> str:
        state = session.state
        action = adviser.choose(state.view(0), state.legal_actions(0), derive_rng(1, "t"))
        assert explanation(adviser)
        return session.game.format_action(action)

    duel = Duel1840(session, 0, [None, "rule"], tmp_path / "g.json", out=lines.append, ask=ask)
    assert duel.run() == 0
    assert session.state.is_over()
    pictures = sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".png", ".svg"))
    assert len(pictures) == 11  # LR1a ... LR5c
    assert pictures[0].startswith("g-LR1a.")
    assert any(line.startswith("Game over") for line in lines)
    assert any(line.startswith("Bot: ") and "(" in line for line in lines)
