"""The 1840 table's programs panel: the seat's programmed actions in words, and the forms
that set and cancel them (docs/async.md, docs/programs.md).

A program is an engine action of the seat (``P1 program pass``, ``P1 program buy WT 4 pool
then-pass``, ``P1 program auctions``, ``P1 program off share``): the panel posts it through
the page's one move path (``POST /g/ID/move``), so it is refused, logged and recorded like
any move.  The engine shows a seat only its own programs (``View1840.programs``, each in
English words, as ``describe()`` says it); this module reads those words back into a
catalog message (:class:`~tramways.server.web.g1840_words.Words`) in the page's language.
The table's other controls leave program notations to this panel (:func:`is_program`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tramways.g1840.view_types import View1840
from tramways.server.web.g1840_words import Words, _, words


def is_program(notation: str) -> bool:
    """Whether a legal notation is a program action (``P1 program ...``)."""
    parts = notation.split(maxsplit=2)
    return len(parts) >= 2 and parts[1] == "program"


_PASS = re.compile(r"pass in (every|this) Share Round(, until another player sells or pars)?")
_BUY = re.compile(r"buy (\S+) from (the pool|the unsold shares) until holding (\d+) shares"
                  r"(, then pass)?")
_AUCTIONS = "pass on bids in the Pre-Share Round and in line auctions"


def program_words(text: str) -> Words:
    """A program as the engine describes it (``Program.describe()``), as a sentence of the
    catalogs; an unknown wording as it is (a test checks every kind is known)."""
    m = _PASS.fullmatch(text)
    if m:
        every, until = m.group(1) == "every", m.group(2) is not None
        if every and until:
            return words(_("Pass in every Share Round, until another player sells or "
                           "buys a director's share"))
        if every:
            return words(_("Pass in every Share Round, whatever the others do"))
        if until:
            return words(_("Pass in this Share Round, until another player sells or buys a "
                           "director's share"))
        return words(_("Pass in this Share Round, whatever the others do"))
    m = _BUY.fullmatch(text)
    if m:
        company, source, held, then_pass = m.groups()
        values: dict[str, Any] = {"company": company, "n": int(held)}
        if source == "the pool":
            return words(_("Buy %(company)s from the pool until I hold %(n)s shares, then pass")
                         if then_pass else
                         _("Buy %(company)s from the pool until I hold %(n)s shares"), **values)
        return words(_("Buy %(company)s from the unsold shares until I hold %(n)s shares, "
                       "then pass") if then_pass else
                     _("Buy %(company)s from the unsold shares until I hold %(n)s shares"),
                     **values)
    if text == _AUCTIONS:
        return words(_("Pass in the Pre-Share Round and in my company's line auctions"))
    return Words(text)


@dataclass(frozen=True)
class Held:
    """One program the seat holds: its kind (``share``, ``auctions``), its words, and the
    notation that switches it off."""

    kind: str
    words: Words
    cancel: str


@dataclass(frozen=True)
class BuyTarget:
    """A company whose shares the seat may program to buy: up to ``most`` shares, from
    ``least`` (one more than it holds)."""

    company: str
    least: int
    most: int


@dataclass(frozen=True)
class ProgramsPanel:
    """What the panel shows a seat: whether it shows at all (``on``), the seat's actor
    (``P1``), its programs, the passes it may program (notation, words), the companies it may
    program to buy (and every such notation, for the panel's script), the auctions' pass."""

    on: bool
    actor: str = ""
    held: tuple[Held, ...] = ()
    passes: tuple[tuple[str, Words], ...] = ()
    buy: tuple[BuyTarget, ...] = ()
    buy_notations: tuple[str, ...] = ()
    auctions: str | None = None


OFF = ProgramsPanel(on=False)


def programs_model(legal: Sequence[str], view: View1840, me: int | None) -> ProgramsPanel:
    """What the panel shows the seat ``me`` (0-based): its programs (``View1840.programs``:
    the engine shows a seat only its own), and what it may set (only what ``legal`` holds:
    nothing for a spectator or a game without programs)."""
    mine = [t for t in legal if is_program(t)]
    if me is None or not mine:
        return OFF
    actor = mine[0].split()[0]
    held = tuple(Held(kind, program_words(text), f"{actor} program off {kind}")
                 for kind, text in sorted(view.programs.items()))
    targets: dict[str, list[int]] = {}
    for text in mine:
        parts = text.split()
        if len(parts) >= 5 and parts[2] == "buy":
            targets.setdefault(parts[3], []).append(int(parts[4]))
    passes = tuple((f"{actor} program pass{flags}", label) for flags, label in (
        ("", words(_("in this Share Round, until another player sells or buys a "
                     "director's share"))),
        (" always", words(_("in this Share Round, whatever the others do"))),
        (" indefinitely", words(_("in every Share Round, until another player sells "
                                  "or buys a director's share"))),
        (" always indefinitely", words(_("in every Share Round, whatever the others do"))),
    ) if f"{actor} program pass{flags}" in mine)
    auctions = f"{actor} program auctions"
    return ProgramsPanel(
        on=True, actor=actor, held=held, passes=passes,
        buy=tuple(BuyTarget(c, min(ns), max(ns)) for c, ns in targets.items()),
        buy_notations=tuple(t for t in mine if t.split()[2] == "buy"),
        auctions=auctions if auctions in mine and "auctions" not in view.programs else None)  # held: its Cancel only
