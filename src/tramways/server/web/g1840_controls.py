"""The 1840 page's controls: the seat's legal notations grouped, each in words, with its cost.

Every control reads as a sentence (:mod:`tramways.server.web.g1840_words`) and says what the
click costs or brings before it is made:

- a par price: what the director pays above the Pre-emptive Right card and what the treasury
  receives (VII.5, IV.1.2);
- a share: its price (VII.6); a sale: the proceeds and the price it leaves (VII.4, X.3);
- a tram: its price (VIII.3) and its maintenance (Table 7); a private a line's company buys:
  the price, between 1 and the face value (IV.2); a private returned: its face value (IV.2);
- a dividend: the share price after it (X.2).

Nothing is offered that is not a legal notation of the seat, and every legal one is offered
exactly once (tested); tile lays and station places are the map's (:mod:`.g1840_table`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tramways.g1840.analysis import dividend_prices
from tramways.g1840.entities import TRAM_COLOURS, entities
from tramways.g1840.market import ShareMarket
from tramways.g1840.ruleset import Ruleset
from tramways.g1840.view_types import View1840
from tramways.server.web.g1840_words import Words, _, colour, line_name, words

LAY = re.compile(r"^(L\d+) lay (\S+) (\S+) r(\d)$")
PLACE = re.compile(r"^(L\d+) (station|remove) (\S+)\.(\d+)$")


@dataclass
class Option:
    """One legal notation as the page offers it."""

    notation: str
    label: Words
    price: int | None = None
    """What the click costs the actor (a player's or a company's cash), when it costs."""
    gets: int | None = None
    """What the click brings the actor (a sale's proceeds, a private's face value)."""
    certificates: str = ""
    """Buying, par and selling (VII.3): the certificate count after it against the limit."""
    confirm: Words | None = None
    """A question the page asks before the move is sent (scrapping a tram)."""
    folded: bool = False
    """Offered folded away: legal, but rarely wise (scrapping a tram that runs at no cost)."""


@dataclass(frozen=True)
class ArrangeLine:
    """One line of the tram reassignment editor (VIII.5.3): the tram running it now and the
    colours it may be given (the company's trams; ``none`` when there are fewer trams than
    lines)."""

    line: int
    current: str
    colours: tuple[str, ...]


@dataclass
class Choice:
    """One group of legal moves: buttons, or one list to pick from (``pick``)."""

    kind: str          # what the group is: "bid", "par", "tram", ...
    actor: str         # who acts: P1, WT, L7
    subject: str = ""  # what it is about (a private, a company, a line)
    title: Words | None = None
    options: list[Option] = field(default_factory=list)
    pick: bool = False
    privates: list[dict[str, object]] = field(default_factory=list)
    """Buying a private for a line's company (IV.2): each private with its price range."""
    lines: list[ArrangeLine] = field(default_factory=list)
    """The tram reassignment as a small editor (VIII.5.3): a tram colour per line."""

    @property
    def notations(self) -> list[str]:
        return [o.notation for o in self.options]


ORDER = ["bonus", "offer", "run", "simple", "bid", "auction", "par", "buy_share", "sell",
         "dividend", "tram", "arrange", "scrap", "buy_private", "anytime"]


@dataclass
class Context:
    """What the labels and costs are read from: the view and the acting seat's figures."""

    view: View1840
    certificates: int
    limit: int | None

    def actor_name(self, actor: str) -> Value:
        if actor.startswith("P") and actor[1:].isdigit():
            seat = int(actor[1:]) - 1
            if 0 <= seat < len(self.view.players):
                return self.view.players[seat].name
        if actor.startswith("L") and actor[1:].isdigit():
            return line_name(actor)
        return actor

    def certs_after(self, delta: int) -> str:
        after = self.certificates + delta
        return f"{after}/{self.limit}" if self.limit else str(after)


Value = str | int | Words
Handler = Callable[[Context, str, list[str], str], tuple[str, str, Option] | None]


