"""``tramways routes``: the best route of every line with a tram (IX.8), from a record."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tramways.cli.routes as routes_cli
from tests.g1840.test_ix7_routes import _row_j_board
from tests.g1840.test_routes_support import context
from tramways.cli import main
from tramways.core.record import GameRecord
from tramways.core.selfplay import play_game
from tramways.g1840.routes import best_route


class _StubState:
    """The engine's two hooks over a hand-built board: line 6 (tram, maintenance -50)."""

    def __init__(self) -> None:
        self.board = _row_j_board()

    def lines_with_trams(self) -> list[int]:
        return [6]

    def route_context(self, line: int) -> Any:
        if line != 6:
            raise KeyError(line)
        return context(self.board, 6, maintenance=-50)


@pytest.fixture
def stub_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    session = SimpleNamespace(game=SimpleNamespace(name="1840"), state=_StubState())
    monkeypatch.setattr(routes_cli.Session, "from_record",
                        classmethod(lambda cls, record, upto=None: session))
    record = GameRecord(game="1840", version=1, settings={}, seed=1, setup={})
    path = tmp_path / "game.json"
    record.save(path)
    return str(path)


def test_routes_cli_prints_best_route(stub_record: str, capsys: pytest.CaptureFixture[str]) -> None:
    """J24 10 + J26 20 + J28 0 + K27 20 = 50, maintenance -50: total 0."""
    assert main(["routes", stub_record]) == 0
    out = capsys.readouterr().out
    assert "Line 6: J24.0-J26.0-J28.0-K27.0" in out
    assert "10 + 20 + 0 + 20 = 50; maintenance -50; total 0" in out


def test_routes_cli_json_and_check(stub_record: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["routes", stub_record, "--line", "6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lines"][0]["run"]["revenue"] == 50
    assert data["lines"][0]["run"]["hexes"] == ["J24", "J26", "J28", "K27"]
    assert main(["routes", stub_record, "--line", "6", "--check", "J24.0-J26.0"]) == 0
    assert "= 30" in capsys.readouterr().out
    assert main(["routes", stub_record, "--line", "6", "--check", "J24.0-J28.0"]) == 2
    assert "IX.7" in capsys.readouterr().err  # no marker of line 6 on it


def test_routes_cli_on_a_played_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A whole 2-player game played by random legal moves: the command prints, for each line
    with a tram, exactly what :func:`best_route` finds in the final position."""
    outcome = play_game("1840", {"players": 2}, 7, max_actions=5000)
    path = tmp_path / "game.json"
    outcome.session.record.save(path)
    state: Any = outcome.session.state
    assert main(["routes", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [item["line"] for item in data["lines"]] == state.lines_with_trams()
    for item in data["lines"]:
        run = best_route(state.route_context(item["line"]))
        assert item["run"] == (run.to_json() if run else None)


def test_routes_cli_refuses_other_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcome = play_game("trambahn", {}, 3, max_actions=5)
    path = tmp_path / "t.json"
    outcome.session.record.save(path)
    assert main(["routes", str(path)]) == 2
    assert "1840" in capsys.readouterr().err
