"""Playing the programmed actions of :mod:`tramways.g1840.program_actions`.

The engine asks :func:`next_programmed` after every action, once the Round Bar has come to
rest: if the seat to act holds a program that fits the position, the program's action is
played as that seat's own action (through the round's own rules), and the engine asks again;
programs of several seats may fire one after another on one move.  A program that no longer
fits is switched off with the reason in the log, as the site's ``program_disable`` does:

* ``share`` programs last while Share Rounds last: one that is not ``indefinitely`` is
  removed when a round other than a Share Round begins (:func:`round_begins`);
* a conditional pass stops once another player has sold shares or bought a director's share
  since the program was set (or since its Share Round began);
* a purchase stops once the holding is reached (then ``then-pass`` sets a pass), when the share
  would come from the other source, or when the share cannot be bought (VII.3, VII.6).

Everything here is a pure function of the position, so a replay of the record fires the same
programs at the same moments.
"""

from __future__ import annotations

from dataclasses import dataclass

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Bid, BuyShare, CompanyPass, LineBid, Pass
from tramways.g1840.position import Position
from tramways.g1840.program_actions import (
    KINDS,
    PROGRAM_RULE,
    CancelProgram,
    Program,
    ProgramAuctionPass,
    ProgramBuyShares,
    ProgramSharePass,
    Standing,
)
from tramways.g1840.rounds.share import ShareRound


@dataclass(frozen=True, slots=True)
class Fired:
    """What a program does now: the action to play, and the words for the log."""

    action: Action
    program: Program


def enabled(pos: Position) -> bool:
    """Whether the game's settings allow programs (``settings["programs"]``)."""
    return bool(pos.settings.get("programs", False))


def legal_programs(pos: Position, seat: int) -> list[Program]:
    """The program actions ``seat`` may take now (any time while the game goes on)."""
    if not enabled(pos) or pos.finished:
        return []
    out: list[Program] = [ProgramSharePass(seat, always, forever)
                          for always in (False, True) for forever in (False, True)]
    per_share = pos.ent.share_percent
    most = pos.ent.max_percent // per_share
    for company in list(pos.companies) + list(pos.stadtbahn):
        held = pos.players[seat].shares.get(company, 0) // per_share
        out.extend(ProgramBuyShares(seat, company, until, pool, then_pass)
                   for until in range(held + 1, most + 1)
                   for pool in (False, True) for then_pass in (False, True))
    out.append(ProgramAuctionPass(seat))
    out.extend(CancelProgram(seat, kind) for kind in KINDS if kind in pos.programs.get(seat, {}))
    return out


def set_program(pos: Position, program: Program, log: list[str]) -> None:
    """Play a program action of its own seat: set (replacing that kind) or cancel."""
    if program not in legal_programs(pos, program.player):
        raise IllegalAction(PROGRAM_RULE, _refusal(pos, program))
    name = pos.players[program.player].name
    held = pos.programs.setdefault(program.player, {})
    if isinstance(program, CancelProgram):
        gone = held.pop(program.program_kind)
        log.append(f"{name} switches off the programmed action '{gone.program.describe()}'")
    else:
        held[program.kind_of_program] = Standing(program, pos.round_index, _events(pos))
        log.append(f"{name} programs: {program.describe()}")
    if not held:
        del pos.programs[program.player]


def _refusal(pos: Position, program: Program) -> str:
    if not enabled(pos):
        return "this game is played without programmed actions (settings: programs)"
    if isinstance(program, CancelProgram):
        return f"no {program.program_kind} program to switch off"
    if isinstance(program, ProgramBuyShares):
        return (f"cannot program buying {program.company} up to {program.until} shares "
                f"(a company in the game, more shares than held, at most "
                f"{pos.ent.max_percent // pos.ent.share_percent})")
    return "not a program of this game"


def round_begins(pos: Position, log: list[str]) -> None:
    """A new round: ``share`` programs that are not ``indefinitely`` end unless it is a Share
    Round (as the site removes them "due to round change")."""
    if pos.round.type == "SR":
        return
    for seat in sorted(pos.programs):
        standing = pos.programs[seat].get("share")
        if standing is None:
            continue
        program = standing.program
        if isinstance(program, ProgramSharePass) and program.indefinite:
            continue
        _switch_off(pos, seat, "share", "the Share Round is over", log)


