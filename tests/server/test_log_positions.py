"""Issue 23, item 9: every log line names the position after the move that wrote it
(``log_at``, the page's ``?at=N`` links), also across undos, catch-ups and rebuilds."""

from __future__ import annotations

from tests.server.helpers import auth, new_game
from tramways.server.positions import line_positions


def test_item_9_each_line_links_to_the_move_that_wrote_it_and_taken_back_lines_nowhere():
    # moves 0 (two lines) and 1 (one line); move 1 taken back (the undo's line: no move),
    # played again writing two lines, then move 2 writing one
    seqs = [0, 0, 1, None, 1, 1, 2]
    assert line_positions(seqs, [2, 2, 1]) == (1, 1, None, None, 2, 2, 3)
    # move 1 played again writes nothing: the line of the move taken back still links nowhere
    assert line_positions([0, 1, None], [1, 0]) == (1, None, None)
    # a line of a move beyond the game as it stands (taken back, not played again)
    assert line_positions([0, 1, None], [1]) == (1, None, None)


def _play(client, gid: str, tokens: list[str], count: int) -> None:
    for _ in range(count):
        state = client.get(f"/api/games/{gid}").json()
        seat = state["to_act"][0]
        mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat - 1])).json()
        r = client.post(f"/api/games/{gid}/moves", json={"n": mine["n"], "action": mine["legal"][-1]},
                        headers=auth(tokens[seat - 1]))
        assert r.status_code == 200, r.text


def _check_against_replay(client, gid: str, state: dict) -> None:
    """Each position's lines, as its replay writes them, are the lines linked to it."""
    assert len(state["log_at"]) == len(state["log"])
    for k in range(1, state["n"] + 1):
        past = client.get(f"/api/games/{gid}", params={"at": k}).json() \
            if k < state["n"] else state
        wrote = [line for line, at in zip(past["log"], past["log_at"], strict=True) if at == k]
        linked = [line for line, at in zip(state["log"], state["log_at"], strict=True) if at == k]
        assert wrote == linked, k


def test_item_9_the_payload_links_log_lines_to_positions_through_an_undo(client):
    created = new_game(client, game="1840", settings={"players": 2})
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    _play(client, gid, tokens, 3)
    before = client.get(f"/api/games/{gid}").json()
    assert before["log_at"] and None not in before["log_at"]
    _check_against_replay(client, gid, before)
    last = client.get(f"/api/games/{gid}").json()
    mover = next(t for t in tokens if client.get(
        f"/api/games/{gid}", headers=auth(t)).json()["undoable"] > 0)
    assert client.post(f"/api/games/{gid}/undo", json={"n": last["n"]},
                       headers=auth(mover)).status_code == 200
    _play(client, gid, tokens, 2)
    state = client.get(f"/api/games/{gid}").json()
    assert state["n"] == 4
    undo = next(i for i, line in enumerate(state["log"]) if "takes back" in line)
    assert state["log_at"][undo] is None  # the undo's own line
    taken = [at for at in state["log_at"][:undo] if at == 3]
    assert taken == []  # the lines of the move taken back link nowhere
    assert state["log_at"][:undo] == [at if at is not None and at < 3 else None
                                      for at in before["log_at"]]
    _check_against_replay(client, gid, state)
    # a rebuilt position (another process, a restart) links the lines alike
    service = client.app.state.service
    service.forget(gid)
    assert client.get(f"/api/games/{gid}").json()["log_at"] == state["log_at"]
    # only what is new after a cursor: the marks of those lines
    newer = client.get(f"/api/games/{gid}", params={"since": before["cursor"]}).json()
    assert newer["log_at"] == state["log_at"][newer["log_from"]:]


def test_the_log_positions_benchmark_prints_its_figures():
    """benchmarks/log_positions.py still runs (a short game; its times printed, never
    asserted): every line of a game without undo links to a position."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "log_positions.py"
    out = json.loads(subprocess.run([sys.executable, str(bench), "--moves", "90"],
                                    capture_output=True, text=True, timeout=300,
                                    check=True).stdout)
    assert out["moves"] == 90 and out["linked_lines"] == out["log_lines"] > 90
    assert {"rebuild_ms", "line_positions_ms", "payload_ms", "log_index_ms", "page_cold_ms",
            "history_cold_ms", "page_warm_ms", "history_warm_ms", "past_page_ms"} <= set(out)