def group_legal(legal: list[str], view: View1840) -> list[Choice]:
    """The seat's legal notations (all but tile lays and station places), grouped, each with
    its words and costs."""
    me = view.viewer
    ctx = Context(view, view.players[me].certificates if me is not None else 0,
                  entities().certificate_limit.get(len(view.players)))
    groups: dict[tuple[str, str, str], Choice] = {}
    for text in legal:
        if LAY.match(text) or PLACE.match(text):
            continue
        actor, verb, *rest = text.split()
        kind, subject, option = _option(ctx, actor, verb, rest, text)
        key = (kind, actor, subject)
        if key not in groups:
            groups[key] = Choice(kind, actor, subject)
        groups[key].options.append(option)
    out = list(groups.values())
    for choice in out:
        _finish(ctx, choice)
    out.sort(key=lambda g: ORDER.index(g.kind) if g.kind in ORDER else len(ORDER))
    return out


def _option(ctx: Context, actor: str, verb: str, rest: list[str],
            text: str) -> tuple[str, str, Option]:
    """(kind, subject, option) of one legal notation."""
    handler = _HANDLERS.get((verb, _actor_kind(actor)))
    found = handler(ctx, actor, rest, text) if handler is not None else None
    if found is not None:
        return found
    return "simple", "", Option(text, _simple(ctx, actor, verb, rest))


def _actor_kind(actor: str) -> str:
    if re.fullmatch(r"P\d+", actor):
        return "player"
    if re.fullmatch(r"L\d+", actor):
        return "line"
    return "company"


# -- one handler per verb and actor --------------------------------------------------------

def _private_bid(ctx: Context, actor: str, rest: list[str], text: str
                 ) -> tuple[str, str, Option]:
    """VI, R-PRE-1: a bid on a private."""
    return "bid", rest[0], Option(text, words(_("%(amount)s"), amount=int(rest[-1])))


def _line_bid(ctx: Context, actor: str, rest: list[str], text: str
              ) -> tuple[str, str, Option]:
    """VIII.6: a bid in the running line auction."""
    auction = ctx.view.round_info.auction
    line = str(getattr(auction, "line", "")) if auction is not None else ""
    return "bid", line, Option(text, words(_("%(amount)s"), amount=int(rest[-1])))


def _auction(ctx: Context, actor: str, rest: list[str], text: str
             ) -> tuple[str, str, Option]:
    """VIII.6, R-CR-7: open the auction of a line on display."""
    return "auction", rest[0].removeprefix("L"), Option(
        text, words(_("%(amount)s"), amount=int(rest[-1])))


def _par(ctx: Context, actor: str, rest: list[str], text: str) -> tuple[str, str, Option]:
    """VII.5: the director's certificate at par; the Pre-emptive Right card pays first;
    the treasury receives ten times the par price (IV.1.2)."""
    ent = entities()
    price = int(rest[1])
    seat = int(actor[1:]) - 1
    card = ctx.view.players[seat].pre_emptive_right if seat < len(ctx.view.players) else 0
    pays = ent.director_percent // ent.share_percent * price - card
    treasury = ent.shares * price
    label = words(_("%(price)s a share: you pay %(pays)s, the treasury receives %(treasury)s"),
                  price=price, pays=pays, treasury=treasury)
    return "par", rest[0], Option(text, label, price=pays, certificates=ctx.certs_after(1))


def _buy_share(ctx: Context, actor: str, rest: list[str], text: str
               ) -> tuple[str, str, Option]:
    """VII.6: one 10% share at the current price."""
    price = ctx.view.price(rest[0])
    label = words(_("Buy a share of %(company)s for %(price)s"), company=rest[0], price=price)
    return "buy_share", "", Option(text, label, price=price, certificates=ctx.certs_after(1))


def _sell(ctx: Context, actor: str, rest: list[str], text: str) -> tuple[str, str, Option]:
    """VII.4: shares sell at the current price; the price drops a row per share (X.3)."""
    company, count = rest[0], int(rest[1])
    price = ctx.view.price(company)
    after = _price_after_sale(ctx.view, company, count)
    label = ngettext_words(count, _("Sell %(count)s share for %(proceeds)s (price then "
                                    "%(after)s)"),
                           _("Sell %(count)s shares for %(proceeds)s (price then %(after)s)"),
                           count=count, proceeds=price * count, after=after)
    return "sell", company, Option(text, label, gets=price * count,
                                   certificates=ctx.certs_after(-count))


def _dividend(ctx: Context, actor: str, rest: list[str], text: str
              ) -> tuple[str, str, Option]:
    amount = int(rest[0])
    return "dividend", "", Option(text, words(_("%(amount)s"), amount=amount))


