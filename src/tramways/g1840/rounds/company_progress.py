"""What the steps of a Company Round share (VIII): the round's number and company order, and
the state of its line auctions (VIII.6, R-CR-7).  :class:`CompanyProgress` is the data part
of :class:`~tramways.g1840.rounds.company.CompanyRound`, kept apart so that the auctions
(:mod:`.company_auctions`) read and change it without importing the round's steps."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LineAuction:
    """A line being auctioned (VIII.6)."""

    line: int
    high: int
    high_company: str
    turn: str
    bidders: list[str]  # in CRc order
    passed: set[str] = field(default_factory=set)


@dataclass
class CompanyProgress:
    """What the steps of a Company Round share."""

    number: int
    order: list[str]  # CRc (VIII.4)
    buying: str | None = None  # the company in its buying turn after winning a line (CRe)
    out: set[str] = field(default_factory=set)  # passed on choosing (VIII.6)
    bought: set[str] = field(default_factory=set)  # bought a line this CR
    auction: LineAuction | None = None
    lines_drawn: bool = False  # CRf done (early with the 18xx.games ruleset)
    final: list[str] = field(default_factory=list)  # to rearrange after a mandatory tram
