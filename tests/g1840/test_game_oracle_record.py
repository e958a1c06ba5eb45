"""The real 2-player game recorded on 18xx.games, translated action by action into our notation
(ruleset 18xx.games, RULINGS.md X-1..X-9), replays to the site's final wealth."""

from __future__ import annotations

import json
from pathlib import Path

from tramways.core.record import GameRecord
from tramways.core.replay import Session

RECORD = Path(__file__).with_name("test_game_oracle_2player.record.json")


def test_game_oracle_two_player_replays_to_the_sites_result() -> None:
    session = Session.from_record(GameRecord.load(RECORD))
    state = session.state
    assert state.is_over()
    # the site: "Game over: Player 1 (8351), Player 2 (7618)"
    assert state.result() == {"wealth": [8351, 7618], "rank": [1, 2], "winners": [0]}
    assert [p.cash for p in state.players] == [4367, 3876]
    assert [state.price(c) for c in ("WT", "GW", "W", "G", "D")] == [300, 137, 185, 160, 137]
    assert any("WT pays 4100" in line for line in session.log)


def test_game_oracle_result_matches_the_export(oracle_dir: Path) -> None:
    export = json.loads((oracle_dir / "2player.json").read_text())
    ids = {p["name"]: str(p["id"]) for p in export["players"]}
    state = Session.from_record(GameRecord.load(RECORD)).state
    wealth = dict(zip(["Player 1", "Player 2"], state.result()["wealth"], strict=True))
    assert {name: wealth[name] for name in ids} == {
        name: export["result"][pid] for name, pid in ids.items()}
