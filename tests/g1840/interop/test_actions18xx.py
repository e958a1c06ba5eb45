"""The catalogue of 18xx.games action types (actions18xx)."""

from __future__ import annotations

import json

import pytest

from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.log18xx import load_export

NOT_IN_ORACLE = {"sell_shares", "sell_company", "message", "end_game", "redo"}


def test_every_oracle_action_and_auto_action_is_catalogued(oracle_dir):
    exp = load_export(oracle_dir / "2player.json")
    types = {raw.type for raw in exp.actions}
    auto_types = {a.TYPE for raw in exp.actions for a in raw.auto}
    assert types - set(a18.CATALOGUE) == {"program_share_pass"}
    assert auto_types == {"run_routes", "reassign_trains", "pass"}
    # real records' programs also buy shares and disable themselves (issue 22, item 1)
    assert a18.AUTO_ACTION_TYPES == auto_types | {"buy_shares", "program_disable"}
    assert set(a18.CATALOGUE) - types == NOT_IN_ORACLE


def test_oracle_actions_parse_to_their_values(oracle_dir):
    raw = json.loads((oracle_dir / "2player.json").read_text("utf-8"))["actions"]

    def parsed(i):
        return a18.parse_action(raw[i], f"action {i}")

    assert parsed(0) == a18.Bid("2006", "player", price=20, company="KK")
    assert parsed(22) == a18.Bid("WT", "corporation", price=20, corporation="4")
    assert parsed(11) == a18.Choose("621", "player", choice="0")
    assert parsed(12) == a18.Par("621", "player", corporation="GWStStB", price=70, row=4,
                                 column=2)
    assert parsed(14) == a18.BuyShares("621", "player", corporation="WT", shares=("WT_1",),
                                       percent=10)
    buy = parsed(17)
    assert buy == a18.BuyTrain("WT", "corporation", train="O1-0", price=300, variant="O1")
    assert buy.colour == "orange"
    assert parsed(21) == a18.Merge("WT", "corporation", corporation="4")
    tile = parsed(28)
    assert tile == a18.LayTile("4", "corporation", hex="H28", tile="6-0", rotation=4)
    assert tile.tile_name == "6"
    token = parsed(109)
    assert (token.tile_piece, token.city_index, token.slot) == ("619-1", 0, 1)
    assert parsed(93) == a18.RemoveToken("5", "corporation", city="D22-0-0", slot=0)
    run = parsed(32)
    assert run.routes[0].revenue == 50 and run.routes[0].hexes == ("I27", "H28", "H30")
    assert run.routes[0].nodes == ("I27-0", "H28-0", "H30-0")
    assert parsed(50) == a18.Dividend("WT", "corporation", kind="variable", amount=140)
    assert parsed(54).assignments == (a18.Assignment("O1-0", "4"), a18.Assignment("O1-2", "WT"))
    assert parsed(88) == a18.BuyCompany("4", "corporation", company="KK", price=20)
    assert parsed(112) == a18.ChooseAbility("HB", "company", choice="sell")
    assert parsed(278) == a18.ScrapTrain("15", "corporation", train="Y1-0")
    assert parsed(331) == a18.Program("2006", "player", program="share_pass")
    assert parsed(74) == a18.Undo("2", "corporation", action_id=72)


@pytest.mark.parametrize(
    ("train", "colour"),
    [("Y1-0", "yellow"), ("O2", "orange"), ("R1-2", "red"), ("Pi3", "pink"),
     ("Pu1-1", "purple"), ("City-0", None)],
)
def test_viii3_train_names_map_to_tram_colours(train, colour):
    assert a18.train_colour(train) == colour


def test_share_ids_with_spaces_and_ampersands():
    action = a18.parse_action(
        {"type": "sell_shares", "entity": 1, "entity_type": "player", "id": 3,
         "shares": ["DT K&C_1", "DT K&C_2"], "percent": 20}, "action 0")
    assert action == a18.SellShares("1", "player", corporation="DT K&C",
                                    shares=("DT K&C_1", "DT K&C_2"), percent=20)


def test_known_type():
    assert a18.known_type("lay_tile") and a18.known_type("program_share_pass")
    assert not a18.known_type("teleport")
