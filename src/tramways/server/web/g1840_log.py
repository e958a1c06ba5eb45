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

from tramways.server.web.g1840_programs import program_words


def _(message: str) -> str:
    """Marks a message for the catalogs (``pybabel extract``); translated when shown."""
    return message


_SHAPES: list[tuple[str, str]] = [
    # before the general shapes below ("... passes", "... buys ... for ..."), which they match
    (r"Pre-Share Round: the private companies are auctioned",
     _("Pre-Share Round: the private companies are auctioned")),
    (r"The game is over \(XI\)", _("The game is over (XI)")),
    (r"Everybody passed: the privates pay dividends and the round restarts \(R-PRE-3\)",
     _("Everybody passed: the privates pay dividends and the round restarts (R-PRE-3)")),
    (r"Everybody passed: the privates pay dividends and the round restarts with the next "
     r"player \(X-13\)",
     _("Everybody passed: the privates pay dividends and the round restarts with the next "
       "player (X-13)")),
    (r"Everybody passed: (?P<private>\S+) now starts at (?P<price>\d+) \(no private in a "
     r"player's hands pays a dividend: R-PRE-2, proposed R-PRE-5\)",
     _("Everybody passed: %(private)s now starts at %(price)s (no private in a player's hands "
       "pays a dividend: R-PRE-2, proposed R-PRE-5)")),
    (r"Everybody passed: (?P<private>\S+) now starts at (?P<price>\d+) \((?P<rule>[-A-Z0-9]+)\)",
     _("Everybody passed: %(private)s now starts at %(price)s (%(rule)s)")),
    (r"(?P<name>.+) must take (?P<private>\S+) for free \(R-PRE-2\)",
     _("%(name)s must take %(private)s for free (R-PRE-2)")),
    (r"Unchosen tram companies leave the game: ", _("No unchosen tram company leaves the game")),
    (r"No tram is on sale: (?P<companies>.+) cannot buy the tram it must buy; the obligation "
     r"waits \(R-CR-5\)",
     _("No tram is on sale: %(companies)s cannot buy the tram it must buy; the obligation "
       "waits (R-CR-5)")),
    (r"(?P<name>.+) pays (?P<amount>\d+) towards (?P<company>\S+)'s mandatory tram "
     r"\(VIII\.5\.3\)",
     _("%(name)s pays %(amount)s towards %(company)s's mandatory tram (VIII.5.3)")),
    (r"(?P<company>\S+) scraps line (?P<line>\d+)'s (?P<colour>yellow|orange|red|pink|purple) "
     r"tram", _("%(company)s scraps line %(line)s's %(colour)s tram")),
    (r"(?P<company>\S+) arranges its trams \((?P<pairs>.+)\)",
     _("%(company)s arranges its trams (%(pairs)s)")),
    (r"(?P<company>\S+) passes on choosing a line \(out of this CR's auctions\)",
     _("%(company)s passes on choosing a line (out of this CR's auctions)")),
    (r"(?P<company>\S+) cannot open an auction and passes",
     _("%(company)s cannot open an auction and passes")),
    (r"(?P<company>\S+) cannot raise and passes", _("%(company)s cannot raise and passes")),
    (r"(?P<company>[A-Z]+) offers (?P<price>\d+) for (?P<private>[A-Z]+) to (?P<name>.+)",
     _("%(company)s offers %(price)s for %(private)s to %(name)s")),
    (r"(?P<company>[A-Z]+) buys (?P<private>[A-Z]+) from (?P<name>.+) for (?P<price>\d+)",
     _("%(company)s buys %(private)s from %(name)s for %(price)s")),
    (r"(?P<name>.+) declines the offer for (?P<private>[A-Z]+)",
     _("%(name)s declines the offer for %(private)s")),
    (r"The (?P<landmark>.+) landmark token goes on (?P<hex>\S+)",
     _("The %(landmark)s landmark token goes on %(hex)s")),
    (r"Line (?P<line>\d+) finds no free circle on its home base (?P<hex>\S+)",
     _("Line %(line)s finds no free circle on its home base %(hex)s")),
    (r"Line (?P<line>\d+) moves its marker to (?P<place>\S+)",
     _("Line %(line)s moves its marker to %(place)s")),
    (r"Line (?P<line>\d+) waits for a tile on (?P<hex>\S+) to place its home marker "
     r"\(18xx\.games, X-20 proposed\)",
     _("Line %(line)s waits for a tile on %(hex)s to place its home marker (18xx.games, X-20 "
       "proposed)")),
    (r"(?P<name>.+)'s programmed action '(?P<program>.+)' plays:",
     _("%(name)s's programmed action “%(program)s” plays:")),
    (r"(?P<name>.+)'s programmed action '(?P<program>.+)' is switched off: (?P<reason>.+)",
     _("%(name)s's programmed action “%(program)s” is switched off: %(reason)s")),
    (r"(?P<name>.+) switches off the programmed action '(?P<program>.+)'",
     _("%(name)s switches off the programmed action “%(program)s”")),
    (r"(?P<name>.+) programs: (?P<program>.+)", _("%(name)s programs: “%(program)s”")),
    (r"(?P<name>.+) resigns: the game ends", _("%(name)s resigns: the game ends")),
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


_PAIRS_WORD = re.compile(r"\b(?:yellow|orange|red|pink|purple|none)\b")
_REASONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"cannot buy (?P<company>\S+) from the unsold shares"),
     _("cannot buy %(company)s from the unsold shares")),
    (re.compile(r"cannot buy (?P<company>\S+) from the pool"),
     _("cannot buy %(company)s from the pool")),
    (re.compile(r"(?P<name>.+) sold shares of (?P<company>\S+)"),
     _("%(name)s sold shares of %(company)s")),
    (re.compile(r"(?P<name>.+) bought the director's share of (?P<company>\S+)"),
     _("%(name)s bought the director's share of %(company)s")),
]
"""Why the engine switched a programmed action off (``tramways.g1840.programs``)."""


def _reason(text: str, gettext: Callable[[str], str]) -> str:
    for pattern, message in _REASONS:
        found = pattern.fullmatch(text)
        if found:
            return gettext(message) % found.groupdict()
    return text


def _value(key: str, word: str, gettext: Callable[[str], str]) -> str:
    """A placeholder's value in the page's words: colours and phases, lists of tram colours,
    a program as the programs panel says it, a program's end; names, ids, figures as they
    are."""
    if key in _COLOUR_KEYS:  # yellow, green, ... in the page's words
        return gettext(word)
    if key == "colours":  # a list naming tram colours: each in the page's words
        return _COLOUR_WORD.sub(lambda m: gettext(m.group(0)), word)
    if key == "pairs":  # "L4: orange, L5: none"
        return _PAIRS_WORD.sub(lambda m: gettext(m.group(0)), word)
    if key == "program":
        return program_words(word).say(gettext)
    if key == "reason":
        return _reason(word, gettext)
    return word


def log_line(line: str, gettext: Callable[[str], str]) -> str:
    """``line`` in the language of ``gettext`` when it has a known shape, else as it is."""
    for pattern, message in SHAPES:
        found = pattern.fullmatch(line)
        if found:
            values = {k: _value(k, v, gettext) for k, v in found.groupdict().items()}
            return gettext(message) % values
    return line


# -- the log by round, each line a link to its position -------------------

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
