"""A site game played over days, kept as a golden record (issue 25: "nothing here may break a
replay"; docs/async.md).

An 1840 game of three people and the rule bot on the site (in process, SQLite, the clock
injected): programs set by two people and firing, a one-hour pace whose deadline first lets
the bot play one move for a late seat, then hands a late seat to the bot, which its owner
takes back; the other people vote a seat out, its owner takes it back; a person resigns.
With ``to_the_end`` the other people resign too and the bots finish the game.

:func:`play` returns the game as the server shows it (:class:`PacedGame`): its record, its
log (the engine's lines and the seat changes, which are the server's own lines) and where
each seat change came.  :func:`replayed_log` rebuilds that log from the record alone.

    python tools/paced_golden.py --write   # (re)make tests/golden/1840-4p-site-paced.json,
                                           # then python tools/golden.py --write

Tested: ``tests/server/test_clocks_replay.py``; the record's figures by ``tests/test_golden.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tramways.core.record import GameRecord
from tramways.core.replay import Session

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "1840-4p-site-paced.json"
SEATS = ["human", "human", "human", "bot:rule"]
SEED = 125
BOT_SEED = 25
PROGRAMS = ((1, "P1 program pass always indefinitely"), (1, "P1 program auctions"),
            (2, "P2 program buy W 2 then-pass"))


@dataclass(frozen=True)
class PacedGame:
    """A site game: its record, its log as the server shows it, and each seat change's line
    with the number of moves played before it."""

    record: dict[str, Any]
    log: list[str]
    seat_changes: list[tuple[int, str]]
    fired: list[tuple[int, int, str, bool]]


def replayed_log(record: GameRecord, seat_changes: list[tuple[int, str]]) -> tuple[Session,
                                                                                   list[str]]:
    """Replay ``record`` move by move and put each seat change's line after its move: the
    log the server showed, from the record alone."""
    session = Session.from_record(record, upto=0)
    changes = sorted(seat_changes, key=lambda c: c[0])
    log = list(session.log)
    for n, text in enumerate(record.actions):
        log.extend(line for at, line in changes if at == n)
        log.extend(session.play(text))
    log.extend(line for at, line in changes if at == len(record.actions))
    return session, log


def _choose(legal: list[str]) -> str:
    """A person's move: a pass if there is one, else the first legal move (no program)."""
    plain = [a for a in legal if " program " not in a]
    passes = [a for a in plain if a.endswith(" pass")]
    return (passes or plain)[0]


class _Table:
    """The game through the site's API, with the deadlines' manual clock."""

    def __init__(self, client: Any, game_id: str, tokens: list[str | None]) -> None:
        from tramways.server.clocks.clock import ManualClock

        self.client, self.gid, self.tokens = client, game_id, tokens
        self.deadlines = client.app.state.deadlines
        self.deadlines.clock = ManualClock()
        self.reminders: list[Any] = []
        self.deadlines.remind = self.reminders.append

    def settle(self) -> dict[str, Any]:
        assert self.client.app.state.service.wait_for_bots(600, self.gid), "bots still playing"
        state: dict[str, Any] = self.client.get(f"/api/games/{self.gid}").json()
        return state

    def post(self, seat: int, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        reply = self.client.post(f"/api/games/{self.gid}/{path}", json=body or {},
                                 headers={"Authorization": f"Bearer {self.tokens[seat - 1]}"})
        assert reply.status_code == 200, (path, body, reply.text)
        out: dict[str, Any] = reply.json()
        return out

    def move(self, seat: int, action: str) -> None:
        self.post(seat, "moves", {"n": self.settle()["n"], "action": action})

    def person_to_act(self) -> int:
        """The person's seat to act, the game's bots settled."""
        state = self.settle()
        seat = int(state["to_act"][0])
        assert state["seats"][seat - 1]["kind"] == "human", state["to_act"]
        return seat

    def late(self, stages: int) -> int:
        """Let the seat to act run past its deadline: ``stages`` fired (reminder, deadline)."""
        seat = self.person_to_act()
        self.deadlines.clock.advance(61 * 60)
        assert self.deadlines.check(self.gid) == stages
        return seat


def play(client: Any, *, to_the_end: bool) -> PacedGame:
    """Play the scripted game on ``client`` (a TestClient of the site)."""
    service = client.app.state.service
    made = service.create("1840", {"players": 4}, SEATS, seed=SEED)
    table = _Table(client, made["id"], [s["token"] for s in made["seats"]])
    for seat, program in PROGRAMS:
        table.move(seat, program)
    table.post(1, "pace", {"hours": 1, "on_deadline": "bot_move", "bot": "bot:rule"})
    table.late(stages=2)  # reminded, then the bot plays this one move for the seat
    table.post(1, "pace", {"hours": 1, "on_deadline": "hand_over", "bot": "bot:rule"})
    for _ in range(3):  # the people answer a few moves
        seat = table.person_to_act()
        table.move(seat, _choose(_legal(table, seat)))
    handed = table.late(stages=2)  # reminded, then handed to the bot
    table.settle()
    table.post(handed, "take-back")
    target = 2
    for voter in (1, 3):
        table.post(voter, "vote", {"seat": target})
    table.settle()
    table.post(target, "take-back")
    table.settle()
    table.post(2, "resign", {"bot": "bot:rule"})
    if to_the_end:
        table.settle()
        for seat in (1, 3):
            table.post(seat, "resign", {"bot": "bot:rule"})
    state = table.settle()
    record = client.get(f"/api/games/{table.gid}/record").json()
    fired = table.deadlines.store.fired(table.gid)
    return PacedGame(record, list(state["log"]), _seat_changes(client, table.gid), fired)


def _legal(table: _Table, seat: int) -> list[str]:
    state = table.client.get(f"/api/games/{table.gid}",
                             headers={"Authorization": f"Bearer {table.tokens[seat - 1]}"})
    legal: list[str] = state.json()["legal"]
    return legal


def _seat_changes(client: Any, game_id: str) -> list[tuple[int, str]]:
    """The server's own lines of the log (no move wrote them: ``seq`` null), each with the
    number of moves played before it."""
    from tramways.server.tables import log

    out: list[tuple[int, str]] = []
    played = 0
    with client.app.state.store.engine.connect() as conn:
        for seq, text in conn.execute(sa.select(log.c.seq, log.c.text)
                                      .where(log.c.game_id == game_id).order_by(log.c.id)):
            if seq is None:
                out.append((played, str(text)))
            else:
                played = int(seq) + 1
    return out


def make(folder: Path) -> PacedGame:
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    settings = ServerSettings(database_url=f"sqlite:///{folder / 'paced.sqlite3'}",
                              moves_per_second=0, games_per_minute=0, bot_games_per_hour=0,
                              max_bot_games=0, deadline_sweep_seconds=0, bot_seed=BOT_SEED)
    with TestClient(create_app(settings)) as client:
        return play(client, to_the_end=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN.name}")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        game = make(Path(folder))
    record = dict(game.record)
    record["meta"] = {**record.get("meta", {}), "id": "paced", "log": game.log,
                      "seat_changes": [list(c) for c in game.seat_changes],
                      "fired": [list(f) for f in game.fired]}
    text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
    if args.write:
        GOLDEN.write_text(text, encoding="utf-8")
        print(f"wrote {GOLDEN} ({len(game.record['actions'])} moves, {len(game.log)} lines)")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
