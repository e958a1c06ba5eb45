"""Action notation: parse(format(a)) == a for every listed action; bad text raises."""

from __future__ import annotations

import random

import pytest

from tramways.core.errors import NotationError
from tramways.g1840.actions import (
    Accept,
    Arrange,
    Bid,
    BuyPrivate,
    BuyShare,
    BuyTram,
    ChooseOrder,
    CompanyPass,
    CompanyReturnPrivate,
    Decline,
    Dividend,
    Done,
    EndTurn,
    LayTile,
    LineBid,
    OpenAuction,
    Par,
    Pass,
    PlaceStation,
    RemoveMarker,
    ReturnPrivate,
    Run,
    ScrapTram,
    SellShares,
    SkipBonus,
)
from tramways.g1840.game import GAME
from tramways.g1840.policy import policy

from .test_game_support import make

EXAMPLES = {
    "P1 bid KK 25": Bid(0, "KK", 25),
    "P2 pass": Pass(1),
    "P3 order 2": ChooseOrder(2, 2),
    "P2 par WT 90": Par(1, "WT", 90),
    "P1 buy W": BuyShare(0, "W"),
    "P1 sell WT 2": SellShares(0, "WT", 2),
    "P4 return SSB": ReturnPrivate(3, "SSB"),
    "P2 accept": Accept(1),
    "P2 decline": Decline(1),
    "WT pay 120": Dividend(company="WT", amount=120),
    "SJE buy orange": BuyTram(company="SJE", colour="orange"),
    "GW scrap yellow": ScrapTram(company="GW", colour="yellow"),
    "DT arrange orange,yellow": Arrange(company="DT", colours=("orange", "yellow")),
    "BBG done": Done(company="BBG"),
    "WKB auction L7 20": OpenAuction(company="WKB", line=7, amount=20),
    "WT bid 25": LineBid(company="WT", amount=25),
    "WT pass": CompanyPass(company="WT"),
    "WT return KK": CompanyReturnPrivate(company="WT", private="KK"),
    "L7 lay E17 57 r2": LayTile(line=7, hex="E17", tile="57", rotation=2),
    "L12 lay H12 L1 r0": LayTile(line=12, hex="H12", tile="L1", rotation=0),
    "L7 station E17.0": PlaceStation(line=7, hex="E17", location=0),
    "L7 remove G3.0": RemoveMarker(line=7, hex="G3", location=0),
    "L7 buy KK 15": BuyPrivate(line=7, private="KK", price=15),
    "L7 run": Run(line=7),
    "L7 skip": SkipBonus(line=7),
    "L7 done": EndTurn(line=7),
    "L7 run E15.0-E17.0": Run(line=7, route="E15.0-E17.0"),
}


@pytest.mark.parametrize("text", sorted(EXAMPLES))
def test_notation_examples_round_trip(text: str) -> None:
    action = GAME.parse_action(text)
    assert action == EXAMPLES[text]
    assert GAME.format_action(action) == text


def test_entity_actions_ignore_the_seat_in_equality() -> None:
    assert Dividend(company="WT", amount=10, player=3) == Dividend(company="WT", amount=10)


@pytest.mark.parametrize(
    "text",
    ["", "P1", "P1 fly", "P1 bid KK", "P1 bid KK x", "X1 pay", "WT buy blue", "L7 lay E17 57",
     "L7 lay E17 57 r9", "L7 station E17", "WT auction 7 20", "P1 sell WT", "WT arrange"],
)
def test_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


def test_every_listed_action_round_trips_in_real_games() -> None:
    for players, seed in ((2, 3), (4, 5)):
        s = make(players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_over() and steps < 400:
            for a in s.legal_actions():
                assert GAME.parse_action(GAME.format_action(a)) == a
            s.apply(policy(s, s.current_players()[0], rng))
            steps += 1