def _buy_tram(ctx: Context, actor: str, rest: list[str], text: str
              ) -> tuple[str, str, Option]:
    """VIII.3: the price of the colour's space; Table 7: its maintenance once it is the
    newest tram or an older one."""
    name = rest[0]
    price = next((t.price for t in ctx.view.trams.on_sale if t.colour == name
                  and t.price is not None), None)
    newest = ctx.view.trams.newest
    if newest is None or (name in TRAM_COLOURS and newest in TRAM_COLOURS
                          and TRAM_COLOURS.index(name) > TRAM_COLOURS.index(newest)):
        newest = name
    upkeep = entities().maintenance_for(name, newest)
    label = words(_("Buy a tram (%(colour)s) for %(price)s (maintenance %(upkeep)s)"),
                  colour=colour(name), price=price if price is not None else 0,
                  upkeep=f"{upkeep:+d}")
    return "tram", "", Option(text, label, price=price)


def _scrap(ctx: Context, actor: str, rest: list[str], text: str) -> tuple[str, str, Option]:
    """VIII.5.3: scrapping gives nothing back, so the page asks first.  It is offered in
    sight where it makes sense (:func:`scrap_makes_sense`), the other trams folded away."""
    name = rest[0]
    company = ctx.view.companies.get(actor)
    trams = list(company.trams) if company is not None else []
    lines = list(company.lines) if company is not None else []
    upkeep = _upkeep(ctx.view, name)
    running = [t for t in trams[:len(lines)] if t]
    spare = name not in running
    if len(rest) > 1:
        label = words(_("Scrap the %(colour)s tram of %(line)s (maintenance %(upkeep)s)"),
                      colour=colour(name), line=line_name(rest[1]), upkeep=f"{upkeep:+d}")
    elif spare:
        label = words(_("Scrap a spare %(colour)s tram"), colour=colour(name))
    else:
        label = words(_("Scrap one %(colour)s tram (maintenance %(upkeep)s)"),
                      colour=colour(name), upkeep=f"{upkeep:+d}")
    ask = words(_("Scrap this %(colour)s tram? It is lost without compensation."),
                colour=colour(name))
    at_limit = len([t for t in trams if t]) >= entities().max_trams
    return "scrap", "", Option(text, label, confirm=ask,
                               folded=not scrap_makes_sense(upkeep, spare, at_limit))


def _upkeep(view: View1840, name: str) -> int:
    """Table 7: what a tram of colour ``name`` adds to its run now (negative: it costs)."""
    newest = view.trams.newest or name
    try:
        return entities().maintenance_for(name, newest)
    except KeyError:
        return 0


def scrap_makes_sense(upkeep: int, spare: bool, at_limit: bool) -> bool:
    """VIII.5.3, Table 7: scrapping a tram is worth a thought when it costs its line money on
    every run (negative maintenance) or when the company holds as many trams as it may and a
    tram may have to make room for a new one; a tram that runs at no cost, or a spare below the
    limit, is scrapped only by choice (offered, folded)."""
    return (upkeep < 0 and not spare) or at_limit


def _arrange(ctx: Context, actor: str, rest: list[str], text: str
             ) -> tuple[str, str, Option]:
    """Which tram runs which line: the colours in the company's line order, spares after."""
    company = ctx.view.companies.get(actor)
    lines = list(company.lines) if company is not None else []
    parts: list[Value] = []
    for i, name in enumerate(rest[0].split(",")):
        if i < len(lines):
            parts.append(words(_("%(line)s: %(colour)s"), line=line_name(lines[i]),
                               colour=colour(name)))
        else:
            parts.append(words(_("spare: %(colour)s"), colour=colour(name)))
    label = _joined(parts)
    return "arrange", "", Option(text, label)


def _joined(parts: list[Value]) -> Words:
    if not parts:
        return words(_("no trams"))
    out: Words | None = None
    for part in parts:
        out = (part if isinstance(part, Words) else words(_("%(x)s"), x=part)) if out is None \
            else words(_("%(a)s, %(b)s"), a=out, b=part)
    assert out is not None
    return out


