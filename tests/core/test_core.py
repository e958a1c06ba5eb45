"""The core contract: records, replay, undo, refusals, the CLI's generic commands."""

from __future__ import annotations

import json

import pytest

from tests.core.toygame import GAME, Take
from tests.support import refused
from tramways import games
from tramways.cli import main
from tramways.core import GameRecord, RecordError, Session, derive_rng, replay
from tramways.core.selfplay import play_game


@pytest.fixture(autouse=True, scope="module")
def _toy_game():
    """The toy game is known while this module runs, and only then: a server test in the same
    worker lists the games it knows (its OpenAPI schema's enum of games)."""
    games.register("toy", GAME)
    yield
    games.unregister("toy")


def test_record_roundtrip_and_replay_is_pure(tmp_path):
    s = Session.new("toy", {}, seed=2)
    assert s.state.counters == 12
    s.play("P1 take 3")
    s.play(Take(1, 2))
    path = tmp_path / "g.json"
    s.record.save(path)
    loaded = GameRecord.load(path)
    assert loaded.actions == ["P1 take 3", "P2 take 2"]
    state, log = replay(loaded)
    assert state.counters == 7
    assert log == ["Player 1 takes 3", "Player 2 takes 2"]


def test_undo_replays_a_prefix():
    s = Session.new("toy", {}, seed=0)
    for text in ["P1 take 1", "P2 take 2", "P1 take 3"]:
        s.play(text)
    s.undo(2)
    assert s.record.actions == ["P1 take 1"]
    assert s.state.counters == 9
    with pytest.raises(RecordError):
        s.undo(5)


def test_illegal_action_names_rule_and_leaves_record():
    s = Session.new("toy", {}, seed=0)
    refused("T2", s.play, "P2 take 1")
    assert s.record.actions == [] and s.state.counters == 10


@pytest.mark.parametrize(
    "data, needle",
    [
        ("[]", "expected a JSON object"),
        ("{", "not JSON"),
        ('{"game": "toy"}', "version"),
        ('{"game":"toy","version":1,"settings":{},"seed":"x","setup":{}}', "seed"),
        ('{"game":"toy","version":1,"settings":{},"seed":1,"setup":{},"extra":1}', "extra"),
    ],
)
def test_malformed_record_is_refused_with_a_reason(data, needle):
    with pytest.raises(RecordError) as exc:
        GameRecord.from_json(data)
    assert needle in str(exc.value)


def test_record_with_illegal_action_names_its_index():
    rec = GameRecord(game="toy", version=1, settings={}, seed=0, setup={"counters": 10},
                     actions=["P1 take 1", "P1 take 1"])
    with pytest.raises(RecordError, match="action 1"):
        replay(rec)


def test_unknown_game_and_version():
    with pytest.raises(RecordError, match="unknown game"):
        replay(GameRecord(game="chess", version=1, settings={}, seed=0, setup={}))
    with pytest.raises(RecordError, match="version 9"):
        replay(GameRecord(game="toy", version=9, settings={}, seed=0, setup={}))


def test_derive_rng_is_deterministic():
    a = derive_rng(5, "reshuffle", 1).random()
    assert a == derive_rng(5, "reshuffle", 1).random()
    assert a != derive_rng(5, "reshuffle", 2).random()


def test_selfplay_finishes():
    out = play_game("toy", {}, seed=3)
    assert out.finished and out.result["winner"] in (0, 1)
    assert out.actions == len(out.session.record.actions)
    winner = out.session.state.winner  # who took the last counter
    assert out.outcome is not None and out.outcome.winners == (winner,)
    assert out.outcome.places == ((1, 2) if winner == 0 else (2, 1))
    assert out.result == out.outcome.to_json() == {"winner": winner}


def test_cli_play_illegal_leaves_file_byte_identical(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["new", "toy", "--seed", "1", "-o", str(path)]) == 0
    assert main(["play", str(path), "P1 take 2"]) == 0
    before = path.read_bytes()
    assert main(["play", str(path), "P2 take 1", "P1 take 7"]) == 2
    err = capsys.readouterr().err
    assert "illegal: T3:" in err
    assert path.read_bytes() == before
    assert main(["undo", str(path)]) == 0
    assert json.loads(path.read_text())["actions"] == []


def test_cli_errors_are_one_line_exit_2(tmp_path, capsys):
    assert main(["show", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err
    assert main(["show", "--bogus", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    (tmp_path / "bad.json").write_text("not json")
    assert main(["moves", str(tmp_path / "bad.json")]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_cli_selfplay_check_runs_the_games_invariants(capsys):
    """``selfplay --check`` calls the game's ``check_invariants`` after every action and a
    broken invariant fails the run (exit 1) with the error in the game's JSON line."""
    calls: list[int] = []

    def check(state):
        calls.append(state.counters)
        if state.counters < 0:
            raise AssertionError("negative counters")

    GAME.check_invariants = check  # type: ignore[attr-defined]
    try:
        assert main(["selfplay", "toy", "--games", "2", "--seed", "4", "--check", "--json"]) == 0
        assert calls and min(calls) == 0
        calls.clear()

        def broken(state):
            raise AssertionError("counted wrong")

        GAME.check_invariants = broken  # type: ignore[attr-defined]
        capsys.readouterr()
        assert main(["selfplay", "toy", "--games", "1", "--seed", "4", "--check", "--json"]) == 1
        line = json.loads(capsys.readouterr().out.splitlines()[0])
        assert line["finished"] is False and "counted wrong" in line["error"]
    finally:
        del GAME.check_invariants  # type: ignore[attr-defined]


def test_session_play_seat_inferred_named_or_refused():
    """The seat API (core/game.py): ``Session.play(action, seat)`` plays for ``seat``; without
    one it infers the single seat ``seats_for`` names; a seat without authority is refused."""
    s = Session.new("toy", {}, seed=0)
    assert s.state.seats_for(s.parse("P2 take 1")) == [1]
    refused("T0", s.play, "P1 take 1", seat=1)
    assert s.record.actions == []
    s.play("P1 take 1", seat=0)
    s.play("P2 take 2")
    assert s.record.actions == ["P1 take 1", "P2 take 2"]


def test_cli_play_as_names_the_seat(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["new", "toy", "--seed", "1", "-o", str(path)]) == 0
    before = path.read_bytes()
    assert main(["play", str(path), "P1 take 2", "--as", "2"]) == 2
    assert "illegal: T0:" in capsys.readouterr().err and path.read_bytes() == before
    assert main(["play", str(path), "P1 take 2", "--as", "Ann"]) == 0
    assert json.loads(path.read_text())["actions"] == ["P1 take 2"]
