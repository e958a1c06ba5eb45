"""Trams (VIII.3, VIII.5.3): the buying section, buying, scrapping, rearranging, maintenance.

A company's trams are a list in line order: ``trams[i]`` runs ``lines[i]`` (``None``: that line
has no tram); trams beyond the number of lines wait unassigned, and a line is left without a
tram only when there is no spare.  At most three trams per company (VIII.5.3).
"""

from __future__ import annotations

from itertools import permutations

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840.actions import Arrange, BuyTram, CompanyReturnPrivate, ScrapTram
from tramways.g1840.entities import TRAM_COLOURS
from tramways.g1840.mechanics.money import pay_from_director
from tramways.g1840.position import Position, TramCompany
from tramways.g1840.shared_actions import Interned

BUY_TRAM = Interned(lambda company, colour, seat: BuyTram(company=company, colour=colour,
                                                         player=seat))
ARRANGE = Interned(lambda company, colours, seat: Arrange(company=company, colours=colours,
                                                          player=seat))
SCRAP = Interned(lambda company, colour, seat: ScrapTram(company=company, colour=colour,
                                                          player=seat))
COMPANY_RETURN = Interned(lambda company, private, seat: CompanyReturnPrivate(
    company=company, private=private, player=seat))
"""A buying turn's actions (and the director's scraps and returns at any time), built once per
distinct fields (listed at every position)."""

_SCRAPS: dict[tuple[str, tuple[str | None, ...], int], tuple[ScrapTram, ...]] = {}


def scraps(company: str, held: tuple[str | None, ...], seat: int) -> tuple[ScrapTram, ...]:
    """The director's scraps of ``company`` holding the trams ``held`` (VIII.5.3): one per
    colour, in the colours' order; kept per company, trams and seat."""
    key = (company, held, seat)
    found = _SCRAPS.get(key)
    if found is None:
        if len(_SCRAPS) >= 4096:
            _SCRAPS.clear()
        colours = set(held)
        colours.discard(None)
        found = _SCRAPS[key] = tuple(SCRAP(company, c, seat)
                                     for c in sorted(colours, key=TRAM_COLOURS.index))
    return found


def move_stacks(pos: Position, log: list[str]) -> None:
    """VIII.3 CRb: the rightmost stack leaves, the others move right, the next colour enters."""
    stacks = pos.trams
    gone = stacks.spaces[2]
    if gone is not None and gone[1] > 0:
        log.append(f"{gone[1]} {gone[0]} tram(s) leave the game")
    nxt = stacks.queue.pop(0) if stacks.queue else None
    stacks.spaces = [
        (nxt, pos.tram_counts[nxt]) if nxt is not None else None,
        stacks.spaces[0],
        stacks.spaces[1],
    ]
    on_sale = ", ".join(f"{c} {price_of(pos, c)} (x{n})" for _, c, n in stacks.on_sale()
                        if price_of(pos, c) is not None)
    log.append(f"Trams on sale: {on_sale or 'none'}")


def prices(pos: Position) -> dict[str, int | None]:
    """Colour -> the price of a tram of that colour on the first space holding one (``None``
    if it has no price there), for the colours on sale (VIII.3, VIII.5.3)."""
    table = pos.ent.tram_prices_by_space
    out: dict[str, int | None] = {}
    for space, c, _count in pos.trams.on_sale():
        if c not in out:
            out[c] = table[c][space]
    return out


def price_of(pos: Position, colour: str) -> int | None:
    """The price of a tram of ``colour`` on its current space (None if not on sale)."""
    return prices(pos).get(colour)


def _buyable(pos: Position, on_sale: dict[str, int | None]) -> list[str]:
    """:func:`buyable_colours` from ``on_sale`` (:func:`prices`)."""
    return [c for _, c, _ in pos.trams.on_sale() if on_sale[c] is not None]


def buyable_colours(pos: Position) -> list[str]:
    return _buyable(pos, prices(pos))


def can_buy_voluntarily(pos: Position, company: TramCompany) -> list[str]:
    """Colours the company may buy from its treasury now (VIII.5.3)."""
    if len(company.owned()) >= pos.ent.max_trams:
        return []
    on_sale = prices(pos)
    treasury = company.treasury
    out = []
    for colour in _buyable(pos, on_sale):
        price = on_sale[colour]
        if price is not None and price <= treasury:
            out.append(colour)
    return out