def _buy_private(ctx: Context, actor: str, rest: list[str], text: str
                 ) -> tuple[str, str, Option]:
    """IV.2: the line's company buys a player's private for 1 to its face value."""
    price = int(rest[1])
    return "buy_private", "", Option(text, words(_("%(private)s for %(price)s"),
                                                 private=rest[0], price=price), price=price)


def _return(ctx: Context, actor: str, rest: list[str], text: str
            ) -> tuple[str, str, Option]:
    """IV.2: the bank pays the private's face value."""
    private = entities().privates.get(rest[0])
    face = private.face_value if private is not None else 0
    label = words(_("Return %(private)s to the bank for %(face)s"), private=rest[0], face=face)
    return "anytime", "", Option(text, label, gets=face)


def _run(ctx: Context, actor: str, rest: list[str], text: str) -> tuple[str, str, Option]:
    route = " ".join(rest)
    label = words(_("Run: %(route)s"), route=route) if route else words(_("Run the best route"))
    return "run", "", Option(text, label)


def _skip(ctx: Context, actor: str, rest: list[str], text: str) -> tuple[str, str, Option]:
    return "bonus", "", Option(text, words(_("Skip the bonus action")))


def _answer(ctx: Context, actor: str, rest: list[str], text: str, accept: bool
            ) -> tuple[str, str, Option]:
    """IV.2: the owner answers a company's offer for their private."""
    turn = ctx.view.round_info.line_turn
    offer = turn.offer if turn is not None else None
    private, price = (offer[0], offer[1]) if offer else ("", 0)
    msg = (_("Accept: sell %(private)s for %(price)s") if accept
           else _("Decline the offer for %(private)s"))
    return "offer", "", Option(text, words(msg, private=private, price=price),
                               gets=price if accept else None)


_HANDLERS: dict[tuple[str, str], Handler] = {
    ("bid", "player"): _private_bid,
    ("bid", "company"): _line_bid,
    ("auction", "company"): _auction,
    ("par", "player"): _par,
    ("buy", "player"): _buy_share,
    ("sell", "player"): _sell,
    ("pay", "company"): _dividend,
    ("buy", "company"): _buy_tram,
    ("scrap", "company"): _scrap,
    ("arrange", "company"): _arrange,
    ("buy", "line"): _buy_private,
    ("return", "player"): _return,
    ("return", "company"): _return,
    ("run", "line"): _run,
    ("skip", "line"): _skip,
    ("accept", "player"): lambda c, a, r, t: _answer(c, a, r, t, True),
    ("decline", "player"): lambda c, a, r, t: _answer(c, a, r, t, False),
}


def _simple(ctx: Context, actor: str, verb: str, rest: list[str]) -> Words:
    """Passing, ending a step, taking a playing order card."""
    if verb == "order" and rest:
        return words(_("Take playing order card %(card)s"), card=rest[0])
    if verb == "pass" and _actor_kind(actor) == "player":
        auction = ctx.view.round_info.auction
        private = getattr(auction, "private", None) if auction is not None else None
        if private:
            return words(_("Pass on %(private)s"), private=private)
        return words(_("Pass"))
    if verb == "pass":
        auction = ctx.view.round_info.auction
        line = getattr(auction, "line", None) if auction is not None else None
        if line is not None:
            return words(_("%(company)s passes on %(line)s"), company=actor,
                         line=line_name(line))
        return words(_("%(company)s opens no line auction"), company=actor)
    if verb == "done" and _actor_kind(actor) == "line":
        return words(_("End the turn of %(line)s"), line=line_name(actor))
    if verb == "done":
        return words(_("%(company)s buys no more trams"), company=actor)
    return words(_("%(verb)s"), verb=verb)


def ngettext_words(n: int, singular: str, plural: str, **values: Value) -> Words:
    """A message with a singular and a plural (the catalogs hold both as separate
    messages; the page's languages with more forms word them so both read well)."""
    return Words(singular if n == 1 else plural, values)


def _price_after_sale(view: View1840, company: str, count: int) -> int:
    """X.3: a row down per share sold (the share chart of the game's rulings edition)."""
    rules = Ruleset.of({"ruleset": view.ruleset, "edition": view.edition})
    cell = view.market[company]
    market = ShareMarket(climb_at_row_end=rules.climb_at_row_end)
    market.place(company, (int(cell[0]), int(cell[1])))
    market.move_down(company, count)
    return market.price(company)


