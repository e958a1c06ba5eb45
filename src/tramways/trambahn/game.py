"""``GAME``: Trambahn plugged into the core (settings, set-up, notation, text view).

Set-up (Setup A-C): the 120 station and conductor cards are shuffled from the record's seed;
the start player (P1) gets 12 money cards, P2 gets 15, then each draws a hand of 6.  The
record's ``setup`` holds that deal and the order of the draw pile as card faces, so the game
is a pure function of the record.  The tram stack (horse, steam, electric) is not random.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tramways.core import Action, RecordError, derive_rng
from tramways.core.game import Game, GameBase, GameInfo
from tramways.trambahn import actions as notation
from tramways.trambahn.cards import (
    CARD_FACE,
    DISPLAY_SIZE,
    HAND_SIZE,
    IDS_BY_FACE,
    NUM_CARDS,
    START_MONEY,
    TRAM_STACK,
)
from tramways.trambahn.determinize import determinize
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.invariants import check_invariants
from tramways.trambahn.text import render
from tramways.trambahn.view_types import TrambahnView
from tramways.trambahn.views import public_notation

DEFAULT_NAMES = ("P1", "P2")


@dataclass(frozen=True, slots=True)
class TrambahnSettings:
    """A game's settings (Setup): two players and their names.  :meth:`from_json` checks a
    record's settings (one ``RecordError`` line), :meth:`to_json` writes them as every record
    stores them."""

    names: tuple[str, str] = DEFAULT_NAMES

    @classmethod
    def from_json(cls, settings: Mapping[str, Any]) -> TrambahnSettings:
        if settings.get("players", 2) != 2:
            raise RecordError("trambahn: a game for exactly 2 players")
        names = settings.get("names", list(DEFAULT_NAMES))
        if (
            not isinstance(names, list)
            or len(names) != 2
            or not all(isinstance(n, str) and n.strip() for n in names)
        ):
            raise RecordError("trambahn: names must be 2 non-empty strings")
        unknown = set(settings) - {"players", "names"}
        if unknown:
            raise RecordError(f"trambahn: unknown settings {sorted(unknown)}")
        return cls(names=(names[0].strip(), names[1].strip()))

    def to_json(self) -> dict[str, Any]:
        return {"players": 2, "names": list(self.names)}


class TrambahnGame(GameBase):
    """The Trambahn game object (see :class:`tramways.core.game.Game`)."""

    name = "trambahn"
    version = 1
    info = GameInfo(name="trambahn", title="Trambahn", players=(2,), hidden_information=True,
                    chance=True)
    """The record (seed, deal, deck order) stays with the host until the game is over; the
    discard pile is reshuffled during play (T-R-5)."""

    def normalize_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """The record's settings checked and completed (:class:`TrambahnSettings`)."""
        return TrambahnSettings.from_json(settings).to_json()

    def setup(self, settings: dict[str, Any], seed: int) -> dict[str, Any]:
        """Shuffle the 120 cards and deal (Setup A, C); faces, top of the draw pile first."""
        cards = list(range(NUM_CARDS))
        derive_rng(seed, "setup").shuffle(cards)
        faces = [CARD_FACE[c] for c in cards]
        m0, m1 = START_MONEY
        money = [faces[:m0], faces[m0 : m0 + m1]]
        start = m0 + m1
        hands = [faces[start : start + HAND_SIZE], faces[start + HAND_SIZE : start + 2 * HAND_SIZE]]
        return {
            "money": money,
            "hands": hands,
            "draw_pile": faces[start + 2 * HAND_SIZE :],
        }

    def new_state(
        self, settings: dict[str, Any], setup: dict[str, Any], seed: int
    ) -> TrambahnState:
        pools = {face: list(reversed(ids)) for face, ids in IDS_BY_FACE.items()}

        def cards(faces: Any, what: str) -> list[int]:
            if not isinstance(faces, list):
                raise RecordError(f"setup.{what}: expected a list of card faces")
            out = []
            for f in faces:
                if f not in pools:
                    raise RecordError(f"setup.{what}: {f!r} is not a card face")
                if not pools[f]:
                    raise RecordError(f"setup.{what}: too many {f} cards")
                out.append(pools[f].pop())
            return out

        unknown = set(setup) - {"money", "hands", "draw_pile"}
        if unknown:
            raise RecordError(f"setup: unknown entries {sorted(unknown)} (the deal is money, "
                              "hands and draw_pile)")
        try:
            if len(setup["money"]) != 2 or len(setup["hands"]) != 2:
                raise IndexError
            money = [cards(setup["money"][p], f"money[{p}]") for p in (0, 1)]
            hands = [cards(setup["hands"][p], f"hands[{p}]") for p in (0, 1)]
            deck = cards(setup["draw_pile"], "draw_pile")
        except (KeyError, IndexError, TypeError):
            raise RecordError("setup: expected money, hands (2 each) and draw_pile") from None
        if any(pools.values()):
            raise RecordError("setup: the deal does not hold all 120 cards")
        deck.reverse()  # the state keeps the top of a pile last
        names = settings.get("names", list(DEFAULT_NAMES))
        stack = list(TRAM_STACK)
        return TrambahnState(
            seed=seed,
            names=(names[0], names[1]),
            deck=deck,
            discard=[],
            hands=hands,
            money=money,
            rows=[[], [], [], []],
            columns=[[], []],
            stack=stack[DISPLAY_SIZE:],
            display=stack[:DISPLAY_SIZE],
        )

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def reveals(self, state: Any, action: Action) -> bool:
        """Ending a turn draws cards (Step 5) and may reshuffle (T-R-5): hidden information
        is revealed, so the undo policy (:mod:`tramways.core.undo`) stops there."""
        return isinstance(action, notation.EndTurn)

    def public_notation(self, action: Action, viewer: int | None) -> str:
        """The notation with the face of a card put onto a money pile hidden (Step 3)."""
        return public_notation(action, viewer)

    def player_names(self, settings: dict[str, Any]) -> Sequence[str]:
        return list(settings.get("names", DEFAULT_NAMES))

    def resignation(self, seat: int) -> Action:
        """``P1 resign``: the player resigns and the game ends (docs/async.md)."""
        return notation.Resign(seat)

    def text_view(self, view: TrambahnView) -> str:
        return render(view)

    def selfplay_policy(self, state: Any, player: int, rng: random.Random) -> Action:
        """Uniformly random legal actions (every game finishes: each turn adds a passenger)."""
        return rng.choice(state.legal_actions(player))

    def check_invariants(self, state: Any) -> None:
        """Raise ``InvariantError`` if any card is lost or doubled, or a score disagrees with
        the scoring history (used by ``tramways selfplay --check``)."""
        check_invariants(state)

    def determinize(self, view: TrambahnView, rng: random.Random) -> TrambahnState:
        """A position consistent with ``view`` (see
        :func:`tramways.trambahn.determinize.determinize`)."""
        return determinize(view, rng)


GAME = TrambahnGame()

if TYPE_CHECKING:  # mypy checks the game against the core's protocols: Game, and through
    _PROTOCOLS: Game = GAME  # new_state its GameState, and through outcome() its Outcome
