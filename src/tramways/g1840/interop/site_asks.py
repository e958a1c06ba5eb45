"""Where the site's steps ask a player for a ``pass`` that our engine would make by itself,
and where they end a turn our engine keeps open.

The site passes for a player only when its step lists no action for them ("has no valid
actions and passes"); the exporter leaves out, and the importer plays by itself, a pass where
our engine offers nothing but passing (returns and scraps aside).  Two steps of the site list
an action our engine has no counterpart for, so there the pass is the player's own:

* the Pre-Share Round's choice of a private asks even a player who can afford none
  (random_44011_6p);
* the share round's Sell-then-Buy step keeps every line a company won as a 100% share in its
  share pool and counts it among the shares a player may buy (:func:`offers_line_share`).
"""

from __future__ import annotations

from typing import Any

SITE_LINE_SHARE_PRICE = 130
"""The site's price of a line's share in its pool: twice the market's lowest par (65, the
line's ``min_price``; the share is 100% in units of 50%)."""


def offers_line_share(state: Any, seat: int) -> bool:
    """Whether the site's Sell-then-Buy step offers ``seat`` a line's share: in a share round
    after the first line was won, to a player with that share's price in cash and room under
    the certificate limit (VII.3).  random_46048_2p, SR3: P1 sold five DT shares and could
    buy nothing of ours with 352; the site still asked ("Sell then Buy Shares cannot process
    action buy_shares" for the next player's buy)."""
    return (state.round.type == "SR" and bool(state.line_owner)
            and state.players[seat].cash >= SITE_LINE_SHARE_PRICE
            and state.certificates(seat) < state.cert_limit())


def asks_to_pass(state: Any, seat: int) -> bool:
    """Whether the site asks ``seat``'s pass where our engine offers only passing (the
    module's two cases)."""
    choosing = state.round.type == "PRE" and getattr(state.sub, "auction", None) is None
    return choosing or offers_line_share(state, seat)


def line_turn_ended(state: Any, following: Any) -> list[str]:
    """After a return (``state``: before it) in a line's BuyCompany step after its run, the
    site ends the line's turn when nothing is left to buy: its next action is then another
    entity's, and ours is the line's ``done`` (played if our engine asks for it).
    random_54063_4p: P4 returned Prater, the one private line 15 could buy, after its run
    ("15 skips buy companies"); our import played line 16's run in line 15's turn."""
    turn = getattr(state.sub, "turn", None)
    if turn is None or not getattr(turn, "ran", False):
        return []
    if following is not None and following.action.entity == str(turn.line):
        return []
    return [f"?L{turn.line} done"]
