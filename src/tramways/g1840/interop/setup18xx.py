"""The random set-up of an 18xx.games game of 1840, recomputed from its seed (X-1, R-SETUP-2).

18xx.games draws, in this order (reference/1840/interpretations.md, "Random set-up on
18xx.games"):

1. the first line display: the lines in the game in number order, line 2 left out, sorted by
   random key; the first ``players + 1`` are shown;
2. the tram companies in the game: WT, DT K&C, SJE, BBG, WKB, GWStStB sorted by random key; the
   first ``players`` are in the game (X-1);
3. at every CRf, the lines not yet shown (number order, line 2 included) sorted by random key;
   the first ``players + 1`` join the display (R-CR-8: all that remain if fewer).

No other draw happens in 1840, so the whole order of the line cards is fixed at set-up: the
later draws do not depend on play, only on how many CRf refills happen.  Dealing
``players + 1`` cards per refill off :attr:`Setup18xx.line_deck` is therefore exactly the
site's draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tramways.g1840.site_draw import site_draw

TRAM_COMPANIES_18XX: tuple[str, ...] = ("WT", "DT K&C", "SJE", "BBG", "WKB", "GWStStB")
"""The six tram companies in the order 18xx.games sorts them (X-1)."""

ENGINE_COMPANY_ID: dict[str, str] = {
    "WT": "WT",
    "DT K&C": "DT",
    "SJE": "SJE",
    "BBG": "BBG",
    "WKB": "WKB",
    "GWStStB": "GW",
}
"""18xx.games corporation id -> our notation id of the tram company."""

ALL_LINES: tuple[int, ...] = tuple(range(1, 19))

LINES_REMOVED: dict[str, frozenset[int]] = {
    "full": frozenset(),
    # XII (small 3-player map): lines 9, 10, 13, 14, 16, 17 leave the game.
    "small3": frozenset({9, 10, 13, 14, 16, 17}),
    # XIII (2 players) as played on 18xx.games: only 1-7, 15 and 18 remain.
    "two_player": frozenset({8, 9, 10, 11, 12, 13, 14, 16, 17}),
}

SET_ASIDE_LINE = 2
"""Line 2 never is in the first display (III.5)."""


def layout_of(players: int, small_map: bool) -> str:
    """R-SETUP-3: 2 players -> two_player; 3 with the small map -> small3; otherwise full."""
    if players == 2:
        return "two_player"
    if players == 3 and small_map:
        return "small3"
    return "full"


def lines_in_game(players: int, small_map: bool) -> tuple[int, ...]:
    """The line numbers in play, in number order (XII, XIII)."""
    removed = LINES_REMOVED[layout_of(players, small_map)]
    return tuple(n for n in ALL_LINES if n not in removed)


@dataclass(frozen=True)
class Setup18xx:
    """Every random set-up outcome of an 18xx.games game of 1840, as plain data.

    ``display`` and every batch of ``later_draws`` are in draw order (the order the site lists
    them in ``tram_lines_available``); ``tram_companies`` are 18xx.games ids in draw order.
    """

    seed: int
    players: int
    small_map: bool
    layout: str
    lines_in_game: tuple[int, ...]
    display: tuple[int, ...]
    tram_companies: tuple[str, ...]
    later_draws: tuple[tuple[int, ...], ...]

    @property
    def line_deck(self) -> tuple[int, ...]:
        """The lines not in the first display, in the order the CRf refills reveal them."""
        return tuple(line for batch in self.later_draws for line in batch)

    @property
    def line_order(self) -> tuple[int, ...]:
        """Every line card in the order it is shown: the display, then the refills."""
        return self.display + self.line_deck

    def refill(self, number: int) -> tuple[int, ...]:
        """The lines the ``number``-th CRf refill (1-based) adds; empty once none are left."""
        if number < 1:
            raise ValueError("refills are numbered from 1")
        return self.later_draws[number - 1] if number <= len(self.later_draws) else ()

    def engine_setup(self) -> dict[str, Any]:
        """The parts of our record's ``setup`` that this draw fixes (R-SETUP-2, X-1)."""
        return {
            "line_display": list(self.display),
            "line_deck": list(self.line_deck),
            "tram_companies": [ENGINE_COMPANY_ID[c] for c in self.tram_companies],
            "playing_order": list(range(self.players)),
        }


def compute_setup(seed: int, players: int, small_map: bool = False) -> Setup18xx:
    """Replay the site's draws for a seed and player count (X-1, R-SETUP-2, R-CR-8)."""
    if not 2 <= players <= 6:
        raise ValueError(f"1840 is for 2-6 players, not {players}")
    lines = lines_in_game(players, small_map)
    draw = site_draw(seed, players, lines)
    display, batches = draw.display, list(draw.refills)
    rev = {ours: site for site, ours in ENGINE_COMPANY_ID.items()}
    companies = tuple(rev[c] for c in draw.companies)
    return Setup18xx(
        seed=seed,
        players=players,
        small_map=small_map,
        layout=layout_of(players, small_map),
        lines_in_game=lines,
        display=display,
        tram_companies=companies,
        later_draws=tuple(batches),
    )
