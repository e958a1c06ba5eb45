"""The 1840 game statistics, read from the public log alone.

Per tram company and Company Round: the revenue its lines ran since the previous Company
Round (IX.7, the "Line N runs ... for I" lines, a loss taken from it as far as it goes,
R-LR-9), the dividend it paid (VIII.5.1) and its share
price after it (X.2); per Stadtbahn company and Company Round: its run and price after
(VIII.5.2).  A line belongs to one company for the whole game (IV.3), so the view's lines say
whose runs are whose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tramways.g1840.ruleset import Ruleset
from tramways.g1840.view_types import View1840
from tramways.server.web.g1840_log import RoundStart

_ROUND = re.compile(r"^(CR\d+) begins\b")
_RUN = re.compile(r"^Line (\d+) runs .* for (-?\d+)$")
_PAY = re.compile(r"^(\S+) pays (\d+) \(\d+ per share\), retains the rest; price \d+ -> (\d+)$")
_STADTBAHN = re.compile(r"^Stadtbahn (\S+) runs for (\d+) \(x\d+\), \d+ per share; "
                        r"price \d+ -> (\d+)$")


@dataclass
class Cell:
    """One company in one Company Round."""

    revenue: int | None = None
    paid: int | None = None
    price: int | None = None


@dataclass
class Statistics:
    rounds: list[str] = field(default_factory=list)
    companies: dict[str, list[Cell]] = field(default_factory=dict)
    stadtbahn: dict[str, list[Cell]] = field(default_factory=dict)


def statistics(log: list[str], view: View1840) -> Statistics:
    """The Company Rounds so far, each company's revenue, dividend and price after."""
    owner = {line: cid for cid, c in view.companies.items() for line in c.lines}
    skips = Ruleset.of({"ruleset": view.ruleset, "edition": view.edition}).loss_skips_revenue
    out = Statistics()
    ran: dict[str, int] = {}
    for line in log:
        found = _ROUND.match(line)
        if found:
            out.rounds.append(found.group(1))
            for table in (out.companies, out.stadtbahn):
                for cells in table.values():
                    cells.append(Cell())
            continue
        run = _RUN.match(line)
        if run and int(run.group(1)) in owner:
            cid, income = owner[int(run.group(1))], int(run.group(2))
            ran[cid] = _onto_revenue(ran.get(cid, 0), income, skips)
            continue
        pay = _PAY.match(line)
        if pay and out.rounds:
            cell = _cell(out.companies, pay.group(1), len(out.rounds))
            cell.revenue, cell.paid = ran.pop(pay.group(1), 0), int(pay.group(2))
            cell.price = int(pay.group(3))
            continue
        sb = _STADTBAHN.match(line)
        if sb and out.rounds:
            cell = _cell(out.stadtbahn, sb.group(1), len(out.rounds))
            cell.revenue = cell.paid = int(sb.group(2))
            cell.price = int(sb.group(3))
    return out


def _onto_revenue(revenue: int, income: int, skips: bool) -> int:
    """R-LR-9: an income onto the revenue space; a loss from it as far as it goes (the rest
    from the treasury), or not at all where the ruleset skips it (X-3)."""
    if income >= 0:
        return revenue + income
    return revenue if skips else max(revenue + income, 0)


def _cell(table: dict[str, list[Cell]], company: str, rounds: int) -> Cell:
    cells = table.setdefault(company, [])
    while len(cells) < rounds:
        cells.append(Cell())
    return cells[rounds - 1]


# -- each player's worth over time ---------------------------------------

@dataclass(frozen=True)
class Sample:
    """A column of the worth table: a Company Round's name and the position after its last
    move (``label`` "": the position shown, the end once the game is over)."""

    label: str
    n: int


def company_round_ends(starts: list[RoundStart], n: int, over: bool) -> list[Sample]:
    """Each Company Round that has ended at position ``n`` and the position after its last
    move: where the next round starts, or, for the last one of a game that is over (it ends
    after a Company Round, XI / R-CR-4), ``n`` itself."""
    out = []
    for k, start in enumerate(starts):
        if not start.round.startswith("CR"):
            continue
        if k + 1 < len(starts) and starts[k + 1].n <= n:
            out.append(Sample(start.round, starts[k + 1].n))
        elif k + 1 == len(starts) and over:
            out.append(Sample(start.round, n))
    return out


@dataclass(frozen=True)
class Worth:
    """Each player's worth as the game's result counts it (XI / R-END-1: cash, shares at
    their market price, privates at face value, each loan as the end counts it:
    ``Position.wealth``, the view's ``value``) after each Company Round and at the position
    shown (the last column: the end once the game is over)."""

    samples: list[Sample]
    names: list[str]
    values: list[list[int]]
    """Per player (seat order), one value per sample."""


def worth(samples: list[Sample], values: dict[int, list[int]], view: View1840,
          n: int) -> Worth:
    """The worth table from the players' values at each sample's position (``values``, by
    position; a sample without them is left out) and the view shown (position ``n``: the
    last column)."""
    shown = [s for s in samples if s.n in values]
    names = [p.name for p in view.players]
    now = [p.value for p in view.players]
    return Worth([*shown, Sample("", n)], names,
                 [[values[s.n][seat] for s in shown] + [now[seat]] for seat in range(len(names))])
