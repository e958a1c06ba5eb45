"""An independent Trambahn opponent (issue 26, item 3) and a bounded match against our bots.

    nice -n 10 .venv/bin/python benchmarks/trambahn_whole_turn.py --games 100 --bot search

The opponent is written from the rulebook alone (../shared/rules/trambahn-rules-en.md), not
from our bots: at the start of its turn it samples the hidden cards (the engine's
``determinize``, so it knows only its own hand), enumerates every way to place its passengers
(Step 1: one card, or two), completes each turn greedily (stations, income, trams, end: the
action whose position evaluates best) and keeps the whole turn that evaluates best.  Its
evaluation: the score difference; what the columns with trams would score at the scorings
still to come (Scoring); money cards (Step 4); and an explicit model of the other player's next
passengers: from the cards it has not seen, the chance that the other player holds a card of a
row's colour or a conductor (one for a row at 3, two for a row at 2), times what that scoring
would give the other player over it, when it favours them.  Prints one JSON object: the bot's
wins against it over ``--games`` games, seats alternating, with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from math import comb
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots import make_bot  # noqa: E402
from tramways.bots.base import BotBase  # noqa: E402
from tramways.bots.match import play_match  # noqa: E402
from tramways.core import Action  # noqa: E402
from tramways.trambahn.actions import EndTurn, Passenger  # noqa: E402
from tramways.trambahn.cards import CARD_FACE, COLOURS, CONDUCTOR, NUM_CARDS  # noqa: E402
from tramways.trambahn.game import GAME  # noqa: E402

MONEY = 0.5

CAP = 1.5
"""At most this many scorings of a colour are still expected (Scoring)."""
"""A money card's worth in points (a horse tram, x2, costs 5 cards)."""


def colour_scores(state: Any, seat: int) -> list[int]:
    """What a scoring of each colour gives ``seat`` now (Scoring: points x tram value)."""
    out = [0, 0, 0, 0]
    for col in state.columns[seat]:
        if col.tram is not None:
            out[col.colour] += col.score
    return out


def unseen_counts(state: Any, me: int) -> tuple[int, list[int]]:
    """Cards ``me`` has not seen (not in its hand, the rows or any column): how many, and how
    many of each colour that could join a row of that colour (its own colour or a conductor)."""
    seen: set[int] = set(state.hands[me])
    for row in state.rows:
        seen.update(row)
    for cols in state.columns:
        for col in cols:
            seen.update(col.stations)
            seen.update(col.conductors)
    unseen = [c for c in range(NUM_CARDS) if c not in seen]
    conductors = sum(1 for c in unseen if CARD_FACE[c] == CONDUCTOR)
    per = [conductors + sum(1 for c in unseen if CARD_FACE[c][-1:] == colour)
           for colour in COLOURS]
    return len(unseen), per


def at_least(k: int, fitting: int, pool: int, hand: int = 6) -> float:
    """The chance that a hand of ``hand`` cards from ``pool`` holds ``k`` or more of
    ``fitting`` cards (hypergeometric)."""
    if pool <= 0 or hand <= 0:
        return 0.0
    hand = min(hand, pool)
    total = comb(pool, hand)
    below = sum(comb(fitting, i) * comb(pool - fitting, hand - i) for i in range(k))
    return max(0.0, 1.0 - below / total)


def evaluate(state: Any, me: int) -> float:
    """The position for ``me`` (see the module docstring)."""
    other = 1 - me
    diff = float(state.scores[me] - state.scores[other])
    if state.is_over():
        return diff + (1000.0 if diff > 0 else -1000.0 if diff < 0 else 0.0)
    mine, theirs = colour_scores(state, me), colour_scores(state, other)
    left = max(0, 10 - state.regular)
    future = min(CAP, left / 4)
    value = diff + future * sum(m - t for m, t in zip(mine, theirs, strict=True))
    value += MONEY * (len(state.money[me]) - len(state.money[other]))
    value += waiting_columns(state, me, future) - waiting_columns(state, other, future)
    pool, fitting = unseen_counts(state, me)
    for c in range(4):
        waiting = len(state.rows[c])
        gain = theirs[c] - mine[c]
        if gain <= 0 or waiting < 2:
            continue
        chance = at_least(4 - waiting, fitting[c], pool)
        value -= chance * gain
    return value


