"""The table model: legal actions grouped by step (Course of Play 1-5), the log in words."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")

from tramways.bots import make_bot  # noqa: E402
from tramways.core import Session  # noqa: E402
from tramways.server.web.table import log_entry, table_model  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402


def _payload(session: Session, seat: int | None, log: list[str]) -> dict:
    state = session.state
    return {
        "n": len(session.record.actions),
        "view": state.view(seat).to_json(),  # the payload is JSON, as the service sends
        "legal": session.legal_notation(seat) if seat is not None else [],
        "log": log,
    }


def _games(count: int, seed: int):
    """Whole games, rule bot against random play, yielding (session, log) after each action."""
    rng = random.Random(seed)
    bot = make_bot("rule", GAME)
    for g in range(count):
        s = Session.new("trambahn", {"names": ["Anna", "Ben"]}, seed=seed + g)
        log: list[str] = []
        while not s.state.is_over():
            legal = s.state.legal_actions()
            p = s.state.turn
            action = bot.choose(s.state.view(p), legal, rng) if p == 0 else rng.choice(legal)
            log.extend(s.play(action))
            yield s, log


def test_every_engine_log_line_is_understood_T_R_2_T_R_3_T_R_5() -> None:
    """Each log line of whole games has its own wording (nothing falls back to raw text)."""
    kinds: set[str] = set()
    seen: set[str] = set()
    for session, log in _games(4, 5):
        if session.state.is_over():
            seen.update(log)
    for line in seen:
        entry = log_entry(line, ["Anna", "Ben"])
        assert entry["kind"] != "text", line
        kinds.add(entry["kind"])
    assert {"passenger", "scoring", "game_over", "new_column", "station", "income", "buy",
            "end_turn", "tramless"} <= kinds
    undo = log_entry("Anna takes back 2 move(s): P1 passenger 7r; P1 station 3b new", [])
    assert undo == {"kind": "undo", "name": "Anna", "count": 2,
                    "moves": "P1 passenger 7r; P1 station 3b new"}
    scoring = log_entry("Scoring 3 (green): P1 4+6=10, P2 0", ["Anna", "Ben"])
    assert scoring == {"kind": "scoring", "k": 3, "colour": "g", "a": "4+6=10", "b": "0"}


def test_reshuffle_and_discard_lines_T_R_5() -> None:
    names = ["Anna", "Ben"]
    assert log_entry("P2 discards 4 of 9 money cards", names) == {
        "kind": "discard_half", "p": "2", "name": "Ben", "k": 4, "m": 9}
    assert log_entry("Reshuffle 1: 57 cards form the new draw pile", names) == {
        "kind": "reshuffle", "k": 1, "count": 57}
    assert log_entry("Game over (tenth scoring): P1 80, P2 80 - a draw", names)["kind"] == (
        "game_over")


def test_actions_are_exactly_the_legal_ones_grouped_by_step() -> None:
    """Every legal notation appears once in the model's groups; a spectator gets none."""
    checked = 0
    for s, log in _games(1, 9):
        if s.state.is_over():
            break
        p = s.state.turn
        model = table_model(_payload(s, p, log))
        a = model["actions"]
        offered = [o["notation"] for o in a["passengers"]]
        offered += [o["notation"] for group in a["stations"] for o in group["options"]]
        offered += [o["notation"] for o in a["income"]]
        offered += [o["notation"] for group in a["buys"] for o in group["options"]]
        offered += [a["end"]] if a["end"] else []
        assert sorted(offered) == sorted(s.legal_notation(p))
        other = table_model(_payload(s, 1 - p, log))
        assert other["actions"]["any"] is False and other["my_turn"] is False
        spectator = table_model(_payload(s, None, log))
        assert spectator["hand"] is None and spectator["spectator"] is True
        assert model["hand"] is not None and len(model["hand"]) == len(s.state.hands[p])
        checked += 1
    assert checked > 100


def test_score_pad_counts_regular_scorings_and_extra_tours() -> None:
    *_, (s, log) = _games(1, 3)
    model = table_model(_payload(s, 0, log))
    pad = model["pad"]
    regular = [r for r in pad["regular"] if r["points"] is not None]
    assert len(regular) == pad["done"] == s.state.regular
    for p in (0, 1):
        assert sum(r["points"][p] for r in regular) + pad["extra"][p] == pad["totals"][p]
    assert model["over"] and model["result"]["scores"] == pad["totals"]


def test_a_resignation_s_log_lines_are_understood() -> None:
    """The lines of a game ended by a resignation (docs/async.md, ``on_resign: "end"``): the
    resignation and the game's end both have their own wording."""
    from pathlib import Path

    from tramways.core.record import GameRecord
    from tramways.core.replay import Session as Replayed

    record = GameRecord.load(Path(__file__).parents[2] / "golden" / "trambahn-resigned.json")
    lines = Replayed.from_record(record, upto=len(record.actions) - 1).play(record.actions[-1])
    entries = [log_entry(line, ["Anna", "Ben"]) for line in lines]
    assert entries[0] == {"kind": "resign", "p": "1", "name": "Anna"}
    assert entries[1]["kind"] == "game_over" and entries[1]["winner"] == "Ben"