# -- each group's title, once its options are known ----------------------------------------

def _finish(ctx: Context, c: Choice) -> None:
    c.title = _title(ctx, c)
    if c.kind in ("bid", "auction", "par", "sell", "arrange") or (
            c.kind == "dividend" and len(c.options) > 6):
        c.pick = True
    if c.kind == "dividend" and c.actor in ctx.view.market:
        amounts = [int(o.notation.split()[-1]) for o in c.options]
        prices = dividend_prices(ctx.view, c.actor, amounts)
        for o, amount in zip(c.options, amounts, strict=True):
            msg = (_("Withhold everything (share price then %(after)s)") if amount == 0 else
                   _("Pay out %(amount)s (share price then %(after)s)"))
            o.label = words(msg, amount=amount, after=prices[amount])
    if c.kind == "buy_private":
        c.privates = _private_ranges(c)
    if c.kind == "arrange":
        c.lines = _arrange_lines(ctx, c)


def _title(ctx: Context, c: Choice) -> Words | None:
    who = ctx.actor_name(c.actor)
    ent = entities()
    if c.kind == "bid" and c.actor.startswith("P"):
        p = ent.privates.get(c.subject)
        return words(_("%(who)s: bid for %(private)s (%(name)s, face value %(face)s)"),
                     who=who, private=c.subject, name=p.name if p else "",
                     face=p.face_value if p else 0)
    if c.kind in ("bid", "auction"):
        card = ent.lines.get(int(c.subject)) if c.subject.isdigit() else None
        home = f"{card.home_hex} {card.home_name}" if card else ""
        msg = (_("%(who)s: bid for %(line)s (home %(home)s)") if c.kind == "bid" else
               _("%(who)s: open the auction of %(line)s (home %(home)s) with a bid of"))
        return words(msg, who=who, line=line_name(c.subject), home=home)
    titles = {
        "par": _("Start %(company)s: choose its par price"),
        "sell": _("Sell shares of %(company)s"),
        "buy_share": _("Buy a share"),
        "tram": _("%(company)s: buy a tram"),
        "scrap": _("%(company)s: scrap a tram"),
        "arrange": _("%(company)s: which tram runs which line"),
        "buy_private": _("%(who)s: buy a private from a player (1 to its face value)"),
        "anytime": _("%(who)s: return a private to the bank"),
        "offer": _("An offer for your private"),
    }
    if c.kind == "dividend":
        price = ctx.view.companies[c.actor].price if c.actor in ctx.view.companies else 0
        return words(_("%(company)s: pay out (share price now %(price)s)"), company=c.actor,
                     price=price)
    if c.kind in titles:
        return words(titles[c.kind], company=c.subject or c.actor, who=who)
    return None


def _private_ranges(c: Choice) -> list[dict[str, object]]:
    """The private purchase as one control (IV.2): each private with its lowest and highest
    legal price (the legal prices of a private are every amount between them)."""
    prices: dict[str, list[int]] = {}
    for o in c.options:
        _actor, _verb, private, price = o.notation.split()
        prices.setdefault(private, []).append(int(price))
    ent = entities()
    out: list[dict[str, object]] = []
    for private, found in prices.items():
        p = ent.privates.get(private)
        out.append({"id": private, "name": p.name if p else private, "low": min(found),
                    "high": max(found), "prices": sorted(found)})
    return out


def _arrange_lines(ctx: Context, c: Choice) -> list[ArrangeLine]:
    """The editor's lines (VIII.5.3): per line of the company, its tram now and every colour
    some legal arrangement gives it (the page composes the move from the chosen colours and
    sends it only when it is one of the legal arrangements)."""
    company = ctx.view.companies.get(c.actor)
    if company is None:
        return []
    given: list[list[str]] = [[] for _ in company.lines]
    for o in c.options:
        for i, name in enumerate(o.notation.split()[2].split(",")[:len(company.lines)]):
            if name not in given[i]:
                given[i].append(name)
    out = []
    for i, line in enumerate(company.lines):
        now = company.tram_of(line) or "none"
        colours = sorted({now, *given[i]},
                         key=lambda x: TRAM_COLOURS.index(x) if x in TRAM_COLOURS else 99)
        out.append(ArrangeLine(line, now, tuple(colours)))
    return out