NONE = "none"


_ARRANGEMENTS: dict[tuple[tuple[str | None, ...], int], list[tuple[str, ...]]] = {}
""":func:`arrangements` by the company's trams and number of lines (all it depends on)."""


def arrangements(company: TramCompany) -> list[tuple[str, ...]]:
    """Distinct assignments of the trams to the lines that change which line runs what
    (``"none"``: that line gets no tram; only when there are fewer trams than lines)."""
    key = (tuple(company.trams), len(company.lines))
    found = _ARRANGEMENTS.get(key)
    if found is None:
        if len(_ARRANGEMENTS) >= 4096:
            _ARRANGEMENTS.clear()
        found = _ARRANGEMENTS[key] = _arrangements(company)
    return list(found)


def _arrangements(company: TramCompany) -> list[tuple[str, ...]]:
    owned = company.owned()
    k = len(company.lines)
    if not k or not owned:
        return []
    pool: list[str] = owned + [NONE] * max(0, k - len(owned))
    current = tuple(t if t is not None else NONE for t in company.trams)
    current = (current + (NONE,) * k)[:k]
    out = []
    for p in sorted(set(permutations(pool))):
        if p[:k] != current:
            out.append(p)
    # keep one representative per assignment of the lines (spares' order does not matter)
    unique: dict[tuple[str, ...], tuple[str, ...]] = {}
    for p in out:
        unique.setdefault(p[:k], p)
    return list(unique.values())


def _normalise(company: TramCompany) -> None:
    while company.trams and company.trams[-1] is None:
        company.trams.pop()


def turn_actions(pos: Position, company: TramCompany, player: int) -> list[Action]:
    """Buying turn options besides Done: buy, scrap, rearrange, return privates."""
    colours = (buyable_colours(pos) if must_buy_in_turn(pos, company)
               else can_buy_voluntarily(pos, company))
    cid = company.id
    out: list[Action] = [BUY_TRAM(cid, c, player) for c in colours]
    out.extend([ARRANGE(cid, p, player) for p in arrangements(company)])
    out.extend(scraps(cid, tuple(company.trams), player))
    if company.privates:
        out.extend([COMPANY_RETURN(cid, p, player) for p in company.privates])
    return out


def private_funds(pos: Position, company: TramCompany) -> int:
    """What the company would get by returning all its privates to the bank (IV.2: at any
    time, for face value).  0 with the 18xx.games ruleset, whose automatic steps ignore it."""
    if pos.rules.no_private_funds or not company.privates:
        return 0
    privates = pos.ent.privates
    return sum([privates[p].face_value for p in company.privates])


def must_buy_in_turn(pos: Position, company: TramCompany) -> bool:
    """X-18 (proposed, 18xx.games): a company without a tram must buy one in its own buying
    turn (the director pays what the treasury lacks, with loans), not only at the end of CRe
    (R-CR-5).  In all 24 site-engine games no company without a tram ever passes in a buying
    step while trams are on sale; fz2027_10_5p action 83 (WKB, 100 in its treasury, buys an
    orange for 300 with its director's loan in CRd), fz2027_15_4p action 299 (GW, CR4 CRd)."""
    return (pos.rules.must_buy_in_turn and not company.owned()
            and bool(buyable_colours(pos)))


def reassign_step(company: TramCompany) -> bool:
    """18xx.games: whether the site's reassignment step follows a buying step (it skips it
    for a company without lines, or with one line and at most one tram): over the 24
    site-engine games, every "skips reassign trains" is one of those."""
    return bool(company.lines) and not (len(company.lines) == 1 and len(company.owned()) <= 1)


def has_turn(pos: Position, company: TramCompany) -> bool:
    """Whether a buying turn offers anything worth a decision: a purchase (possibly after
    returning the company's privates, IV.2) or a rearrangement.  X-17 (18xx.games): the site
    never skips a buying turn, and a company that owns a tram may scrap in it
    (fz2027_8_3ps action 289: WKB, at three trams after winning line 18, scraps one and
    reassigns); X-18 (proposed): a company without a tram must buy in it."""
    if can_buy_voluntarily(pos, company) or arrangements(company):
        return True
    if pos.rules.buying_turn_kept_open and company.owned():
        return True
    if must_buy_in_turn(pos, company):
        return True
    extra = private_funds(pos, company)
    if not extra or len(company.owned()) >= pos.ent.max_trams:
        return False
    on_sale = prices(pos)
    return any((on_sale[c] or 0) <= company.treasury + extra for c in _buyable(pos, on_sale))


