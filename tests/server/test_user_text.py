"""Every name a person gives the site passes one check (``tramways.server.text``): the seat
names and ``settings.names`` alike, through the API (the pages call the same service)."""

from __future__ import annotations

import pytest

from tramways.server.text import NAME_LENGTH, TextRefused, clean_name

pytest.importorskip("fastapi")

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


@pytest.mark.parametrize("value, expected", [
    ("  Anna ", "Anna"),
    ("", None),
    ("   ", None),
    (None, None),
    ("Ma\u0301ria", "Mária"),  # NFC: the combining accent joins its letter
    ("x" * NAME_LENGTH, "x" * NAME_LENGTH),
])
def test_a_name_is_normalised_and_trimmed(value, expected):
    assert clean_name(value) == expected


@pytest.mark.parametrize("value", [
    "x" * (NAME_LENGTH + 1),
    "x" * 20_000,
    f"Anna{RLO}gnirts",
    "Anna\nBob",
    "zero\u200bwidth",
    "bell\x07",
    7,
    ["Anna"],
])
def test_a_name_that_breaks_a_rule_is_refused(value):
    with pytest.raises(TextRefused):
        clean_name(value)


def _create(client, **body):
    return client.post("/api/games", json={"game": "1840", "settings": {},
                                           "seats": ["human", "human"], **body})


@pytest.mark.parametrize("names", [
    ["x" * 20_000, "Bob"],
    [f"Eve{RLO}", "Bob"],
    ["Anna", ""],
    "Anna",
])
def test_settings_names_obey_the_same_rules_as_seat_names(sqlite_client, names):
    r = _create(sqlite_client, settings={"names": names})
    assert r.status_code == 422
    assert r.json()["error"] == "bad_names"
    assert len(r.content) < 1000



def test_settings_names_are_stored_cleaned(sqlite_client):
    r = _create(sqlite_client, settings={"names": ["  Anna ", "Ma\u0301ria"]})
    assert r.status_code == 201, r.text
    assert [s["name"] for s in r.json()["seats"]] == ["Anna", "Mária"]


def test_seat_names_with_a_direction_override_are_refused(sqlite_client):
    r = _create(sqlite_client, names=[f"Eve{RLO}", None])
    assert r.status_code == 422 and r.json()["error"] == "bad_names"
