"""How an 1840 game was played, read from its log: the figures people's games are compared by (docs/bots.md).

The same reading serves a bot game and a game people played on 18xx.games (imported with
``import-18xx``), so the two can stand side by side (``benchmarks/realism.py``).  Everything is
read from the engine's own log lines (IX.7 runs, IX.4 lays, VIII.6 line auctions, VIII.5.3 trams,
VI private auctions) and the final view (Stadtbahn prices and runs, VIII.5.2; wealth, XI).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tramways.g1840.view_types import View1840

STADTBAHN_BUILT = ("W", "G")
"""The two Stadtbahn companies the lines build (their tiles are laid by lines, IX.4); D starts
built."""

_RUN = re.compile(r"^Line (\d+) runs \(.*\) for (-?\d+)$")
_LAY = re.compile(r"^Line (\d+) lays tile (\S+) on (\S+) \(rotation \d\)( for \d+)?$")
_LINE_BOUGHT = re.compile(r"^(\S+) buys line (\d+) for (\d+)$")
_TRAM_BOUGHT = re.compile(r"^(\S+) buys a (\S+) tram for (\d+)$")
_SCRAP = re.compile(r"^(\S+) scraps (a (\S+) tram|line \d+'s (\S+) tram)$")
_PRIVATE_BOUGHT = re.compile(r"^Player \d+ buys ([A-Z]{2}) for (\d+)$")
_LOAN = re.compile(r"^.* takes (\d+) loan\(s\) of (\d+)$")
_BONUS = re.compile(r"^Bonus action: (.*)$")


@dataclass
class GameFigures:
    """One game's figures: runs and lays of the lines, prices paid, trams, Stadtbahn, wealth."""

    runs: list[int] = field(default_factory=list)
    """Every line run's income (IX.7), in order; a line without a tram runs for 0."""
    lays: int = 0
    """Tiles the lines laid (IX.4), Stadtbahn tiles included."""
    stadtbahn_lays: int = 0
    """Tiles laid at a cost: the Stadtbahn tiles (IX.4), which build W and G."""
    line_prices: list[int] = field(default_factory=list)
    """What each line auctioned cost its company (VIII.6)."""
    trams_bought: dict[str, int] = field(default_factory=dict)
    """Trams bought, by colour (VIII.5.3)."""
    scrapped: int = 0
    """Trams scrapped (Table 7, IX)."""
    private_prices: dict[str, int] = field(default_factory=dict)
    """What each private fetched in the Pre-Share Round (VI)."""
    loans: int = 0
    """Loans taken (VIII.5.3)."""
    stadtbahn_price: dict[str, int] = field(default_factory=dict)
    """Each Stadtbahn company's share price at the end."""
    stadtbahn_run: dict[str, int] = field(default_factory=dict)
    """Each Stadtbahn company's last run (with its multiplier, VIII.5.2)."""
    wealth: list[int] = field(default_factory=list)
    """Final wealth by seat (XI)."""
    bonus_actions: int = 0
    """Bonus actions the Stadtbahn tiles brought (R-LR-1; every light-orange hex prints one,
    so one per Stadtbahn tile laid; the Danube bridge's costly lay, IX.4, brings none)."""
    tile_bonuses: int = 0
    """Tile-laying bonus actions the Stadtbahn tiles brought (R-LR-1: an additional yellow
    tile, a green upgrade, a red inner-city or a purple railway station tile), laid or not."""

    @property
    def tiles_per_run(self) -> float:
        return self.lays / len(self.runs) if self.runs else 0.0

    @property
    def tiles_ceiling(self) -> float:
        """The most tiles per run this game's runs allowed (IX.3: a line's turn holds one lay
        or upgrade of its own, one Stadtbahn tile and that tile's bonus): every run with its
        own lay, and every Stadtbahn tile laid with its tile-laying bonus laid too."""
        if not self.runs:
            return 0.0
        return (len(self.runs) + self.bonus_actions + self.tile_bonuses) / len(self.runs)

    @property
    def zero_runs(self) -> float:
        """The share of line runs that earned nothing (0 or less)."""
        return sum(1 for r in self.runs if r <= 0) / len(self.runs) if self.runs else 0.0

    @property
    def mean_run(self) -> float:
        return sum(self.runs) / len(self.runs) if self.runs else 0.0

    @property
    def lowest_wealth(self) -> int:
        return min(self.wealth) if self.wealth else 0


def read_log(lines: Iterable[str], figures: GameFigures | None = None) -> GameFigures:
    """The log's figures (added to ``figures`` when given)."""
    out = figures if figures is not None else GameFigures()
    for line in lines:
        _read_line(line, out)
    return out


def _read_line(line: str, out: GameFigures) -> None:
    m = _RUN.match(line)
    if m:
        out.runs.append(int(m.group(2)))
        return
    m = _LAY.match(line)
    if m:
        out.lays += 1
        out.stadtbahn_lays += m.group(4) is not None
        return
    m = _LINE_BOUGHT.match(line)
    if m:
        out.line_prices.append(int(m.group(3)))
        return
    m = _TRAM_BOUGHT.match(line)
    if m:
        colour = m.group(2)
        out.trams_bought[colour] = out.trams_bought.get(colour, 0) + 1
        return
    if _SCRAP.match(line):
        out.scrapped += 1
        return
    m = _PRIVATE_BOUGHT.match(line)
    if m and m.group(1) not in out.private_prices:
        out.private_prices[m.group(1)] = int(m.group(2))
        return
    m = _LOAN.match(line)
    if m:
        out.loans += int(m.group(1))
        return
    m = _BONUS.match(line)
    if m:
        out.bonus_actions += 1
        out.tile_bonuses += "tile" in m.group(1)


def read_end(view: View1840, figures: GameFigures) -> GameFigures:
    """Add the final view's figures: Stadtbahn prices and runs, wealth (XI)."""
    for sid, sb in view.stadtbahn.items():
        figures.stadtbahn_price[sid] = sb.price
        figures.stadtbahn_run[sid] = sb.last_run
    if view.result is not None:
        figures.wealth = list(view.result.wealth)
    else:
        figures.wealth = [p.value for p in view.players]
    return figures


def game_figures(log: Iterable[str], final_view: View1840) -> GameFigures:
    """The figures of a whole game from its log and its final (public) view."""
    return read_end(final_view, read_log(log))
