"""Where the search's games against the yardstick are lost (issue 26, item 3).

    PYTHONPATH=src .venv/bin/python benchmarks/trambahn_race_phase.py --games 100 --seed 3005

Plays ``--games`` games of ``--bot`` (with ``--bot-options``) against the whole-turn yardstick,
seats alternating, on the seeds of ``trambahn_whole_turn.py``'s series, and prints one JSON
object:

- ``diff_after``: for won and lost games, the bot's mean points difference after each count
  of regular scorings (T-R-4), and the share of the games it was behind then;
- ``lead_lost_at``: in the lost games, the count of regular scorings after which the bot was
  behind for good (the yardstick overtook and stayed ahead);
- ``own_fill``: at the start of the bot's turns from ``--from`` regular scorings on, when its
  hand could fill a row whose scoring favours it (what the play-outs' own side, ``punish``,
  always does), the share of those turns in which its real turn filled a row.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import series_seeds  # noqa: E402
from tramways.bots import make_bot  # noqa: E402
from tramways.bots.match import give_position, moves  # noqa: E402
from tramways.bots.trambahn_race import punish_choice  # noqa: E402
from tramways.bots.trambahn_whole_turn import WholeTurnBot  # noqa: E402
from tramways.core import Session, derive_rng  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402


def one_game(g: int, seed: int, bot: str, options: dict[str, Any], start_from: int
             ) -> dict[str, Any]:
    seat = g % 2
    bots: list[Any] = [make_bot(bot, GAME, **options), WholeTurnBot(GAME)]
    if seat == 1:
        bots.reverse()
    session = Session.new("trambahn", {}, seed)
    rngs = [derive_rng(seed, "bot", i) for i in range(2)]
    state = session.state
    diffs: list[int] = []
    chances = fills = 0
    watching = False
    scorings_at_turn = 0
    while not state.is_over():
        player = state.current_players()[0]
        inner = state
        if (player == seat and inner.step == 1 and not inner.passengers
                and inner.regular >= start_from):
            watching = punish_choice(inner) is not None  # what `punish` would fill
            chances += watching
            scorings_at_turn = inner.regular
        legal = moves(state.legal_actions(player))
        give_position(bots[player], state, rngs[player])
        action = bots[player].choose(state.view(player), legal, rngs[player])
        before = state.regular
        session.play(action, seat=player)
        state = session.state
        if watching and state.regular > scorings_at_turn:
            fills += 1
            watching = False
        if state.turn != player:
            watching = False
        for _ in range(state.regular - before):
            diffs.append(state.scores[seat] - state.scores[1 - seat])
    result = state.result()
    winner = result["winner"]
    return {"score": 1.0 if winner == seat else 0.5 if winner is None else 0.0,
            "final": result["scores"][seat] - result["scores"][1 - seat],
            "diffs": diffs, "chances": chances, "fills": fills}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=3005)
    ap.add_argument("--bot", default="search")
    ap.add_argument("--bot-options", default="{}")
    ap.add_argument("--from", dest="start_from", type=int, default=5)
    args = ap.parse_args()
    options = json.loads(args.bot_options)
    games = [one_game(g, s, args.bot, options, args.start_from)
             for g, s in series_seeds(args.seed, 0, args.games)]
    out: dict[str, Any] = {"games": len(games), "wins": sum(x["score"] for x in games)}
    table: dict[str, dict[int, list[int]]] = {"won": defaultdict(list), "lost": defaultdict(list)}
    lost_at: dict[int, int] = defaultdict(int)
    for x in games:
        if x["score"] == 0.5:
            continue
        kind = "won" if x["score"] == 1.0 else "lost"
        for k, d in enumerate(x["diffs"], start=1):
            table[kind][k].append(d)
        if kind == "lost":
            at = len(x["diffs"])
            while at > 0 and x["diffs"][at - 1] < 0:
                at -= 1
            lost_at[at] += 1
    out["diff_after"] = {kind: {k: {"n": len(v), "mean": round(sum(v) / len(v), 1),
                                    "behind": round(sum(d < 0 for d in v) / len(v), 2)}
                                for k, v in sorted(rows.items())}
                         for kind, rows in table.items()}
    out["lead_lost_at"] = dict(sorted(lost_at.items()))
    chances = sum(x["chances"] for x in games)
    out["own_fill"] = {"chances": chances, "filled": sum(x["fills"] for x in games)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
