"""How often the race search's play-outs fill a row at 3 for the other player (issue 26, item 3).

    nice -n 10 .venv/bin/python benchmarks/trambahn_playout_fill.py --positions 300 --rate 0.56 --hold

Plays ``rule`` against itself on the seeds of the series ``--seed`` up to the 5th regular
scoring (where the default search starts its play-outs), then plays one play-out to the end
from there (:func:`~tramways.bots.trambahn_race.play_out`, the player to move as ``me``; the
other player punishes with the chance ``--rate``, ``--hold`` as the ``RaceBot`` option).  At
the start of each of the other player's turns it lists the rows at 3 whose scoring favours it
(:func:`~tramways.bots.trambahn_race.scoring_gain` above 0, T-R-2; T-R-4 with one scoring
left) that its hand could fill (a card of the colour or a conductor) and, at the start of the
next turn, whether the row was scored.  Prints one JSON object: the rows it could fill, the
ones it filled, and the share with a 95% Wilson interval (the yardstick's own share is in
``benchmarks/trambahn_habit.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import series_seeds, wilson  # noqa: E402
from tramways.bots import make_bot, trambahn_race  # noqa: E402
from tramways.bots.trambahn_policy import Planner  # noqa: E402
from tramways.core import Action, Session  # noqa: E402
from tramways.trambahn.cards import CARD_FACE, COLOURS, CONDUCTOR, ROW_SIZE  # noqa: E402
from tramways.trambahn.engine import TrambahnState  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402


def fillable(state: TrambahnState) -> list[int]:
    """The rows at 3 favouring the player to move that its hand can fill."""
    hand = state.hands[state.turn]
    rows = []
    for c, colour in enumerate(COLOURS):
        if len(state.rows[c]) != ROW_SIZE - 1 or trambahn_race.scoring_gain(state, c) <= 0:
            continue
        if any(CARD_FACE[k][-1] == colour or CARD_FACE[k] == CONDUCTOR for k in hand):
            rows.append(c)
    return rows


class FillCount:
    """The other player's turns of one play-out, seen at their first action or punishment."""

    def __init__(self, me: int) -> None:
        self.me = me
        self.turn = -1
        self.open: list[int] = []
        self.could = 0
        self.filled = 0

    def settle(self, state: TrambahnState) -> None:
        """Count the rows found at the start of the last turn of the other player."""
        for c in self.open:
            self.could += 1
            self.filled += len(state.rows[c]) < ROW_SIZE - 1
        self.open = []

    def seen(self, state: TrambahnState) -> None:
        if state.turn_number == self.turn:
            return
        self.settle(state)
        self.turn = state.turn_number
        if state.turn != self.me:
            self.open = fillable(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rate", type=float, default=1.0)
    ap.add_argument("--hold", action="store_true")
    args = ap.parse_args()
    punish, plan_action = trambahn_race.punish, trambahn_race.plan_action
    could = filled = 0
    for _, seed in series_seeds(args.seed, 0, args.positions):
        state = Session.new("trambahn", {}, seed=seed).state
        rule, rng = make_bot("rule", GAME), random.Random(seed)
        while not state.is_over() and state.regular < 5:
            state.apply(rule.choose(state.view(state.turn), state.legal_actions(), rng))
        if state.is_over():
            continue
        counter = FillCount(state.turn)

        def punished(s: TrambahnState, counter: FillCount = counter) -> None:
            counter.seen(s)
            punish(s)

        def planned(s: TrambahnState, actions: list[Action] | None = None,
                    planner: type[Planner] = Planner, counter: FillCount = counter) -> Action:
            counter.seen(s)
            return plan_action(s, actions, planner)

        trambahn_race.punish, trambahn_race.plan_action = punished, planned  # type: ignore[assignment]
        try:
            trambahn_race.play_out(state, counter.me, False, rate=args.rate,
                                   rng=random.Random(seed), hold=args.hold)
        finally:
            trambahn_race.punish, trambahn_race.plan_action = punish, plan_action
        counter.settle(state)
        could, filled = could + counter.could, filled + counter.filled
    print(json.dumps({"positions": args.positions, "seed": args.seed, "rate": args.rate,
                      "hold": args.hold, "could": could, "filled": filled,
                      "share": round(filled / could, 3) if could else None,
                      "ci95": wilson(filled, could)}))


if __name__ == "__main__":
    main()