def next_programmed(pos: Position, legal: list[Action], log: list[str]) -> Fired | None:
    """The action the acting seat's programs play now (None: the seat decides), switching off
    the programs that no longer fit (with their reason in ``log``).  ``legal``: the round's
    legal actions for the acting seat."""
    seat = pos.current_round.acting(pos)
    held = pos.programs.get(seat)
    if not held:
        return None
    auctions = held.get("auctions")
    if auctions is not None:
        fired = _auction_pass(pos, seat, legal, auctions.program)
        if fired is not None:
            return fired
    share = held.get("share")
    if share is None or not isinstance(pos.current_round, ShareRound):
        return None
    if isinstance(share.program, ProgramBuyShares):
        return _buy(pos, seat, legal, share, log)
    return _share_pass(pos, seat, legal, share, log)


def _auction_pass(pos: Position, seat: int, legal: list[Action],
                  program: Program) -> Fired | None:
    """Pass on a bid: in a Pre-Share auction another player opened, or in a line auction
    (never on the choice of what to auction: that stays the player's, and a table where
    every seat passes its choices would pass for ever)."""
    if pos.round.type == "PRE":
        if Pass(seat) in legal and any(isinstance(a, Bid) for a in legal) \
                and getattr(pos.current_round, "auction", None) is not None:
            return Fired(Pass(seat), program)
        return None
    if any(isinstance(a, LineBid) for a in legal):
        passing = next((a for a in legal if isinstance(a, CompanyPass)), None)
        if passing is not None:
            return Fired(passing, program)
    return None


def _share_pass(pos: Position, seat: int, legal: list[Action], standing: Standing,
                log: list[str]) -> Fired | None:
    program = standing.program
    assert isinstance(program, ProgramSharePass)
    if Pass(seat) not in legal:
        return None  # SR1's director's share first (VII.5): the player decides
    if not program.unconditional:
        reason = _shenanigans(pos, seat, standing)
        if reason is not None:
            _switch_off(pos, seat, "share", reason, log)
            return None
    return Fired(Pass(seat), program)


def _buy(pos: Position, seat: int, legal: list[Action], standing: Standing,
         log: list[str]) -> Fired | None:
    program = standing.program
    assert isinstance(program, ProgramBuyShares)
    if Pass(seat) not in legal:
        return None  # SR1's director's share first (VII.5)
    per_share = pos.ent.share_percent
    held = pos.players[seat].shares.get(program.company, 0) // per_share
    if held >= program.until:
        _switch_off(pos, seat, "share",
                    f"{held} shares of {program.company} held, the end condition is met", log)
        if program.pass_after:
            pos.programs.setdefault(seat, {})["share"] = Standing(
                ProgramSharePass(seat), pos.round_index, _events(pos))
            log.append(f"{pos.players[seat].name} programs: {ProgramSharePass(seat).describe()}")
            return _share_pass(pos, seat, legal, pos.programs[seat]["share"], log)
        return None
    holder = pos.companies.get(program.company) or pos.stadtbahn.get(program.company)
    from_pool = holder is not None and holder.ipo == 0
    if BuyShare(seat, program.company) not in legal or from_pool != program.from_pool:
        source = "the pool" if program.from_pool else "the unsold shares"
        _switch_off(pos, seat, "share", f"cannot buy {program.company} from {source}", log)
        return None
    reason = _shenanigans(pos, seat, standing)
    if reason is not None:
        _switch_off(pos, seat, "share", reason, log)
        return None
    return Fired(BuyShare(seat, program.company), program)


def _events(pos: Position) -> int:
    """How many share events the Share Round in progress has seen (0 outside one)."""
    current = pos.current_round
    return len(current.events) if isinstance(current, ShareRound) else 0


def _shenanigans(pos: Position, seat: int, standing: Standing) -> str | None:
    """Another player's sale or director's share since the program was set (in this Share
    Round; a program set before it sees all of the round's)."""
    current = pos.current_round
    assert isinstance(current, ShareRound)
    since = standing.since if standing.round_index == pos.round_index else 0
    for other, what, company in current.events[since:]:
        if other != seat:
            verb = "sold shares of" if what == "sell" else "bought the director's share of"
            return f"{pos.players[other].name} {verb} {company}"
    return None


def _switch_off(pos: Position, seat: int, kind: str, reason: str, log: list[str]) -> None:
    standing = pos.programs[seat].pop(kind)
    if not pos.programs[seat]:
        del pos.programs[seat]
    log.append(f"{pos.players[seat].name}'s programmed action '{standing.program.describe()}' "
               f"is switched off: {reason}")
