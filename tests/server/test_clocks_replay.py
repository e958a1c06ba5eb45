"""Issue 25's quality bar: "nothing here may break a replay".  A site game with programs that
fire, a deadline whose bot plays a late seat's move, a seat handed to the bot at its deadline
and taken back, a seat voted out and taken back, and resignations, replays from its record to
the same position and log: the golden record ``tests/golden/1840-4p-site-paced.json`` (made
by ``tools/paced_golden.py``; its figures are checked by ``tests/test_golden.py``) and a game
played now on the site."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("fastapi")

from tramways.core.game import view_json  # noqa: E402
from tramways.core.record import GameRecord  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("paced_golden",
                                                  ROOT / "tools" / "paced_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    return module


PACED = _tool()


def test_async_the_golden_paced_site_game_replays_to_its_log_and_end() -> None:
    record = GameRecord.load(PACED.GOLDEN)
    meta = record.meta
    changes = [(int(n), str(line)) for n, line in meta["seat_changes"]]
    session, log = PACED.replayed_log(record, changes)
    assert session.state.is_over()
    assert log == meta["log"]
    assert log[-1] == "The game ends after CR6 (XI, R-CR-4)"
    # what the record holds: programs set and firing, every kind of seat change
    assert record.settings["programs"] is True
    assert [a for a in record.actions if " program " in a] == [p for _s, p in PACED.PROGRAMS]
    assert sum(line.startswith("Player 1's programmed action") for line in log) >= 5
    assert any(line.startswith("Player 2's programmed action") for line in log)
    bot = "the computer (rule)"
    assert [line for _n, line in changes] == [
        f"Player 3's deadline passed: {bot} plays the seat until its owner takes it back",
        f"Player 3 takes the seat back from {bot}",
        f"The other players voted: {bot} plays Player 2's seat until its owner takes it back",
        f"Player 2 takes the seat back from {bot}",
        f"Player 2 resigns: {bot} plays the seat to the end",
        f"Player 1 resigns: {bot} plays the seat to the end",
        f"Player 3 resigns: {bot} plays the seat to the end"]
    # the deadlines: a reminder and a bot's move for seat 3, then a reminder and a hand-over
    assert sorted(tuple(f) for f in meta["fired"]) == [
        (3, 3, "deadline", True), (3, 3, "remind", True),
        (3, 9, "deadline", True), (3, 9, "remind", True)]


def test_async_a_paced_site_game_replays_from_its_record_to_the_same_position_and_log(
        sqlite_client) -> None:
    game = PACED.play(sqlite_client, to_the_end=False)
    record = GameRecord.from_data(game.record)
    session, log = PACED.replayed_log(record, game.seat_changes)
    assert log == game.log
    assert len(game.seat_changes) == 5  # hand-over, take-back, vote, take-back, resignation
    shown = sqlite_client.get(f"/api/games/{record.meta['id']}").json()
    assert view_json(session.state.view(None)) == shown["view"]
    assert [s["kind"] for s in shown["seats"]] == ["human", "bot:rule", "human", "bot:rule"]
