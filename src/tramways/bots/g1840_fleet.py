"""How an 1840 tram fleet's worth changes with the newest colour bought (Table 7), looking
ahead as people do.

A newer tram runs the same route as an older one (IX.8: the range is unlimited), so a tram's
colour matters only through Table 7: the amount added to its run depends on its colour and on
the newest colour *any* company has bought (R-CR-6).  At the table people expect that newest
colour to advance as the game goes on (in the recorded 2-player game: red in CR3, pink in CR4,
purple in CR5), and they modernise before their old trams run at a loss.
:data:`EXPECTED_NEWEST` is that expectation; every figure here is summed over the Line Rounds
left, each at the newest colour expected then (never older than the one already bought, and at
least the colour a plan buys itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tramways.bots.g1840_model import ViewModel
from tramways.g1840.entities import TRAM_COLOURS

EXPECTED_NEWEST = {5: "purple"}
"""The newest colour (Table 7) a company expects bought by the Line Rounds that follow each
Company Round (by the Company Round's number): what people's games show (red in CR3, pink in
CR4, purple in CR5)."""

ROUTE_GROWTH = 25
"""What a line's best run is expected to grow by per Line Round, as its track grows (IX)."""


def rank(colour: str | None) -> int:
    """A colour's place in the order yellow-orange-red-pink-purple (-1: none)."""
    return TRAM_COLOURS.index(colour) if colour else -1


def newer(a: str | None, b: str | None) -> str | None:
    return a if rank(a) >= rank(b) else b


def newest_path(model: ViewModel, bought: str | None = None,
                expected: dict[int, str] | None = None) -> list[str]:
    """The newest colour expected in each Line Round after the current round: the one
    already bought (the view's ``trams.newest``), ``bought`` (a plan's own purchase) and
    :data:`EXPECTED_NEWEST` for the rounds it names, whichever is newest."""
    forecast = EXPECTED_NEWEST if expected is None else expected
    current: str = newer(model.view.trams.newest, bought) or TRAM_COLOURS[0]
    out: list[str] = []
    for r in model.ent.round_bar[model.round_index + 1:]:
        if r.type != "LR":
            continue
        digits = "".join(ch for ch in r.name if ch.isdigit())
        current = (newer(current, forecast.get(int(digits))) if digits else None) or current
        out.append(current)
    return out


def runs_with(model: ViewModel, line: int, colour: str, path: Sequence[str],
              scrap_at_loss: bool = True) -> int:
    """What ``line`` earns with a ``colour`` tram over the Line Rounds of ``path`` (its route
    now growing by :data:`ROUTE_GROWTH` a round, Table 7's amount at each round's newest
    colour); a run at a loss counts as 0 when
    ``scrap_at_loss`` (the tram would be scrapped, VIII.5.3)."""
    bare = model.run_value(line, colour=colour, with_maintenance=False)
    total = 0
    for ahead, newest in enumerate(path):
        run = bare + ROUTE_GROWTH * ahead \
            + model.ent.maintenance_for(colour, newer(newest, colour) or colour)
        total += max(0, run) if scrap_at_loss else run
    return total


def maintenance_sum(model: ViewModel, colour: str, path: Sequence[str]) -> int:
    """Table 7's amounts for a ``colour`` tram over ``path`` (negative: costs)."""
    return sum(model.ent.maintenance_for(colour, newer(n, colour) or colour) for n in path)


def fleet_loss(model: ViewModel, cid: str, skip: int, path: Sequence[str],
               after: Sequence[str]) -> int:
    """What the company's trams other than the one on its ``skip``-th line lose over the
    rounds left when the newest colour follows ``after`` instead of ``path`` (a tram at a
    loss counted as scrapped)."""
    c = model.company(cid)
    lost = 0
    for i, line in enumerate(c.lines):
        tram = c.trams[i] if i < len(c.trams) else None
        if i == skip or not tram:
            continue
        lost += runs_with(model, line, tram, path) - runs_with(model, line, tram, after)
    return lost


@dataclass(frozen=True)
class Upgrade:
    """A newer tram for one line (VIII.5.3): what it gains over the Line Rounds left after
    its price, and what it costs with the replacements it forces (``cost``)."""

    gain: float
    colour: str
    old: str
    line: int
    cost: int


def replacement_cost(model: ViewModel, cid: str, skip: int, newest: str,
                     before: str | None) -> int | None:
    """What the company must pay so that none of its trams (but the one on its ``skip``-th
    line) that runs at a profit at the newest colour ``before`` runs at a loss once
    ``newest`` is bought: for each tram that would, the cheapest newer colour on sale that
    runs at a profit there (None: none can)."""
    c = model.company(cid)
    total = 0
    for i, line in enumerate(c.lines):
        tram = c.trams[i] if i < len(c.trams) else None
        if i == skip or not tram:
            continue
        bare = model.run_value(line, colour=tram, with_maintenance=False)
        if bare + model.ent.maintenance_for(tram, newer(newest, tram) or tram) > 0:
            continue
        if bare + model.ent.maintenance_for(tram, newer(before, tram) or tram) <= 0:
            continue  # at a loss anyway: not this purchase's doing
        prices = [model.tram_price(col) for col in TRAM_COLOURS
                  if rank(col) > rank(tram) and model.tram_price(col) < 10**6
                  and bare + model.ent.maintenance_for(col, newer(newest, col) or col) > 0]
        if not prices:
            return None
        total += min(prices)
    return total


def purchase_harm(model: ViewModel, cid: str, skip: int, colour: str,
                  treasury: int | None, harm_weight: float) -> tuple[float, int, list[str]]:
    """What buying a ``colour`` tram (for the company's ``skip``-th line; -1: a line without
    one) costs its other trams over the rounds left, the replacements it forces
    (:func:`replacement_cost`: its trams it puts at a loss at once), and the newest colours
    to weigh the alternative (keeping the old tram) by.  When ``treasury`` (None: any) pays
    the tram and those replacements, the loss is weighed by ``harm_weight`` against the
    newest colours expected anyway (:func:`newest_path`); otherwise in full, against the
    newest colour as it is now (no company may follow), and nothing is replaced."""
    price = model.tram_price(colour)
    after = newest_path(model, bought=colour)
    newest = model.view.trams.newest
    more = replacement_cost(model, cid, skip, newer(newest, colour) or colour, newest)
    if more is None or (treasury is not None and price + more > treasury):
        now = newest_path(model, expected={})
        return float(fleet_loss(model, cid, skip, now, after)), 0, now
    path = newest_path(model)
    return harm_weight * fleet_loss(model, cid, skip, path, after), more, path


def best_upgrade(model: ViewModel, cid: str, treasury: int | None, margin: float,
                 harm_weight: float) -> Upgrade | None:
    """With a tram on every line, the newer tram that gains most over the Line Rounds left
    after its price, at the newest colours expected (:func:`newest_path`), less
    what the company's other trams lose to it (:func:`purchase_harm`; ``Upgrade.cost``: its
    price and the replacements it forces).  Only gains above ``margin``."""
    c = model.company(cid)
    owned = [t for t in c.trams if t]
    if not c.lines or len(owned) < len(c.lines):
        return None
    best: Upgrade | None = None
    for colour in TRAM_COLOURS:
        price = model.tram_price(colour)
        if price >= 10**6 or (treasury is not None and price > treasury):
            continue
        after = newest_path(model, bought=colour)
        for i, line in enumerate(c.lines):
            old = c.trams[i] if i < len(c.trams) else None
            if old is None or rank(colour) <= rank(old):
                continue
            harm, more, path = purchase_harm(model, cid, i, colour, treasury, harm_weight)
            gain = (runs_with(model, line, colour, after) - runs_with(model, line, old, path)
                    - harm - price)
            if gain > margin and (best is None or gain > best.gain):
                best = Upgrade(gain, colour, old, line, price + more)
    return best


def tram_need(model: ViewModel, cid: str, expected: bool = False) -> int:
    """What the company needs to run every line (up to three) at a profit in the next Line
    Round: for a line without a tram (and no spare tram for it), or whose tram runs at a loss
    (Table 7), the cheapest colour on sale that runs it at a profit (or the cheapest).  With
    ``expected``, at the newest colour expected then (:func:`newest_path`), and only where
    that tram earns its price over the rounds left."""
    c = model.company(cid)
    path = newest_path(model) if expected else newest_path(model, expected={})
    newest = path[0] if path else model.view.trams.newest
    spares = len([t for t in c.trams[len(c.lines):] if t])
    need = 0
    for i, line in enumerate(c.lines[:model.ent.max_trams]):
        tram = c.trams[i] if i < len(c.trams) else None
        if tram is None and spares:
            spares -= 1
            continue
        bare = model.run_value(line, colour=tram, with_maintenance=False)
        if tram and bare + model.ent.maintenance_for(tram, newer(newest, tram) or tram) > 0:
            continue
        prices = sorted((bare + model.ent.maintenance_for(col, newer(newest, col) or col) <= 0,
                         model.tram_price(col), col) for col in TRAM_COLOURS
                        if model.tram_price(col) < 10**6 and rank(col) > rank(tram))
        if not prices:
            continue
        _, price, col = prices[0]
        if not expected or runs_with(model, line, col, newest_path(model, bought=col)) > price:
            need += price
    return need


OTHERS_BUY_PURPLE = 0.75
"""In the last tram-buying round, the chance a company gives to another company buying the
first purple tram if it does not (Table 7: its old trams then lose 300 or 400 a run)."""


@dataclass(frozen=True)
class FleetPlan:
    """The trams a company runs after its last tram-buying turn (VIII.5.3, CR5): one colour
    per line (None: no tram), what it buys and scraps for that, and its worth."""

    colours: tuple[str | None, ...]
    buys: tuple[str, ...]
    scraps: tuple[str, ...]
    cost: int
    value: float


def last_round_plan(model: ViewModel, cid: str, cash: int, free: int) -> FleetPlan | None:
    """The best fleet for the Line Rounds left after the last tram-buying round: every
    assignment of the company's trams or newer ones on sale to its lines that ``cash`` pays,
    valued by what the lines then earn (Table 7 at the newest colour after it, and, unless it
    brings purple itself, :data:`OTHERS_BUY_PURPLE` of the runs at purple) less what it costs
    beyond ``free`` (treasury money, worth nothing at the end of the game, XI)."""
    c = model.company(cid)
    lines = c.lines[:model.ent.max_trams]
    now = [c.trams[i] if i < len(c.trams) else None for i in range(len(lines))]
    counts = {t.colour: t.count for t in model.view.trams.on_sale
              if model.tram_price(t.colour) < 10**6}
    rounds = model.rounds_left("LR")
    best: FleetPlan | None = None
    for choice in _assignments(now, sorted(counts, key=rank)):
        bought = [col for col, old in zip(choice, now, strict=True) if col is not None and col != old]
        if any(bought.count(col) > counts[col] for col in set(bought)):
            continue
        cost = sum(model.tram_price(col) for col in bought)
        if cost > cash:
            continue
        newest = model.view.trams.newest
        for col in bought:
            newest = newer(newest, col)
        value = 0.0
        for line, kept in zip(lines, choice, strict=True):
            if kept is None:
                continue
            col = kept
            own: float = runs_with(model, line, col, [newest or col] * rounds)
            if rank(newest) < rank("purple"):
                later = runs_with(model, line, col, ["purple"] * rounds)
                own = (1 - OTHERS_BUY_PURPLE) * own + OTHERS_BUY_PURPLE * later
            value += own
        value -= max(0, cost - free)
        scraps = tuple(old for col, old in zip(choice, now, strict=True) if old is not None and col != old)
        plan = FleetPlan(tuple(choice), tuple(bought), scraps, cost, value)
        if best is None or plan.value > best.value or (
                plan.value == best.value and plan.cost < best.cost):
            best = plan
    return best


def _assignments(now: Sequence[str | None], colours: Sequence[str]
                 ) -> list[tuple[str | None, ...]]:
    """Every choice per line: keep its tram, a newer colour on sale, or none."""
    out: list[tuple[str | None, ...]] = [()]
    for old in now:
        options: list[str | None] = [None]
        if old is not None:
            options.append(old)
        options += [col for col in colours if rank(col) > rank(old)]
        out = [prev + (opt,) for prev in out for opt in options]
    return out
