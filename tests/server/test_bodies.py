"""A new game is validated by one model (``tramways.server.bodies.NewGame``), whether it comes
as the API's body, the lobby's form or a direct call of the service: the same refusals with
the same codes, and the settings as the game normalises them."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

pytest.importorskip("fastapi")

from tramways.g1840.edition import LATEST  # noqa: E402
from tramways.server.bodies import NewGame  # noqa: E402
from tramways.server.errors import ApiError  # noqa: E402

FORM = {"content-type": "application/x-www-form-urlencoded"}
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE


def test_a_valid_body_holds_the_normalised_settings_and_the_cleaned_names():
    body = NewGame(game="1840", seats=["human", "bot:rule", "human"],
                   names=["  Anna ", None, "Ma\u0301ria"], settings={"small_map": True})
    assert body.names == ["Anna", None, "Mária"]
    assert body.settings == {"players": 3, "small_map": True,
                             "names": ["Anna", "Player 2", "Mária"], "edition": int(LATEST),
                             "programs": True}  # site games have programs (issue 25)


@pytest.mark.parametrize("fields, code, message", [
    ({"game": "chess", "seats": ["human"]}, "bad_game", "unknown game 'chess'"),
    ({"game": "trambahn", "seats": ["human", "human"], "names": ["A", "B", "C"]},
     "bad_names", "more names than seats"),
    ({"game": "trambahn", "seats": ["human", "bot:genius"]}, "bad_seats", "not 'bot:genius'"),
    ({"game": "trambahn", "seats": ["human", "human"], "names": [f"Eve{RLO}", None]},
     "bad_names", "printable"),
    ({"game": "1840", "seats": ["human", "human"], "settings": {"names": ["x" * 20_000, "B"]}},
     "bad_names", "at most 40 characters"),
    ({"game": "1840", "seats": ["human"] * 4, "settings": {"small_map": True}},
     "bad_settings", "small map"),
    ({"game": "1840", "seats": ["human"] * 4, "settings": {"ruleset": "house"}},
     "bad_settings", "ruleset"),
    ({"game": "1840", "seats": ["human"] * 2, "settings": {"players": 3}},
     "bad_seats", "3 players need 3 seats"),
])
def test_the_model_refuses_with_the_services_codes(fields, code, message):
    with pytest.raises(ApiError) as refused:
        NewGame.checked(**fields)
    assert refused.value.status == 422
    assert refused.value.body["error"] == code
    assert message in refused.value.body["message"]


def test_the_api_answers_the_models_refusal_as_it_is(sqlite_client):
    r = sqlite_client.post("/api/games", json={"game": "1840", "seats": ["human"] * 4,
                                               "settings": {"ruleset": "house"}})
    assert r.status_code == 422
    assert set(r.json()) == {"error", "message"} and r.json()["error"] == "bad_settings"
    with pytest.raises(ApiError) as direct:
        NewGame.checked(game="1840", seats=["human"] * 4, settings={"ruleset": "house"})
    assert r.json() == direct.value.body


def test_the_lobby_form_is_refused_by_the_same_model(sqlite_client):
    """The 1840 form posts the API's body: a name the API refuses is refused on the page with
    the API's message, and no game is made."""
    form = {"players": "2", "seat1": "human", "seat2": "bot:rule", "name1": f"Eve{RLO}x"}
    page = sqlite_client.post("/new1840", content=urlencode(form), headers=FORM)
    assert page.status_code == 422
    assert "printable characters" in page.text
    assert sqlite_client.post("/api/games/mine", json={"tokens": []}).json() == []
