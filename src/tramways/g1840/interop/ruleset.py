"""The 18xx.games ruleset: the switches a record imported from the site turns on (X-1..X-20).

A record imported from 18xx.games carries ``settings["ruleset"] == "18xx.games"``; it switches
exactly these behaviours and nothing else (rules/RULINGS.md, "18xx.games ruleset").  The engine
reads them as the named fields of :class:`tramways.g1840.ruleset.Ruleset` (one per X-n), never
the ruleset's name.  Each switch says which
of our rulings it replaces, where the engine must branch, and where it shows in the 2-player
oracle game (indexes into its ``actions``; "none" when that game never reaches the case) or,
from X-10 on, in the 24 site-engine games (``fz2027_N_Xp I``: game and action index).  X-16
has no case in those games and no switch yet; X-18..X-20 are proposed for RULINGS.md.

X-9 was proven by the oracle's trace (see its evidence); RULINGS.md has since amended R-CR-2 to
read X.2 as the site does, so X-9 is a difference only under the first edition (R-VERSION-1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

RULESET_RULES = "rules"
RULESET_18XX = "18xx.games"
RULESETS = (RULESET_RULES, RULESET_18XX)


@dataclass(frozen=True)
class Switch:
    """One behaviour the 18xx.games ruleset changes."""

    id: str
    change: str
    replaces: tuple[str, ...]
    branch: str
    oracle: str


SWITCHES: tuple[Switch, ...] = (
    Switch(
        "X-1",
        "The tram companies in the game are drawn at set-up with the site's generator "
        "(one per player), not chosen when parring.",
        ("R-SETUP-1", "VII.5"),
        "setup (record setup 'tram_companies' from setup18xx); SR1 par offers only those",
        "set-up: GWStStB and WT (trace initial_state); pars at actions 12, 13",
    ),
    Switch(
        "X-2",
        "CRd order: first every tram company's dividend (share-price order), then the "
        "Stadtbahn runs, then a separate tram-buying turn per tram company, then the auction.",
        ("R-CR-1", "VIII.5"),
        "company_round: order of the CRd sub-steps",
        "every CR: actions 16-20 (CR1), 49-57, 145-150, 233-242, 312-320, 388-390",
    ),
    Switch(
        "X-3",
        "Negative tram income is taken from the treasury first, then the director (with "
        "loans); the revenue space is skipped.",
        ("R-LR-9", "IX.8"),
        "line_round: payment of a negative run result",
        "none (no negative income in the oracle game)",
    ),
    Switch(
        "X-4",
        "The end-of-SR sold-out rise also applies to Stadtbahn companies.",
        ("R-SR-2", "X.3"),
        "share_round: end of the round, sold-out check",
        "action 333 (end of SR5: G 91 -> 101)",
    ),
    Switch(
        "X-5",
        "The first-turn home-base tile rule is not enforced.",
        ("R-LR-2", "IX.4"),
        "legality of a line's first normal tile lay",
        "none (every line laid its first tile on its home base)",
    ),
    Switch(
        "X-6",
        "An empty purple station hex is a valid end of a route, worth 0.",
        ("R-LR-6", "IX.2", "IX.7"),
        "routes: validity of a route end",
        "none (no recorded route ends on an untiled station hex)",
    ),
    Switch(
        "X-7",
        "L30 and L31 exist in separate versions for F24 and G11 (one each); L16 exists once.",
        ("R-LR-11",),
        "board tile supply: data.initial_supply(ruleset)",
        "none (only L31b and one L16 are laid)",
    ),
    Switch(
        "X-8",
        "Runs are taken as recorded when valid, even if a better route existed.",
        ("IX.7",),
        "line_round: a claimed route is accepted when valid (Run with a route)",
        "action 384 (LR5c): line 7 runs K9-...-F22 for 200 (100 after maintenance) as in its "
        "earlier turns, while F18-...-I19-J18-...-K9 now earns 220 (120); all 44 recorded runs "
        "are valid routes",
    ),
    Switch(
        "X-9",
        "A right move of the share price that reaches the end of a row goes one space up and "
        "continues to the right in the new row.  A difference only under the first edition "
        "of the rulings, whose R-CR-2 went up for every remaining space; the amended R-CR-2 "
        "(second edition, R-VERSION-1) reads X.2 as the site does.",
        ("R-CR-2", "X.2"),
        "market: right moves by several spaces (edition.Edition.climbs_at_row_end)",
        "action 314 (CR5: GWStStB pays 680, 4 steps from 70 at row 4, col 2 to 98 at "
        "row 3, col 5; R-CR-2 would give 101)",
    ),
)

SWITCHES += (
    Switch("X-10", "A tile laid earlier in the same line turn may be upgraded in that turn.",
           ("R-LR-3",), "Ruleset.upgrade_laid_this_turn: line_turn.tile_options",
           "site-engine games (a Stadtbahn tile upgraded by the bonus it granted)"),
    Switch("X-11", "After the line auctions the buying turn goes only to companies with fewer "
           "than three lines.", ("R-CR-7",),
           "Ruleset.extra_turn_below_three_lines: company._extra_turn",
           "fz2027_0_2p 148 (WT with three lines has no turn)"),
    Switch("X-12", "A buyer may take the pool share while unsold shares remain; compared as "
           "the bank's holding (unsold + pool).", ("VII.6",), "trace.bank_holdings",
           "site-engine games (market buys)"),
    Switch("X-13", "Pre-Share Round: after an all-pass the choice goes on in rotation; the "
           "private at 0 goes to the next player in rotation; the choice then goes on after the "
           "last auction's opener, or after the taker when none was held.",
           ("R-PRE-2", "R-PRE-3"),
           "Ruleset.pre_share_rotation: PreShare._pass, PreShare._reduce",
           "fz2027_2_3ps 12, fz2027_12_2p 8-10, random_44001_3p 7, volume/x13_*.json"),
    Switch("X-14", "Pre-Share Round: an all-pass lowers the cheapest private while it is "
           "unsold; the dividends come only once it is sold.", ("R-PRE-2", "R-PRE-3"),
           "Ruleset.cheapest_falls_until_sold: PreShare._pass", "fz2027_12_2p 7"),
    Switch("X-15", "Pre-Share Round: the lowered minimum bid stays after other privates' "
           "sales.", ("R-PRE-4",), "Ruleset.discount_stays: PreShare._sell",
           "fz2027_12_2p 7 (Karlskirche from 10 to 5 after Hofburg's sale)"),
    Switch("X-17", "The site asks every buying turn (a company with a tram may scrap in it) "
           "and ends the buying step itself after a purchase.", ("VIII.5.3",),
           "Ruleset.buying_turn_kept_open: trams.has_turn; translate._turn_ends",
           "fz2027_8_3ps 289-291 (WKB at three trams scraps and reassigns)"),
    Switch("X-18", "(proposed) A company without a tram must buy one in its own buying turn, "
           "the director paying the rest with loans.", ("R-CR-5", "VIII.5.3"),
           "Ruleset.must_buy_in_turn: trams.must_buy_in_turn, buying._done",
           "fz2027_10_5p 83, fz2027_15_4p 299"),
    Switch("X-19", "(proposed) A sale pays the share_price its action records for each share; "
           "for several shares that price is their total.", ("VII.4",),
           "Ruleset.sale_at_recorded_price: ShareRound._sell ('sell CO N at P')",
           "fz2027_7_3p 291 (3 G at 65 record 195, receive 585), fz2027_21_4p 356"),
    Switch("X-20", "(proposed) The untiled D18 holds one home marker: the other line's waits "
           "for a tile and goes on at the start of its next turn.", ("IX.6",),
           "Ruleset.home_waits_for_tile: line_home.home_waits",
           "fz2027_14_3ps 160-197"),
)

SWITCHES += (
    Switch("X-16", "Pre-Share Round: when an auction ends because the last rival cannot raise, "
           "the player who opened it chooses next.", ("VI",),
           "Ruleset.choice_back_to_opener: pre_share._next_bidder",
           "oracle case s-pre-elim-order (6 players)"),
    Switch("X-21", "A two-circle tile laid on a hex with another line's home marker lifts it; "
           "the laying line's director places it.", ("IX.4", "IX.5", "R-LR-13"),
           "Ruleset.home_marker_lifted: line_home.lifted_owner",
           "oracle case s-marker-lift-choice (3 players, small map, LR3a)"),
    Switch("X-22", "(proposed) A line buys another player's private at once: the site asks no "
           "consent.", ("IV.2",), "Ruleset.sale_without_consent: LineRound._buy_private",
           "the site's BuyCompany step (no answer step); our exports with an offer"),
    Switch("X-23", "(proposed) A private is returned, a tram scrapped, only by the side acting "
           "now, in a Company or Line Round (while a line is auctioned, the opener's director; "
           "in a Company Round, the director's own privates only).", ("IV.2", "VIII.5.3"),
           "Ruleset.returns_and_scraps_in_turn: State1840._site_anytime_actions",
           "our random games: 'Blocking step Buy Trains cannot process action choose_ability'"),
    Switch("X-24", "(proposed) A line places no second station marker on a hex where it has "
           "one.", ("IX.6",), "Ruleset.one_marker_per_hex: line_turn.station_options",
           "our random games: 'Place a Token or Lay Track cannot process action place_token'"),
    Switch("X-25", "(proposed) An unsold line's home circle stays reserved after CR5's "
           "auctions, until every company has three lines (the site then closes the unsold "
           "lines).", ("R-LR-12", "IX.6"),
           "Ruleset.reserved_until_three_lines: Position.may_still_operate",
           "our random games: 'no token slots available on D4' (random_44010_5p LR5c)"),
)

SWITCHES += (
    Switch("X-26", "(proposed) A Stadtbahn tile's bonus station marker is placed or declined "
           "before any Stadtbahn marker removal; a removal while it is pending keeps it only "
           "for the circle just freed, as the line's next action (the site's bonus step "
           "removes a marker itself only where the bonus marker goes).", ("R-LR-1", "R-LR-5"),
           "Ruleset.bonus_station_first: line_turn.bonus_after_removal, bonus_is_free",
           "our random games random_47067_3p, random_47101_6p: the site declined the bonus "
           "before the removal and charged the later station (round trip: different "
           "figures at the run)"),
)

SWITCH_IDS: tuple[str, ...] = tuple(s.id for s in SWITCHES)


def switch(switch_id: str) -> Switch:
    """The switch with this id (``KeyError`` for an unknown id)."""
    for s in SWITCHES:
        if s.id == switch_id:
            return s
    raise KeyError(switch_id)


def uses_18xx_ruleset(settings: Mapping[str, Any]) -> bool:
    """Whether a game's settings select the 18xx.games ruleset (default: the rules)."""
    ruleset = settings.get("ruleset", RULESET_RULES)
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")
    return ruleset == RULESET_18XX
