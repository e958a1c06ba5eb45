"""The ruleset a game is played under: one frozen object of named switches.

A game follows the printed rules with RULINGS.md (:data:`RULES`), or, for a record imported
from 18xx.games (``settings["ruleset"] == "18xx.games"``), the site's behaviour where RULINGS.md
lists a difference (:data:`SITE`, the switches X-n).  The edition of the rulings (R-VERSION-1,
:mod:`tramways.g1840.edition`) is folded in where it changes a behaviour.

Rules code reads the one field that names the behaviour it implements (``rules.loss_skips_revenue``)
and never compares ruleset names.  Adding a switch is one field here (with its id in a comment)
and one value in :func:`Ruleset.of`; the documentation of every X-n, with its evidence in the
oracle game, is :mod:`tramways.g1840.interop.ruleset`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tramways.g1840.edition import Edition

RULES_NAME = "rules"
SITE_NAME = "18xx.games"
NAMES = (RULES_NAME, SITE_NAME)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Which way each behaviour that differs goes (False: the printed rules with RULINGS.md)."""

    name: str = RULES_NAME
    """The settings value (``"rules"`` or ``"18xx.games"``): for records, views and the board's
    tile chart only; rules code reads the switches below."""
    companies_drawn: bool = False  # tram companies drawn at set-up, not chosen at par
    dividends_first: bool = False  # CRd: every dividend, Stadtbahn runs, then buying turns
    loss_skips_revenue: bool = False  # a negative run is paid from the treasury first
    stadtbahn_sold_out_rise: bool = False  # the sold-out rise applies to Stadtbahn too
    home_tile_anywhere: bool = False  # the first-turn home-base tile rule is not enforced
    purple_station_route_end: bool = False  # an empty purple station hex ends a route
    site_tile_supply: bool = False  # L30/L31 in F24 and G11 versions, L16 once
    runs_as_recorded: bool = False  # a valid recorded run is taken even if not the best
    upgrade_laid_this_turn: bool = False  # a tile laid this turn may be upgraded
    extra_turn_below_three_lines: bool = False  # no post-auction buying turn for a
    #                                             company with three lines
    climb_at_row_end: bool = False  # R-CR-2 of the first edition (R-VERSION-1; X-9)
    # The site's procedure where it asks or acts differently with no effect on the rules'
    # outcome for the records replayed so far (docs/interop.md lists them):
    private_after_run: bool = False  # a private may be bought after the run (the BuyCompany step)
    lines_drawn_after_auctions: bool = False  # CRf as soon as the auctions end; unsold lines
    #                                           leave once every company has three lines
    no_rearrange_after_mandatory: bool = False  # no rearranging after the mandatory tram
    no_private_funds: bool = False  # automatic steps ignore a private's face value as funds
    scrapped_line_stays_empty: bool = False  # a line whose tram is scrapped waits for the
    #                                          site's reassignment even when a spare exists
    buying_turn_kept_open: bool = False  # every buying turn is asked (a company with
    #                                      a tram may scrap in it); after a purchase it ends
    #                                      once no more can be bought (and nothing reassigned)
    must_buy_in_turn: bool = False  # X-18 (proposed): a company without a tram must buy
    #                                 one in its buying turn, the director paying the rest
    sale_at_recorded_price: bool = False  # X-19 (proposed): a sale pays, per share, the
    #                                        price the site's action records
    pre_share_rotation: bool = False  # after an all-pass the choice goes on in
    #                                   rotation (also who must take the private at 0)
    cheapest_falls_until_sold: bool = False  # an all-pass lowers the cheapest private
    #                                          while it is unsold, dividends only afterwards
    discount_stays: bool = False  # that private's reduced minimum bid stays
    home_waits_for_tile: bool = False  # X-20 (proposed): on the untiled D18 with the other
    #                                    line's marker, a home marker waits for the tile
    sale_without_consent: bool = False  # X-22 (proposed): a line buys another player's
    #                                     private at once, the owner is not asked (IV.2)
    returns_and_scraps_in_turn: bool = False  # X-23 (proposed): a private is returned, a
    #                                          tram scrapped, only by the acting side (CR, LR)
    one_marker_per_hex: bool = False  # X-24 (proposed): a line places no second station
    #                                   marker on a hex where it has one
    choice_back_to_opener: bool = False  # when the last rival of a Pre-Share auction
    #                                      cannot raise, the opener chooses next
    reserved_until_three_lines: bool = False  # X-25 (proposed): an unsold line's home
    #                                           circle stays reserved after CR5's auctions,
    #                                           until every company has three lines
    home_marker_lifted: bool = False  # R-LR-13 (site): a tile on the untiled home hex with
    #                                   several circles lifts the home marker for a choice
    bonus_station_first: bool = False  # X-26 (proposed): a pending bonus station marker
    #                                    goes on before any removal; after one, only on the
    #                                    circle it freed and as the line's next action

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Ruleset:
        """The ruleset a game's settings select (``ruleset`` and ``edition``)."""
        name = settings.get("ruleset", RULES_NAME)
        edition = Edition.of(settings)
        if name == SITE_NAME:
            return SITE
        if name != RULES_NAME:
            raise ValueError(f"unknown ruleset {name!r} (known: {', '.join(NAMES)})")
        return dataclasses.replace(RULES, climb_at_row_end=edition.climbs_at_row_end())

    @classmethod
    def named(cls, name: str | Ruleset) -> Ruleset:
        """The ruleset of this name under the newest edition (a :class:`Ruleset` as it is)."""
        if isinstance(name, Ruleset):
            return name
        return cls.of({"ruleset": name, "edition": int(max(Edition))})


RULES = Ruleset()
"""The printed rules with RULINGS.md (newest edition)."""

SITE = Ruleset(
    name=SITE_NAME,
    companies_drawn=True,
    dividends_first=True,
    loss_skips_revenue=True,
    stadtbahn_sold_out_rise=True,
    home_tile_anywhere=True,
    purple_station_route_end=True,
    site_tile_supply=True,
    runs_as_recorded=True,
    upgrade_laid_this_turn=True,
    extra_turn_below_three_lines=True,
    climb_at_row_end=False,  # the site always went right again (amended R-CR-2)
    private_after_run=True,
    lines_drawn_after_auctions=True,
    no_rearrange_after_mandatory=True,
    no_private_funds=True,
    scrapped_line_stays_empty=True,
    home_marker_lifted=True,
    buying_turn_kept_open=True,
    must_buy_in_turn=True,
    sale_at_recorded_price=True,
    pre_share_rotation=True,
    cheapest_falls_until_sold=True,
    discount_stays=True,
    home_waits_for_tile=True,
    sale_without_consent=True,
    returns_and_scraps_in_turn=True,
    one_marker_per_hex=True,
    choice_back_to_opener=True,
    reserved_until_three_lines=True,
    bonus_station_first=True,
)
"""The 18xx.games ruleset (RULINGS.md X-1..X-17; X-18..X-20 proposed), for records imported
from the site."""
