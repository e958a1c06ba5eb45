"""Helpers for the 1840 engine tests (and a test of the set-up they rely on)."""

from __future__ import annotations

from typing import Any

from tramways.g1840.edition import LATEST
from tramways.g1840.engine import State1840
from tramways.g1840.game import GAME


def make(players: int = 2, order: list[int] | None = None, display: list[int] | None = None,
         deck: list[int] | None = None, small_map: bool = False, seed: int = 1,
         ruleset: str = "rules", companies: list[str] | None = None,
         edition: int | None = int(LATEST)) -> State1840:
    """A new game with a chosen playing order and line cards (other set-up from the seed),
    under the newest edition of the rulings like every new game (R-VERSION-1); ``edition=1``
    for a game of the first, ``None`` for settings that state none (a record older than
    editions)."""
    stated = {} if edition is None else {"edition": edition}
    settings = GAME.normalize_settings({**stated, "players": players, "small_map": small_map,
                                        "ruleset": ruleset})
    setup: dict[str, Any] = GAME.setup(settings, seed)
    if order is not None:
        setup["playing_order"] = order
    if display is not None:
        setup["line_display"] = display
    if deck is not None:
        setup["line_deck"] = deck
    if companies is not None:
        setup["tram_companies"] = companies
    return GAME.new_state(settings, setup, seed)


def play(state: State1840, *texts: str) -> list[str]:
    """Apply actions given in notation; return the log."""
    log: list[str] = []
    for text in texts:
        log.extend(state.apply(GAME.parse_action(text)))
    return log


def two_player_after_pre(ruleset: str = "rules") -> State1840:
    """2 players, P1 starts: P1 KK 20, P2 SB 30, P1 HB 40, P2 SD 50; P2 then takes card 1."""
    s = make(2, order=[0, 1], display=[1, 3, 5], deck=[2, 4, 6, 7, 15, 18], ruleset=ruleset,
             companies=["WT", "SJE"] if ruleset != "rules" else None)
    play(s, "P1 bid KK 20", "P2 pass", "P2 bid SB 30", "P1 pass", "P1 bid HB 40", "P2 pass",
         "P2 bid SD 50", "P1 pass", "P2 order 1")
    return s


def two_player_after_sr1(ruleset: str = "rules") -> State1840:
    """Continue: P2 pars WT at 100, P1 pars SJE at 70, both pass: CR1 begins."""
    s = two_player_after_pre(ruleset)
    play(s, "P2 par WT 100", "P1 par SJE 70", "P2 pass", "P1 pass")
    return s


def test_setup_deals_lines_and_order_from_the_seed() -> None:
    settings = GAME.normalize_settings({"players": 4})
    a = GAME.setup(settings, 7)
    assert a == GAME.setup(settings, 7)
    assert sorted(a["playing_order"]) == [0, 1, 2, 3]
    assert len(a["line_display"]) == 5 and 2 not in a["line_display"]  # R-SETUP-2
    assert sorted(a["line_display"] + a["line_deck"]) == list(range(1, 19))
    assert a["layout"] == "full"


CR1_SCRIPT = ("WT buy yellow", "WT done", "SJE buy yellow", "SJE done", "WT auction L1 20",
              "SJE pass", "WT done", "SJE auction L3 20", "SJE done")
LR1_SCRIPT = ("L1 run", "L3 run", "L1 run", "L3 run")
CR2_SCRIPT = ("WT done", "SJE done", "WT pass", "SJE pass", "WT done", "SJE done")


def two_player_sr2(ruleset: str = "rules") -> State1840:
    """Through CR1 (each company a yellow tram and a line), LR1a/b and CR2 into SR2.

    SR2 starts with P1 350 cash (SJE 60, director), P2 200 (WT 90, director); W 80, G 60, D 65.
    """
    s = two_player_after_sr1(ruleset)
    play(s, *CR1_SCRIPT, *LR1_SCRIPT, *CR2_SCRIPT)
    assert s.round.name == "SR2"
    return s
