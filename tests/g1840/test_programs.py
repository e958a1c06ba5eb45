"""Programmed actions (tramways.g1840.programs): standing orders that play a seat's routine
passes and purchases, as 18xx.games's ``program_share_pass`` / ``program_buy_shares`` do, and
an auction pass.  Played on the scripted 4-player game of test_game_scripted_four_player,
whose turns are known: each test removes from the script the moves a program now plays, and
the game must come out exactly as scripted."""

from __future__ import annotations

from typing import Any

import pytest

from tramways.core.errors import NotationError
from tramways.g1840.game import GAME
from tramways.g1840.program_actions import (
    CancelProgram,
    ProgramAuctionPass,
    ProgramBuyShares,
    ProgramSharePass,
)
from tramways.g1840.programs import legal_programs

from ..support import refused
from .test_game_scripted_four_player import CR1, CR2, CR3, LR1, LR2, PRE, SR1, SR2, SR_ALL_PASS
from .test_game_support import play


def make(programs: bool = True) -> Any:
    """The scripted 4-player game (first edition, as scripted), programs on."""
    settings = GAME.normalize_settings({"players": 4, "edition": 1, "programs": programs})
    setup: dict[str, Any] = GAME.setup(settings, 1)
    setup.update(playing_order=[0, 1, 2, 3], line_display=[1, 3, 4, 5, 7],
                 line_deck=[2, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
    return GAME.new_state(settings, setup, 1)


def to_cr2(state: Any) -> Any:
    play(state, *PRE, *SR1, *CR1, *LR1, *LR1)
    assert state.round.name == "CR2"
    return state


def without(script: list[str], *moves: str) -> list[str]:
    """``script`` less the first occurrence of each of ``moves`` (in order)."""
    out = list(script)
    for move in moves:
        out.remove(move)
    return out


def test_programs_notation_round_trips() -> None:
    state = to_cr2(make())
    programs = legal_programs(state, 0)
    assert ProgramSharePass(0, True, True) in programs and ProgramAuctionPass(0) in programs
    assert ProgramBuyShares(0, "GW", 3, True, False) in programs
    for program in programs:
        assert GAME.parse_action(GAME.format_action(program)) == program
    assert GAME.format_action(ProgramBuyShares(1, "GW", 2, True, True)) == \
        "P2 program buy GW 2 pool then-pass"
    assert GAME.parse_action("P1 program pass always indefinitely") == \
        ProgramSharePass(0, True, True)
    with pytest.raises(NotationError):
        GAME.parse_action("P1 program pass sometimes")


def test_programs_refused_in_a_game_without_them() -> None:
    state = to_cr2(make(programs=False))
    assert not [a for a in state.legal_actions(0) if isinstance(a, ProgramSharePass)]
    error = refused("programs", state.apply, ProgramSharePass(0))
    assert "without programmed actions" in str(error)


def test_programs_refused_when_nothing_to_cancel_or_out_of_range() -> None:
    state = to_cr2(make())
    refused("programs", state.apply, CancelProgram(0, "share"))
    refused("programs", state.apply, ProgramBuyShares(0, "GW", 7))  # at most 6 shares (60%)
    refused("programs", state.apply, ProgramBuyShares(0, "XX", 2))


def test_conditional_share_pass_plays_until_another_player_sells() -> None:
    state = to_cr2(make())
    log = play(state, "P1 program pass")
    assert state.view(0).programs == {"share": "pass in this Share Round, until another "
                                               "player sells or pars"}
    assert state.view(1).programs == {}
    log = play(state, *CR2, "P3 buy GW", "P2 buy GW")  # SR2: P1's turn passes by itself
    assert "Player 1's programmed action 'pass in this Share Round, until another player " \
           "sells or pars' plays:" in log
    assert log[-1] == "Player 1 passes"
    assert state.current_players() == [3]
    # P4 sells V: at P1's next turn the program is switched off, and P1 decides
    log = play(state, "P4 sell V 1", "P4 buy GW", "P3 buy GW", "P2 pass")
    assert log[-1] == ("Player 1's programmed action 'pass in this Share Round, until another "
                       "player sells or pars' is switched off: Player 4 sold shares of V")
    assert state.current_players() == [0] and 0 not in state.programs
    play(state, *SR2[7:])
    assert state.price("V") == 75 and state.price("GW") == 70
    assert [p.cash for p in state.players] == [49, 49, 44, 163]


def test_unconditional_share_pass_ends_with_its_share_round() -> None:
    state = to_cr2(make())
    play(state, "P1 program pass always", *CR2)
    log = play(state, *without(SR2, "P1 pass", "P1 pass", "P1 pass"))
    assert [p.cash for p in state.players] == [49, 49, 44, 163]
    assert state.round.name == "LR2a"
    assert ("Player 1's programmed action 'pass in this Share Round' is switched off: the "
            "Share Round is over") in log
    assert state.programs == {}


def test_indefinite_share_pass_lasts_into_the_next_share_round() -> None:
    state = to_cr2(make())
    play(state, "P1 program pass always indefinitely", *CR2,
         *without(SR2, "P1 pass", "P1 pass", "P1 pass"), *LR2, *LR2, *CR3)
    assert state.programs[0]["share"].program == ProgramSharePass(0, True, True)
    play(state, *without(SR_ALL_PASS, "P1 pass"))
    assert state.round.name == "LR3a"


def test_programs_of_several_seats_fire_on_one_move() -> None:
    state = to_cr2(make())
    play(state, *CR2, *SR2, *LR2, *LR2, *CR3,
         "P2 program pass always", "P1 program pass always")
    log = play(state, "P4 pass")  # SR3's order: P4, P2, P1, P3
    assert log == ["Player 4 passes",
                   "Player 2's programmed action 'pass in this Share Round' plays:",
                   "Player 2 passes",
                   "Player 1's programmed action 'pass in this Share Round' plays:",
                   "Player 1 passes"]
    assert state.current_players() == [2]
    play(state, "P3 pass")
    assert state.round.name == "LR3a"


def test_buy_shares_until_held_then_pass() -> None:
    state = to_cr2(make())
    play(state, "P2 program buy GW 1 then-pass", *CR2)
    log = play(state, "P3 buy GW")  # P2 buys at once
    assert log[-1] == "Player 2 buys a 10% share of GW for 60"
    assert state.players[1].shares["GW"] == 10
    # P2's next turn: the holding is reached; the program becomes a conditional pass, set
    # now, so P4's sale before it does not count
    log = play(state, "P1 pass", "P4 sell V 1", "P4 buy GW", "P3 buy GW")
    assert ("Player 2's programmed action 'buy GW from the unsold shares until holding 1 "
            "shares, then pass' is switched off: 1 shares of GW held, the end condition is met"
            ) in log
    assert log[-1] == "Player 2 passes"
    # P3 sells D before P2's next turn: the pass is switched off, P2 decides
    play(state, "P1 pass", "P4 pass", "P3 sell D 1", "P3 buy GW")
    assert state.current_players() == [1] and 1 not in state.programs
    play(state, "P2 pass", "P1 pass", "P4 pass", "P3 pass")
    assert [p.cash for p in state.players] == [49, 49, 44, 163]
    assert state.order == [3, 1, 0, 2]


def test_buy_shares_switched_off_when_the_source_differs() -> None:
    state = to_cr2(make())
    play(state, "P2 program buy GW 2 pool", *CR2)
    log = play(state, "P3 buy GW")
    assert log[-1] == ("Player 2's programmed action 'buy GW from the pool until holding 2 "
                       "shares' is switched off: cannot buy GW from the pool")
    assert state.current_players() == [1]


def test_buy_shares_from_the_pool_plays_then_passes() -> None:
    """``program buy GW 1 pool then-pass`` fires while GW's shares come from the pool (its
    unsold shares are gone: the position is made so, the scripted game never empties them),
    buys there, and on the seat's next turn, the holding reached, goes on with a pass."""
    state = to_cr2(make())
    play(state, "P2 program buy GW 1 pool then-pass", *CR2)
    gw = state.companies["GW"]
    gw.pool, gw.ipo = gw.pool + gw.ipo, 0  # all five of GW's other shares in the pool
    log = play(state, "P3 buy GW")
    assert log[1:] == ["Player 2's programmed action 'buy GW from the pool until holding 1 "
                       "shares, then pass' plays:", "Player 2 buys a 10% share of GW for 60"]
    assert (gw.ipo, gw.pool, state.players[1].shares["GW"]) == (0, 30, 10)
    log = play(state, "P1 pass", "P4 pass", "P3 buy GW")
    assert log[3:] == [
        "Player 2's programmed action 'buy GW from the pool until holding 1 shares, then "
        "pass' is switched off: 1 shares of GW held, the end condition is met",
        "Player 2 programs: pass in this Share Round, until another player sells or pars",
        "Player 2's programmed action 'pass in this Share Round, until another player sells "
        "or pars' plays:", "Player 2 passes"]
    assert state.current_players() == [0] and state.players[1].cash == 49
    assert state.programs[1]["share"].program == ProgramSharePass(1)


def test_auction_pass_in_line_auctions() -> None:
    state = to_cr2(make())
    # P2 directs DT: its pass on WT's line 7 is played by the program; its choice of a line
    # to auction stays P2's
    play(state, "P2 program auctions")
    play(state, *without(CR2, "DT pass"))
    assert state.round.name == "SR2"
    assert state.companies["WT"].lines == [3, 7]


def test_auction_pass_never_passes_a_choice() -> None:
    """Every seat with the auctions' pass: the first chooser still decides (a table of
    programs passing every choice would pass for ever)."""
    state = make()
    play(state, *(f"P{seat} program auctions" for seat in (1, 2, 3, 4)))
    assert state.current_players() == [0] and state.round.name == "PRE"


def test_auction_pass_in_the_pre_share_round() -> None:
    state = make()
    log = play(state, "P3 program auctions", "P4 program auctions", "P1 bid PR 10",
               "P2 bid PR 15")
    assert log[-3:] == ["Player 3 passes on PR", "Player 4's programmed action 'pass on bids "
                        "in the Pre-Share Round and in line auctions' plays:",
                        "Player 4 passes on PR"]
    assert state.current_players() == [0]


def test_cancel_program() -> None:
    state = to_cr2(make())
    play(state, "P1 program pass always", "P1 program off share")
    assert state.programs == {}
    play(state, *CR2, "P3 buy GW", "P2 buy GW")
    assert state.current_players() == [0]


def test_a_new_program_of_a_kind_replaces_the_old() -> None:
    state = to_cr2(make())
    play(state, "P1 program pass", "P1 program buy GW 2")
    assert state.programs[0]["share"].program == ProgramBuyShares(0, "GW", 2)


def test_record_with_programs_replays_to_the_same_position() -> None:
    state = to_cr2(make())
    moves = ["P2 program buy GW 1 then-pass", "P1 program pass always", *CR2, "P3 buy GW",
             "P4 sell V 1", "P4 buy GW", "P3 buy GW", "P4 pass", "P3 sell D 1", "P3 buy GW",
             "P2 pass", "P4 pass", "P3 pass"]
    play(state, *moves)
    again = to_cr2(make())
    play(again, *moves)
    assert again.view(0) == state.view(0) and again.log == state.log
    assert [p.cash for p in state.players] == [49, 49, 44, 163]


@pytest.mark.parametrize("seed", [3, 11])
def test_random_games_with_programs_replay_exactly(seed: int) -> None:
    """Random games where seats now and then set or cancel programs: every move is legal,
    the programs never stall the game, and the actions replay to the same end."""
    import random

    rng = random.Random(seed)
    settings = GAME.normalize_settings({"players": 4, "programs": True})
    setup = GAME.setup(settings, seed)
    state = GAME.new_state(settings, setup, seed)
    played: list[tuple[Any, int]] = []
    log: list[str] = []
    while not state.is_over() and len(played) < 4000:
        if rng.random() < 0.05:
            seat = rng.randrange(4)
            programs = legal_programs(state, seat)
            kind = rng.choice(sorted({type(p).__name__ for p in programs}))
            options = [p for p in programs if type(p).__name__ == kind]
        else:
            seat = state.current_players()[0]
            options = [a for a in state.legal_actions(seat) if not a.standing_order]
        action = rng.choice(options)
        log.extend(state.apply(action, seat))
        played.append((action, seat))
    assert state.is_over()
    assert any(a.standing_order for a, _ in played)
    assert sum(line.endswith("plays:") for line in log) >= 3  # programs fired
    again = GAME.new_state(settings, setup, seed)
    log_again: list[str] = []
    for action, seat in played:
        log_again.extend(again.apply(GAME.parse_action(GAME.format_action(action)), seat))
    assert again.view(None) == state.view(None) and log_again == log
