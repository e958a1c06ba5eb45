"""Issue 26: a person picks easy / normal / strong for a bot seat in the lobby, named in the
page's language, for both games."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")

FORM = {"content-type": "application/x-www-form-urlencoded"}
LEVELS = ("bot:easy", "bot:normal", "bot:strong")


def test_lobby_offers_the_three_levels_for_every_seat_in_its_language(sqlite_client) -> None:
    en = sqlite_client.get("/?lang=en").text
    for level in LEVELS:  # the Trambahn seats and the six 1840 seats
        assert len(re.findall(f'<option value="{level}"', en)) == 2 + 6
    assert "computer: easy" in en and "computer: strong" in en
    de = sqlite_client.get("/?lang=de").text
    assert "Computer: leicht" in de and "Computer: stark" in de
    ru = sqlite_client.get("/?lang=ru").text
    assert "компьютер: средний" in ru
    es = sqlite_client.get("/?lang=es").text
    assert "ordenador: fácil" in es


def test_a_game_of_each_kind_starts_with_a_level_bot_in_a_seat(sqlite_client) -> None:
    page = sqlite_client.post("/new", content=urlencode(
        {"seat1": "human", "seat2": "bot:easy", "name1": "Anna"}), headers=FORM)
    assert page.status_code == 200 and "computer: easy" in page.text
    page = sqlite_client.post("/new1840", content=urlencode(
        {"players": 3, "map": "full", "seat1": "human", "seat2": "bot:normal",
         "seat3": "bot:strong", "name1": "Anna"}), headers=FORM)
    assert page.status_code == 200
    assert "computer: normal" in page.text and "computer: strong" in page.text


def test_an_unknown_level_is_refused(sqlite_client) -> None:
    page = sqlite_client.post("/new", content=urlencode(
        {"seat1": "human", "seat2": "bot:genius"}), headers=FORM)
    assert page.status_code >= 400