def buy(pos: Position, company: TramCompany, colour: str, log: list[str],
        mandatory: bool = False) -> None:
    """Buy a tram; a mandatory purchase may draw on the director and loans (VIII.5.3, R-CR-5)."""
    price = price_of(pos, colour)
    if price is None:
        raise IllegalAction("VIII.5.3", f"no {colour} tram is on sale")
    if len(company.owned()) >= pos.ent.max_trams:
        raise IllegalAction("VIII.5.3", f"{company.id} already has three trams")
    if not mandatory and price > company.treasury:
        raise IllegalAction("VIII.5.3", f"{company.id} has only {company.treasury}")
    from_treasury = min(price, company.treasury)
    company.treasury -= from_treasury
    if from_treasury < price:
        rest = price - from_treasury
        log.append(f"{pos.players[company.director].name} pays {rest} towards "
                   f"{company.id}'s mandatory tram (VIII.5.3)")
        pay_from_director(pos, company, rest, log)
    for i, space in enumerate(pos.trams.spaces):
        if space is not None and space[0] == colour:
            pos.trams.spaces[i] = (colour, space[1] - 1)
    if None in company.trams:
        company.trams[company.trams.index(None)] = colour  # the first line without a tram
    else:
        company.trams.append(colour)
    log.append(f"{company.id} buys a {colour} tram for {price}")
    newest = pos.trams.newest
    if newest is None or TRAM_COLOURS.index(colour) > TRAM_COLOURS.index(newest):
        pos.trams.newest = colour
        if newest is not None:
            log.append(f"First {colour} tram: maintenance changes (Table 7)")


def scrap(pos: Position, company: TramCompany, colour: str, log: list[str],
          line: int | None = None) -> None:
    """VIII.5.3: a tram may be scrapped at any time, without compensation.  ``line`` names
    the tram of that line; with the 18xx.games ruleset the line then stays without a tram
    even if a spare waits (the site's reassignment comes as a later action of its own,
``Ruleset.scrapped_line_stays_empty``)."""
    if colour not in company.trams:
        raise IllegalAction("VIII.5.3", f"{company.id} has no {colour} tram")
    if line is not None:
        if line not in company.lines or company.trams[company.lines.index(line)] != colour:
            raise IllegalAction("VIII.5.3", f"line {line} of {company.id} runs no {colour} tram")
        idx = company.lines.index(line)
        if pos.rules.scrapped_line_stays_empty or len(company.trams) <= len(company.lines):
            company.trams[idx] = None
        else:
            company.trams[idx] = company.trams.pop()  # a spare takes the line
        _normalise(company)
        log.append(f"{company.id} scraps line {line}'s {colour} tram")
        return
    # scrap the last one of that colour; the others keep their lines, a spare takes its line
    idx = len(company.trams) - 1 - company.trams[::-1].index(colour)
    if idx >= len(company.lines):
        company.trams.pop(idx)  # a spare
    elif len(company.trams) > len(company.lines):
        company.trams[idx] = company.trams.pop()  # a spare takes the line
    else:
        company.trams[idx] = None
    _normalise(company)
    log.append(f"{company.id} scraps a {colour} tram")


def arrange(pos: Position, company: TramCompany, colours: tuple[str, ...],
            log: list[str]) -> None:
    """VIII.5.3 / VIII.6: rearrange trams between the company's lines."""
    if colours not in arrangements(company):
        owned = ",".join(company.owned()) or "no"
        raise IllegalAction("VIII.5.3", f"{company.id} owns {owned} trams for "
                            f"{len(company.lines)} line(s); not an arrangement")
    company.trams = [None if c == NONE else c for c in colours]
    _normalise(company)
    pairs = ", ".join(f"L{ln}: {t or 'none'}"
                      for ln, t in zip(company.lines, company.trams, strict=False))
    log.append(f"{company.id} arranges its trams ({pairs})")
