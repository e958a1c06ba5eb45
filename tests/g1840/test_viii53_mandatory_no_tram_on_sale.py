"""VIII.5.3 / R-CR-5: a mandatory purchase when the trams on sale run out, and the engine's
guarantee that a failure inside ``apply`` leaves the position as it was.

The record (4 players, full map) comes from random play through the PettingZoo environment:
after its first 247 actions, ``L15 run`` ends LR4b; in CR5 every company has no tram and must
buy one, but only three purple trams are on sale (the stacks are spent).  The fourth company
used to crash the engine (an IndexError) half-way through the action.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tramways.core import GameRecord, Session
from tramways.g1840.rounds import company as company_round

RECORD = Path(__file__).with_name("test_viii53_mandatory_no_tram_on_sale.record.json")
BEFORE = 247  # the actions before "L15 run"


def _session(upto: int = BEFORE) -> tuple[Session, GameRecord]:
    record = GameRecord.load(RECORD)
    return Session.from_record(record, upto=upto), record


def _break_cr5_mandatory(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    """Make CR5's mandatory purchase step fail (a stand-in for a bug); earlier CRs work."""
    mandatory = company_round._mandatory

    def broken(cr: Any, pos: Any, log: list[str]) -> Any:
        if cr.number == 5:
            raise error
        return mandatory(cr, pos, log)

    monkeypatch.setattr(company_round, "_mandatory", broken)


def _fingerprint(session: Session) -> Any:
    """What a position is, as far as play goes: every seat's view and legal actions, and the
    round's progress."""
    state: Any = session.state
    return (state.view(None), [state.legal_actions(s) for s in range(state.n)],
            state.round_index, repr(state.sub), state.finished)


def test_viii53_mandatory_purchase_with_no_tram_on_sale() -> None:
    """R-CR-5: "If no tram is on sale the obligation waits": GW, SJE and BBG (CRc order) buy
    the three purple trams with their directors' cash and loans (VIII.5.3); WT, last, finds
    none on sale and keeps no tram; the round goes on to SR5."""
    session, record = _session()
    state: Any = session.state
    assert state.round.name == "LR4b"
    assert record.actions[BEFORE] == "L15 run"
    log = session.play(record.actions[BEFORE])
    assert "No tram is on sale: WT cannot buy the tram it must buy; the obligation waits " \
           "(R-CR-5)" in log
    assert [(c.id, c.owned()) for c in state.companies.values()] == [
        ("WT", []), ("GW", ["purple"]), ("SJE", ["purple"]), ("BBG", ["purple"])]
    assert state.trams.on_sale() == [] and state.trams.queue == []
    assert [(p.cash, p.loans) for p in state.players] == [(46, 18), (10, 23), (20, 22), (5, 25)]
    assert state.round.name == "SR5"
    assert state.current_players() == [2]


def test_viii53_waiting_obligation_game_still_ends_after_cr6() -> None:
    """XI: the game ends after CR6 whatever; WT, still without a tram, runs nothing."""
    session, record = _session()
    session.play(record.actions[BEFORE])
    state: Any = session.state
    for _ in range(2000):
        if state.is_over():
            break
        session.play(state.legal_actions(state.current_players()[0])[-1])
    assert state.is_over() and state.round.name == "CR6"
    assert state.companies["WT"].owned() == []


def test_apply_restores_the_position_when_the_engine_fails(monkeypatch: pytest.MonkeyPatch,
                                                           ) -> None:
    """An exception other than IllegalAction inside apply (a bug) propagates, and the position
    is as it was before the action: here the failure comes after the run, CR5's private
    dividends, the stack move, the dividends and the Stadtbahn runs have changed it."""
    session, record = _session()
    before = _fingerprint(session)
    _break_cr5_mandatory(monkeypatch, RuntimeError("a bug in the mandatory purchase"))
    with pytest.raises(RuntimeError, match="a bug"):
        session.state.apply(session.parse(record.actions[BEFORE]))
    assert _fingerprint(session) == before
    monkeypatch.undo()
    session.play(record.actions[BEFORE])
    assert _fingerprint(session) == _fingerprint(_session(BEFORE + 1)[0])


def test_apply_after_a_restore_keeps_its_history_for_the_next_failure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A restored position can be restored again: a clone carries its played actions."""
    session, record = _session()
    clone: Any = session.state.clone()
    before = _fingerprint(session)
    _break_cr5_mandatory(monkeypatch, KeyError("a bug"))
    for _ in range(2):
        with pytest.raises(KeyError):
            clone.apply(session.parse(record.actions[BEFORE]))
    assert (clone.view(None), repr(clone.sub)) == (before[0], before[3])
    assert _fingerprint(session) == before  # the original is untouched by the clone