def waiting_columns(state: Any, seat: int, future: float) -> float:
    """Columns without a tram yet (Step 4: they go to the money pile at the turn's end
    unless one is bought): worth what a horse tram would make of them, while the money
    pile pays for one."""
    if len(state.money[seat]) < 5:
        return 0.0
    return sum(0.7 * max(0.0, col.points * 2 * future - 5 * MONEY)
               for col in state.columns[seat] if col.tram is None)


def greedy_finish(state: Any, me: int) -> tuple[float, list[Action]]:
    """Play the rest of ``me``'s turn, each action the one whose position evaluates best
    (ending the turn when nothing beats it); the final value and the actions."""
    played: list[Action] = []
    while not state.is_over() and state.current_players() == [me]:
        legal = state.legal_actions(me)
        best, best_value = None, float("-inf")
        for a in legal:
            if isinstance(a, Passenger):
                continue  # the passengers are chosen by the enumeration
            after = state.clone()
            after.apply(a, me)
            v = evaluate(after, me)
            if v > best_value or (v == best_value and isinstance(a, EndTurn)):
                best, best_value = a, v
        if best is None:
            best = legal[0]
        state.apply(best, me)
        played.append(best)
        if isinstance(best, EndTurn):
            break
    return evaluate(state, me), played


class WholeTurn(BotBase):
    """The independent opponent (see the module docstring)."""

    name = "whole-turn"

    def __init__(self) -> None:
        self.plan: list[Action] = []
        self.explanation = ""

    def choose(self, view: Any, legal_actions: Any, rng: random.Random) -> Action:
        legal = list(legal_actions)
        if self.plan and self.plan[0] in legal:
            return self.plan.pop(0)
        me = view.you
        state = GAME.determinize(view, rng)
        sequences = self._passengers(state, me)
        best_value, best_plan = float("-inf"), []
        for first in sequences:
            trial = state.clone()
            for a in first:
                trial.apply(a, me)
            value, rest = greedy_finish(trial, me)
            if value > best_value:
                best_value, best_plan = value, list(first) + rest
        self.plan = best_plan
        if self.plan and self.plan[0] in legal:
            return self.plan.pop(0)
        self.plan = []
        return legal[0]

    def _passengers(self, state: Any, me: int) -> list[list[Action]]:
        """Every way to place one or two passengers now (Step 1), or none if past it."""
        firsts = [a for a in state.legal_actions(me) if isinstance(a, Passenger)]
        if not firsts:
            return [[]]
        out: list[list[Action]] = []
        for a in firsts:
            after = state.clone()
            after.apply(a, me)
            out.append([a])
            if after.is_over() or after.current_players() != [me]:
                continue
            for b in after.legal_actions(me):
                if isinstance(b, Passenger):
                    out.append([a, b])
        return out


def wilson(wins: float, games: int, z: float = 1.96) -> list[float] | None:
    if games <= 0:
        return None
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5 / d
    return [round(centre - half, 4), round(centre + half, 4)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--bot", default="search")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--max-seconds", type=float, default=900.0)
    args = ap.parse_args()
    master = random.Random(args.seed)
    wins = 0.0
    margin = 0
    played = 0
    started = time.perf_counter()
    for g in range(args.games):
        if time.perf_counter() - started > args.max_seconds:
            break
        seed = master.randrange(2**53)
        seat = g % 2
        bots: list[Any] = [make_bot(args.bot, GAME), WholeTurn()]
        if seat == 1:
            bots.reverse()
        result = play_match("trambahn", bots, seed).state.result()
        winner = result["winner"]
        wins += 1.0 if winner == seat else 0.5 if winner is None else 0.0
        margin += result["scores"][seat] - result["scores"][1 - seat]
        played += 1
    print(json.dumps({"bot": args.bot, "opponent": "whole-turn", "games": played,
                      "wins": wins, "win_rate": wins / played if played else None,
                      "ci95": wilson(wins, played),
                      "mean_margin": margin / played if played else None,
                      "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
