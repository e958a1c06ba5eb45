"""How often a Trambahn bot fills a row at 3 whose scoring favours it when its hand can (issue 26, item 3).

    nice -n 10 .venv/bin/python benchmarks/trambahn_habit.py --opponent whole-turn --games 30 --seed 1000
    nice -n 10 .venv/bin/python benchmarks/trambahn_habit.py --opponent rule --games 30 --seed 1001

Plays ``--games`` games of ``search`` (``--bot-options``, by default the race search with
``danger`` 0.7) against ``--opponent`` (``whole-turn``, the yardstick, or a bot name), seats
alternating, on the seeds of the series ``--seed``.  At the start of each of the opponent's
turns it lists the rows at 3 whose scoring favours the opponent (T-R-2; T-R-4 with one scoring
left) and, reading the opponent's real hand (a measurement, not a bot), whether it could fill
each (a card of the colour or a conductor) and whether it did.  Prints one JSON object: the
rows it could fill, the ones it filled, and the share with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import series_seeds, wilson  # noqa: E402
from tramways.bots import make_bot  # noqa: E402
from tramways.bots.match import give_position  # noqa: E402
from tramways.bots.trambahn_infer import favours  # noqa: E402
from tramways.bots.trambahn_whole_turn import WholeTurnBot  # noqa: E402
from tramways.core import Session, derive_rng  # noqa: E402
from tramways.core.actions import moves  # noqa: E402
from tramways.trambahn.actions import Passenger  # noqa: E402
from tramways.trambahn.cards import CARD_FACE, COLOURS, CONDUCTOR, FACE_COLOUR, ROW_SIZE  # noqa: E402
from tramways.trambahn.engine import TrambahnState  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402

RACE = {"race": {"weights": {"danger": 0.7}}}


def open_rows(state: TrambahnState, player: int) -> dict[str, bool]:
    """The rows at 3 whose scoring favours ``player``, and whether its hand can fill each."""
    view = state.view(player)
    found = {}
    for c, colour in enumerate(COLOURS):
        if len(view.rows[colour]) == ROW_SIZE - 1 and favours(view, player, colour):
            found[colour] = any(CARD_FACE[k] == CONDUCTOR or FACE_COLOUR[CARD_FACE[k]] == c
                                for k in state.hands[player])
    return found


def one_game(g: int, seed: int, options: dict[str, Any], opponent: str) -> tuple[int, int, int]:
    """(rows it could fill, rows it filled, rows it could not fill) of the opponent's turns."""
    seat = g % 2
    other = WholeTurnBot(GAME) if opponent == "whole-turn" else make_bot(opponent, GAME)
    bots: list[Any] = [make_bot("search", GAME, **options), other]
    if seat == 1:
        bots.reverse()
    session = Session.new("trambahn", {}, seed)
    rngs = [derive_rng(seed, "bot", i) for i in range(2)]
    able = filled = unable = 0
    rows: dict[str, bool] = {}
    placed: set[str] = set()
    state = session.state
    while not state.is_over():
        player = state.current_players()[0]
        if player != seat and state.step == 1 and not state.passengers and not placed:
            rows = open_rows(state, player)
        legal = moves(state.legal_actions(player))
        give_position(bots[player], state, rngs[player])
        action = bots[player].choose(state.view(player), legal, rngs[player])
        if player != seat and isinstance(action, Passenger):
            placed.add(action.row)
        session.play(action, seat=player)
        state = session.state
        if player != seat and (state.is_over() or state.current_players()[0] == seat):
            able += sum(rows.values())
            filled += sum(can and colour in placed for colour, can in rows.items())
            unable += sum(not can for can in rows.values())
            rows, placed = {}, set()
    return able, filled, unable


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--opponent", default="whole-turn")
    ap.add_argument("--bot-options", default=json.dumps(RACE))
    args = ap.parse_args()
    options = json.loads(args.bot_options)
    able = filled = unable = 0
    for g, seed in series_seeds(args.seed, 0, args.games):
        a, f, u = one_game(g, seed, options, args.opponent)
        able, filled, unable = able + a, filled + f, unable + u
    print(json.dumps({"opponent": args.opponent, "bot_options": options, "games": args.games,
                      "seed": args.seed, "could_fill": able, "filled": filled,
                      "could_not": unable, "share": round(filled / able, 3) if able else None,
                      "ci95": wilson(filled, able) if able else None}))


if __name__ == "__main__":
    main()
