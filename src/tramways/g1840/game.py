"""The 1840 game object: settings, set-up drawn from the seed, notation, text view.

Settings: ``players`` (2-6), ``small_map`` (3 players only, XII), ``names``, ``ruleset``
(``"18xx.games"`` for imported records: RULINGS.md X-1..X-20; the set-up may then name the
``tram_companies`` drawn by the site) and ``edition``, the edition of the rulings the game is
played under (R-VERSION-1, :mod:`tramways.g1840.edition`; none stated: the first; new games:
the newest).
Set-up (R-SETUP-2, III.1): the playing order cards dealt at random, the line cards (line 2 set
aside, the others shuffled, players + 1 dealt face up, line 2 shuffled into the rest), the
privates and Stadtbahn companies of the layout.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tramways.core.actions import Action
from tramways.core.errors import RecordError
from tramways.core.game import Game, GameBase, GameInfo
from tramways.core.rng import derive_rng
from tramways.g1840 import actions as notation
from tramways.g1840.edition import LATEST
from tramways.g1840.engine import State1840
from tramways.g1840.entities import layout_name, lines_in, privates_in, stadtbahn_in
from tramways.g1840.invariants import check
from tramways.g1840.policy import policy
from tramways.g1840.record_schema import check_setup
from tramways.g1840.ruleset import NAMES
from tramways.g1840.settings import Settings1840, default_names
from tramways.g1840.site_draw import site_draw
from tramways.g1840.view import text_view
from tramways.g1840.view_types import View1840

RULESETS = NAMES
"""``"rules"``: the printed rules with RULINGS.md; ``"18xx.games"``: X-1..X-20, for records
imported from the site (see :mod:`tramways.g1840.interop`)."""


class Game1840(GameBase):
    """1840 Vienna Tramways (2-6 players)."""

    name = "1840"
    version = 1
    info = GameInfo(name="1840", title="1840 Vienna Tramways", players=(2, 3, 4, 5, 6),
                    hidden_information=False, chance=False)
    """Everything is public (see :mod:`tramways.core.visibility`): the record may be shown;
    every random outcome (the line deck, the playing order) is drawn at the set-up."""

    def normalize_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """The record's settings checked and completed (:class:`Settings1840`)."""
        return Settings1840.from_json(settings).to_json()

    def new_game_settings(self) -> dict[str, Any]:
        """Settings every new game starts from: the newest edition of the rulings
        (R-VERSION-1; a record without ``edition`` was played under the first)."""
        return {"edition": int(LATEST)}

    def setup(self, settings: dict[str, Any], seed: int) -> dict[str, Any]:
        """Every random outcome, drawn from the seed (III.1, III.5, R-SETUP-2); under the
        18xx.games ruleset with the site's generator (X-1, :mod:`tramways.g1840.site_draw`),
        so that the site sets up the game's export the same way."""
        n = settings["players"]
        layout = layout_name(n, settings.get("small_map", False))
        if settings.get("ruleset") == "18xx.games":
            drawn = site_draw(seed, n, lines_in(layout))
            return {
                "layout": layout,
                "playing_order": list(range(n)),  # the site seats players as listed
                "line_display": list(drawn.display),
                "line_deck": list(drawn.deck),
                "tram_companies": list(drawn.companies),
                "privates": privates_in(layout),
                "stadtbahn": stadtbahn_in(layout),
            }
        rng = derive_rng(seed, "setup")
        order = list(range(n))
        rng.shuffle(order)
        lines = [ln for ln in lines_in(layout) if ln != 2]
        rng.shuffle(lines)
        display, rest = lines[: n + 1], lines[n + 1:]
        if 2 in lines_in(layout):
            rest.append(2)
        rng.shuffle(rest)
        return {
            "layout": layout,
            "playing_order": order,
            "line_display": display,
            "line_deck": rest,
            "privates": privates_in(layout),
            "stadtbahn": stadtbahn_in(layout),
        }

    def new_state(self, settings: dict[str, Any], setup: dict[str, Any], seed: int) -> State1840:
        check_setup(settings, setup)  # one line naming the field, before the engine sees it
        try:
            return State1840(settings, setup, seed)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"1840: bad setup ({exc})") from None

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def player_names(self, settings: dict[str, Any]) -> Sequence[str]:
        return list(settings.get("names") or default_names(settings.get("players", 4)))

    def text_view(self, view: View1840) -> str:
        return text_view(view)

    def opening_log(self, state: Any) -> list[str]:
        """The set-up's log: the first round begins (III.5)."""
        return list(state.log)

    def check_invariants(self, state: Any) -> None:
        """Raise ``InvariantError`` if shares, cash, certificates, tiles or markers break an
        invariant (used by ``tramways selfplay --check``)."""
        check(state)

    def selfplay_policy(self, state: Any, player: int, rng: random.Random) -> Action:
        return policy(state, player, rng)

    def resignation(self, seat: int) -> Action:
        """``P2 resign``: the seat resigns and the game ends (docs/async.md)."""
        return notation.Resign(seat)


GAME = Game1840()

if TYPE_CHECKING:  # mypy checks the game against the core's protocols: Game, and through
    _PROTOCOLS: Game = GAME  # new_state its GameState, and through outcome() its Outcome
