"""The 1840 log in the page's language.

The engine writes its log in English; the page shows each line through the catalogs when it
has one of the shapes below (the most frequent ones: bids, passes, buys and sales, dividends,
tram purchases, tile lays, stations, runs, round starts), keeping names, ids and figures as
they are.  Any other line is shown as the engine wrote it.  Rule ids in a line (VIII.5.3) are
kept, like everywhere on the pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def _(message: str) -> str:
    """Marks a message for the catalogs (``pybabel extract``); translated when shown."""
    return message


_SHAPES: list[tuple[str, str]] = [
    (r"All privates are sold: players choose playing order cards, least money first",
     _("All privates are sold: players choose playing order cards, least money first")),
    (r"Unchosen tram companies leave the game: (?P<companies>.+)",
     _("Unchosen tram companies leave the game: %(companies)s")),
    (r"Unsold lines leave the game: (?P<lines>.+)", _("Unsold lines leave the game: %(lines)s")),
    (r"Trams on sale: none", _("Trams on sale: none")),
    (r"Trams on sale: (?P<colours>.+)", _("Trams on sale: %(colours)s")),
    (r"(?P<company>\S+) has no tram and must buy one \(VIII\.5\.3\)",
     _("%(company)s has no tram and must buy one (VIII.5.3)")),
    (r"First (?P<colour>yellow|orange|red|pink|purple) tram: maintenance changes \(Table 7\)",
     _("First %(colour)s tram: maintenance changes (Table 7)")),
    (r"(?P<count>\d+) (?P<colour>yellow|orange|red|pink|purple) tram\(s\) leave the game",
     _("%(count)s %(colour)s tram(s) leave the game")),
    (r"(?P<company>\S+) is sold out: price rises from (?P<before>\d+) to (?P<after>\d+)",
     _("%(company)s is sold out: price rises from %(before)s to %(after)s")),
    (r"(?P<company>\S+) is sold out, on the top row: price stays at (?P<after>\d+) \(X\.3\)",
     _("%(company)s is sold out, on the top row: price stays at %(after)s (X.3)")),
    (r"The game ends after (?P<round>\S+) \(XI, R-CR-4\)",
     _("The game ends after %(round)s (XI, R-CR-4)")),
    (r"(?P<round>\S+) begins \(phase (?P<phase>\w+)\)", _("%(round)s begins (phase %(phase)s)")),
    (r"(?P<round>\S+) begins; order: (?P<order>.+)", _("%(round)s begins; order: %(order)s")),
    (r"(?P<round>[A-Z]+\d\w*) begins", _("%(round)s begins")),
    (r"Line (?P<line>\d+) runs \(no route\) for (?P<income>-?\d+)",
     _("Line %(line)s has no route: %(income)s")),
    (r"Line (?P<line>\d+) runs \(no tram\) for (?P<income>-?\d+)",
     _("Line %(line)s has no tram: %(income)s")),
    (r"Line (?P<line>\d+) runs \((?P<route>.+)\) for (?P<income>-?\d+)",
     _("Line %(line)s runs (%(route)s) for %(income)s")),
    (r"Line (?P<line>\d+) lays tile (?P<tile>\S+) on (?P<hex>\S+) \(rotation (?P<rot>\d)\) "
     r"for (?P<cost>\d+)",
     _("Line %(line)s lays tile %(tile)s on %(hex)s (rotation %(rot)s) for %(cost)s")),
    (r"Line (?P<line>\d+) lays tile (?P<tile>\S+) on (?P<hex>\S+) \(rotation (?P<rot>\d)\)",
     _("Line %(line)s lays tile %(tile)s on %(hex)s (rotation %(rot)s)")),
    (r"Line (?P<line>\d+) places a station marker on (?P<place>\S+) for (?P<cost>\d+)",
     _("Line %(line)s places a station marker on %(place)s for %(cost)s")),
    (r"Line (?P<line>\d+) places its home marker on (?P<place>\S+)",
     _("Line %(line)s places its home marker on %(place)s")),
    (r"Line (?P<line>\d+) removes Stadtbahn (?P<company>\S+)'s marker on (?P<place>\S+) "
     r"for (?P<cost>\d+)",
     _("Line %(line)s removes Stadtbahn %(company)s's marker on %(place)s for %(cost)s")),
    (r"Line (?P<line>\d+) declines its bonus action", _("Line %(line)s declines its bonus action")),
    (r"Bonus action: lay additional yellow tile", _("Bonus action: lay an additional yellow tile")),
    (r"Bonus action: place additional station marker",
     _("Bonus action: place an additional station marker")),
    (r"Bonus action: lay purple railway station tile",
     _("Bonus action: lay a purple railway station tile")),
    (r"Bonus action: lay red inner city tile", _("Bonus action: lay a red inner city tile")),
    (r"Bonus action: upgrade yellow tile to green",
     _("Bonus action: upgrade a yellow tile to green")),
    (r"Stadtbahn (?P<company>\S+) runs for (?P<total>\d+) \(x(?P<mult>\d+)\), (?P<per>\d+) per "
     r"share; price (?P<before>\d+) -> (?P<after>\d+)",
     _("Stadtbahn %(company)s runs for %(total)s (×%(mult)s), %(per)s per share; "
       "price %(before)s → %(after)s")),
    (r"(?P<company>\S+) pays (?P<amount>\d+) \((?P<per>\d+) per share\), retains the rest; "
     r"price (?P<before>\d+) -> (?P<after>\d+)",
     _("%(company)s pays %(amount)s (%(per)s per share), retains the rest; "
       "price %(before)s → %(after)s")),
    (r"(?P<company>\S+) opens line (?P<line>\d+) at (?P<amount>\d+)",
     _("%(company)s opens the auction of line %(line)s at %(amount)s")),
    (r"(?P<company>\S+) bids (?P<amount>\d+) for line (?P<line>\d+)",
     _("%(company)s bids %(amount)s for line %(line)s")),
    (r"(?P<company>\S+) passes on line (?P<line>\d+)", _("%(company)s passes on line %(line)s")),
    (r"(?P<company>\S+) buys line (?P<line>\d+) for (?P<amount>\d+)",
     _("%(company)s buys line %(line)s for %(amount)s")),
    (r"(?P<company>\S+) buys a (?P<colour>yellow|orange|red|pink|purple) tram for (?P<price>\d+)",
     _("%(company)s buys a new %(colour)s tram for %(price)s")),
    (r"(?P<company>\S+) scraps a (?P<colour>yellow|orange|red|pink|purple) tram",
     _("%(company)s scraps one %(colour)s tram")),
    (r"(?P<name>.+) buys a 10% share of (?P<company>\S+) for (?P<price>\d+)",
     _("%(name)s buys a share of %(company)s for %(price)s")),
    (r"(?P<name>.+) sells (?P<count>\d+) (?P<company>\S+) at (?P<price>\d+); "
     r"price now (?P<now>\d+)",
     _("%(name)s sells %(count)s %(company)s at %(price)s; price now %(now)s")),
    (r"(?P<name>.+) pars (?P<company>\S+) at (?P<price>\d+) \(pays (?P<cost>\d+) besides the "
     r"Pre-emptive Right\); treasury (?P<treasury>\d+)",
     _("%(name)s starts %(company)s at %(price)s (pays %(cost)s besides the Pre-emptive "
       "Right); treasury %(treasury)s")),
    (r"(?P<name>.+) takes playing order card (?P<card>\d+)",
     _("%(name)s takes playing order card %(card)s")),
    (r"(?P<name>.+) returns (?P<private>\S+) to the bank for (?P<amount>\d+)",
     _("%(name)s returns %(private)s to the bank for %(amount)s")),
    (r"(?P<name>.+) opens (?P<private>\S+) at (?P<amount>\d+)",
     _("%(name)s opens the auction of %(private)s at %(amount)s")),
    (r"(?P<name>.+) bids (?P<amount>\d+) for (?P<private>\S+)",
     _("%(name)s bids %(amount)s for %(private)s")),
    (r"(?P<name>.+) passes on (?P<private>[A-Z]+)", _("%(name)s passes on %(private)s")),
    (r"(?P<name>.+) buys (?P<private>[A-Z]+) for (?P<price>\d+)",
     _("%(name)s buys %(private)s for %(price)s")),
    (r"(?P<payer>[A-Z]+) pays (?P<amount>\d+) to (?P<name>.+)",
     _("%(payer)s pays %(amount)s to %(name)s")),
    (r"(?P<name>.+) takes (?P<count>\d+) loan\(s\) of (?P<amount>\d+)",
     _("%(name)s takes %(count)s loan(s) of %(amount)s")),
    (r"(?P<name>.+) pays (?P<amount>\d+) of (?P<company>\S+)'s loss",
     _("%(name)s pays %(amount)s of %(company)s's loss")),
    (r"New playing order: (?P<order>.+)", _("New playing order: %(order)s")),
    (r"Company order: (?P<order>.+)", _("Company order: %(order)s")),
    (r"New lines on display: (?P<lines>.+)", _("New lines on display: %(lines)s")),
    (r"(?P<name>.+) ends the turn", _("%(name)s ends the turn")),
    (r"(?P<name>.+) passes", _("%(name)s passes")),
]
SHAPES = [(re.compile(pattern), message) for pattern, message in _SHAPES]
_COLOUR_KEYS = frozenset({"colour", "phase"})
_COLOUR_WORD = re.compile(r"\b(?:yellow|orange|red|pink|purple)\b")
_PHASE_WORDS = (_("yellow"), _("green"), _("brown"), _("grey"))  # in the catalogs too


def log_line(line: str, gettext: Callable[[str], str]) -> str:
    """``line`` in the language of ``gettext`` when it has a known shape, else as it is."""
    for pattern, message in SHAPES:
        found = pattern.fullmatch(line)
        if found:
            values = found.groupdict()
            for key, word in list(values.items()):
                if key in _COLOUR_KEYS:  # yellow, green, ... in the page's words
                    values[key] = gettext(word)
                elif key == "colours":  # a list naming tram colours: each in the page's words
                    values[key] = _COLOUR_WORD.sub(lambda m: gettext(m.group(0)), word)
            return gettext(message) % values
    return line


# -- the log by round, each line a link to its position (issue 23, item 9) -------------------

ROUND_START = re.compile(r"^(PRE|[A-Z]+\d\w*) begins\b")
"""A round's first line ("CR1 begins", "LR2a begins (phase green)", "SR3 begins; order: ...")."""


