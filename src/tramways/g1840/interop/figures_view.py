"""Our engine's figures, from its spectator view, in the paths of the site's figures
(:mod:`.trace`, whose module docstring lists them).

:func:`figures_from_view` is the adapter the comparison of every import (``--check``) and of
the round trip relies on; it mirrors three equivalences of the site (the Pre-emptive Right
card as cash from SR1 on, a private without owner after the Pre-Share Round as "closed", the
lines left on display once every company has three as out of the game).
"""

from __future__ import annotations

from collections.abc import Sequence

from tramways.g1840.interop.trace import MAX_LINES, Figures
from tramways.g1840.view_types import CompanyView, View1840


def figures_from_view(
    view: View1840,
    tram_companies: Sequence[str] = (),
    privates: Sequence[str] = (),
) -> Figures:
    """Our engine's figures, from the spectator view ``State1840.view(None)``
    (:mod:`tramways.g1840.view`), in the same paths as :func:`.trace.figures_from_state`.

    ``tram_companies``: the companies drawn at set-up (X-1, our ids); those not parred yet are
    listed as the site lists them (no cash, no price, 100% unsold).  ``privates``: the privates
    in the game; one missing from the view has been returned to the bank.  Two equivalences of the
    site are mirrored: the Pre-emptive Right card (350) counts as cash from SR1 on (the site pays
    it out then, interpretations.md), and after the Pre-Share Round a private without owner has
    been returned to the bank ("closed"); a line whose tram is ``None`` has none; once every
    tram company has three lines the lines left on display are out of the game (the site
    removes them, 158; equivalent by VIII.6/VIII.7 since nobody can buy them).
    """
    round_ = "End" if view.finished else view.round
    figures: Figures = {"round": round_}
    _players(view, round_, figures)
    order = list(tram_companies) + [c for c in view.companies if c not in tram_companies]
    lines: dict[int, tuple[str, str | None, list[str]]] = {}
    for cid in order:
        _company(view, cid, figures, lines)
    _stadtbahn(view, figures)
    display = list(view.line_display)
    in_game = [view.companies.get(cid) for cid in order]
    if in_game and all(c is not None and len(c.lines) >= MAX_LINES for c in in_game):
        display = []  # no company can buy a line any more: the site removes the unsold ones
    for line in sorted(set(display) | set(lines)):
        company, tram, markers = lines.get(line, (None, None, []))
        figures[f"line:{line}.company"] = company
        figures[f"line:{line}.tram"] = tram
        figures[f"line:{line}.markers"] = markers
    figures["lines.display"] = sorted(display)
    _privates(view, round_, privates, figures)
    for hexname, placed in sorted(view.tiles.items()):
        figures[f"tile:{hexname}"] = f"{placed.tile}@{placed.rotation}"
    return figures


def _players(view: View1840, round_: str, figures: Figures) -> None:
    """Each player's cash, loans, wealth (R-END-1), shares and privates."""
    for p in view.players:
        key = f"player:{p.name}"
        card = p.pre_emptive_right if round_ != "PRE" else 0
        figures[f"{key}.cash"] = p.cash + card
        figures[f"{key}.loans"] = p.loans
        figures[f"{key}.value"] = p.value + card
        for company, percent in sorted(p.shares.items()):
            if percent:
                figures[f"{key}.shares.{company}"] = percent
        figures[f"{key}.privates"] = sorted(p.privates)


def _cell(view: View1840, company: str) -> str | None:
    cell = view.market.get(company)
    return None if cell is None else f"{cell[0]},{cell[1]}"


def _company(view: View1840, cid: str, figures: Figures,
             lines: dict[int, tuple[str, str | None, list[str]]]) -> None:
    """A tram company's figures; ``lines`` receives its lines' owner, tram and markers."""
    key = f"company:{cid}"
    c: CompanyView | None = view.companies.get(cid)
    if c is None:  # drawn, not parred yet
        figures.update({f"{key}.cash": 0, f"{key}.share_price": None,
                        f"{key}.share_cell": None, f"{key}.unsold": 100,
                        f"{key}.lines": [], f"{key}.trams": [], f"{key}.fleet": [],
                        f"{key}.privates": []})
        return
    figures[f"{key}.cash"] = c.treasury
    figures[f"{key}.share_price"] = c.price
    figures[f"{key}.share_cell"] = _cell(view, cid)
    figures[f"{key}.unsold"] = c.ipo
    if c.pool:
        figures[f"{key}.pool"] = c.pool
    own = list(c.lines)
    trams = list(c.trams)
    figures[f"{key}.lines"] = sorted(own)
    figures[f"{key}.trams"] = sorted(t for t in trams[len(own):] if t)
    figures[f"{key}.fleet"] = sorted(t for t in trams if t)
    figures[f"{key}.privates"] = sorted(c.privates)
    for i, line in enumerate(own):
        lines[line] = (cid, trams[i] if i < len(trams) else None,
                       sorted(m.split(".")[0] for m in c.markers.get(line, ())))


def _stadtbahn(view: View1840, figures: Figures) -> None:
    for sid, sb in view.stadtbahn.items():
        key = f"stadtbahn:{sid}"
        figures[f"{key}.share_price"] = sb.price
        figures[f"{key}.share_cell"] = _cell(view, sid)
        figures[f"{key}.unsold"] = sb.ipo
        if sb.pool:
            figures[f"{key}.pool"] = sb.pool
        figures[f"{key}.markers"] = sorted(m.split(".")[0] for m in sb.markers)


def _privates(view: View1840, round_: str, privates: Sequence[str], figures: Figures) -> None:
    """Each private's owner: a player, a company, ``closed`` (returned) or ``None`` (PRE)."""
    names = {p.seat: p.name for p in view.players}
    for private, owner in view.privates.items():
        value: str | None
        if owner is None:
            value = None if round_ == "PRE" else "closed"
        elif isinstance(owner, int) and not isinstance(owner, bool):
            value = f"player:{names.get(owner, owner)}"
        else:
            value = f"company:{owner}"
        figures[f"private:{private}.owner"] = value
    for private in privates:
        figures.setdefault(f"private:{private}.owner", "closed")
