"""Programmed actions: standing orders a player gives so that the game goes on without them.

Games played over days stall on every routine pass.  As on 18xx.games, a player may program
their seat; the engine then plays, as that seat's own action, what the program says whenever
the seat is to act and the program fits the position (:mod:`tramways.g1840.programs` fires
them).  The programs are part of the game's record (the actions below), so a replay of the
record plays the same game.  They exist only in games whose settings turn them on
(``settings["programs"]``): no printed rule has them, and games without them (every record
before them, the bots' and the environments' games) list none.

The kinds, with their notation:

* ``P1 program pass`` (``ProgramSharePass``): pass in this Share Round whenever it is my turn,
  until another player sells shares or buys a director's share (the site's "shenanigans");
  ``always``: whatever the others do; ``indefinitely``: in every Share Round to come, not
  only this one.
* ``P1 program buy WT 4`` (``ProgramBuyShares``): buy a share of WT whenever it is my turn
  until I hold 4 shares (a director's share counts as its shares); ``pool``: only while the
  share comes from the pool (otherwise from the unsold shares); ``then-pass``: when done, go
  on with ``program pass``.
* ``P1 program auctions`` (``ProgramAuctionPass``): pass in the Pre-Share Round's auctions
  and in the line auctions of the company I direct, until I cancel it.
* ``P1 program off share`` / ``P1 program off auctions`` (``CancelProgram``).

A seat has at most one program of each kind: ``share`` (pass or buy) and ``auctions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from tramways.core.errors import NotationError
from tramways.g1840.actions import PlayerAction
from tramways.g1840.notation import notation, read_int, read_name

PROGRAM_RULE = "programs"
"""The rule an illegal program names: no printed rule has them (docs/programs.md)."""

KINDS = ("share", "auctions")
"""The kinds of program a seat may hold, one of each."""


class Program(PlayerAction):
    """A player action that sets a standing order (never part of the rulebook's game)."""

    __slots__ = ()
    kind_of_program: ClassVar[str]
    verb: ClassVar[str] = "program"
    standing_order: ClassVar[bool] = True

    def describe(self) -> str:
        """The program in words, for the log and the owner's view."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class ProgramSharePass(Program):
    """Pass in Share Rounds on my turn (until another player acts, unless ``always``)."""

    unconditional: bool = False
    indefinite: bool = False
    kind_of_program: ClassVar[str] = "share"

    def args(self) -> str:
        return " ".join(["pass", *(["always"] if self.unconditional else []),
                         *(["indefinitely"] if self.indefinite else [])])

    def describe(self) -> str:
        scope = "every Share Round" if self.indefinite else "this Share Round"
        until = "" if self.unconditional else ", until another player sells or pars"
        return f"pass in {scope}{until}"


@dataclass(frozen=True, slots=True)
class ProgramBuyShares(Program):
    """Buy a share of ``company`` on my turn until I hold ``until`` shares."""

    company: str
    until: int
    from_pool: bool = False
    pass_after: bool = False
    kind_of_program: ClassVar[str] = "share"

    def args(self) -> str:
        return " ".join(["buy", self.company, str(self.until),
                         *(["pool"] if self.from_pool else []),
                         *(["then-pass"] if self.pass_after else [])])

    def describe(self) -> str:
        source = "the pool" if self.from_pool else "the unsold shares"
        after = ", then pass" if self.pass_after else ""
        return f"buy {self.company} from {source} until holding {self.until} shares{after}"


@dataclass(frozen=True, slots=True)
class ProgramAuctionPass(Program):
    """Pass in the Pre-Share Round's auctions and my company's line auctions."""

    kind_of_program: ClassVar[str] = "auctions"

    def args(self) -> str:
        return "auctions"

    def describe(self) -> str:
        return "pass on bids in the Pre-Share Round and in line auctions"


@dataclass(frozen=True, slots=True)
class CancelProgram(Program):
    """Switch off my program of ``program_kind`` (``share`` or ``auctions``)."""

    program_kind: str
    kind_of_program: ClassVar[str] = ""

    def args(self) -> str:
        return f"off {self.program_kind}"

    def describe(self) -> str:
        return f"switch off the {self.program_kind} program"


def _flags(words: list[str], allowed: tuple[str, ...]) -> set[str]:
    found = set(words)
    unknown = found - set(allowed)
    if unknown or len(found) != len(words):
        raise NotationError(f"program: unknown or repeated word(s) {' '.join(words)!r} "
                            f"(allowed: {', '.join(allowed)})")
    return found


def _parse(seat: int, args: list[str]) -> Program:
    if not args:
        raise NotationError("program: expected pass, buy, auctions or off")
    what, rest = args[0], args[1:]
    if what == "pass":
        flags = _flags(rest, ("always", "indefinitely"))
        return ProgramSharePass(seat, "always" in flags, "indefinitely" in flags)
    if what == "buy":
        if len(rest) < 2:
            raise NotationError("program buy: expected a company and a number of shares")
        flags = _flags(rest[2:], ("pool", "then-pass"))
        return ProgramBuyShares(seat, read_name(rest[0], "company"), read_int(rest[1], "until"),
                                "pool" in flags, "then-pass" in flags)
    if what == "auctions" and not rest:
        return ProgramAuctionPass(seat)
    if what == "off" and len(rest) == 1 and rest[0] in KINDS:
        return CancelProgram(seat, rest[0])
    raise NotationError(f"program: cannot read {' '.join(args)!r}")


@dataclass(frozen=True, slots=True)
class Standing:
    """A program a seat holds: the action that set it, the round it was set in
    (``round_index`` of the Round Bar) and how many share events that round had seen then."""

    program: Program
    round_index: int
    since: int


@notation
class _ProgramNotation(Program):
    """The one parser filed under the verb ``program`` (the four classes share it)."""

    __slots__ = ()

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        return _parse(subject, args)  # type: ignore[return-value]