@dataclass(frozen=True)
class LogLine:
    """One line of the log and the position it links to (``?at=N``: the moves played just
    after the move that wrote it; ``None``: a line no move of the game as it stands wrote, an
    undo's or a move taken back)."""

    text: str
    at: int | None


@dataclass(frozen=True)
class LogRound:
    """One round of the log: its name ("" before the first round's heading) and its lines."""

    round: str
    lines: list[LogLine]


def _marks(log: Sequence[str], log_at: Sequence[int | None] | None) -> list[int | None]:
    marks = list(log_at or [])[:len(log)]
    return marks + [None] * (len(log) - len(marks))


def log_rounds(log: Sequence[str], log_at: Sequence[int | None] | None = None
               ) -> list[LogRound]:
    """The whole log by round, the newest round first and its newest line first; a round
    starts at its "... begins" line (the lines before the first: round "")."""
    rounds = [LogRound("", [])]
    for line, at in zip(log, _marks(log, log_at), strict=True):
        found = ROUND_START.match(line)
        if found:
            rounds.append(LogRound(found.group(1), []))
        rounds[-1].lines.append(LogLine(line, at))
    return [LogRound(r.round, r.lines[::-1]) for r in rounds[::-1] if r.lines]


@dataclass(frozen=True)
class RoundStart:
    """A round of the game as it stands and the position it starts at (the moves played
    when its first line was written; the first round starts at 0)."""

    round: str
    n: int


def round_starts(log: Sequence[str], log_at: Sequence[int | None] | None) -> list[RoundStart]:
    """Where each round of the game as it stands starts, in order; the lines no current move
    wrote (an undo's, a move taken back) are left out."""
    out = [RoundStart("", 0)]
    for line, at in zip(log, _marks(log, log_at), strict=True):
        found = ROUND_START.match(line)
        if found and at is not None:
            out.append(RoundStart(found.group(1), at))
    return out


@dataclass(frozen=True)
class RoundSteps:
    """From a position, the start of the previous round and of the next one (``None``: there
    is none), as the history's "previous round" and "next round" go."""

    previous: RoundStart | None
    next: RoundStart | None
    current: str


def round_steps(starts: Sequence[RoundStart], at: int) -> RoundSteps:
    """The round starts before and after position ``at``: "previous round" goes to the
    latest start before ``at`` (the start of the round shown when ``at`` is inside it),
    "next round" to the first start after it."""
    before = [s for s in starts if s.n < at]
    after = [s for s in starts if s.n > at]
    current = [s for s in starts if s.n <= at]
    return RoundSteps(before[-1] if before else None, after[0] if after else None,
                      current[-1].round if current else "")
