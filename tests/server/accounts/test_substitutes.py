"""A substitute through an invite link (issue 25, item 3; docs/async.md): a late seat (or one
handed to the computer by a vote) goes to whoever opens a one-use link; the old token can no
longer act until its owner takes the seat back, which revokes the substitute; each change is
in the game's log.  The clock is injected (``ManualClock``)."""

from __future__ import annotations

import re

import pytest

from tests.server.accounts.helpers import csrf_of, make_app_client, other_client, signup, uniq
from tests.server.helpers import auth

pytest.importorskip("fastapi")

from tramways.server.clocks.clock import ManualClock  # noqa: E402

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
def site(db_url: str):
    with make_app_client(db_url, deadline_sweep_seconds=0) as client:
        client.app.state.deadlines.clock = ManualClock()
        yield client


def _game(client) -> tuple[str, str, str]:
    """A Trambahn game of two people on a pace of one hour (Anna, seat 1, acts first: T-R-1)."""
    made = client.post("/api/games", json={"game": "trambahn", "seats": ["human", "human"],
                                           "names": ["Anna", "Boris"]}).json()
    gid, t1, t2 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/pace", json={"hours": 1, "on_deadline": "nothing"},
                    headers=auth(t2))
    assert r.status_code == 200, r.text
    return gid, t1, t2


def _take(browser, link: str):
    page = browser.get(link)
    assert page.status_code == 200 and "Take the seat" in page.text, page.text
    return browser.post(link, data={"csrf": CSRF.search(page.text).group(1)})


def _move(client, gid: str, token: str):
    state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
    return client.post(f"/api/games/{gid}/moves", json={"n": state["n"],
                                                         "action": state["legal"][0]},
                       headers=auth(token))


def _log(client, gid: str) -> str:
    return "\n".join(client.get(f"/api/games/{gid}").json()["log"])


def test_substitute_a_late_seat_goes_to_whoever_opens_the_link_once(site) -> None:
    gid, t1, t2 = _game(site)
    rev = site.get(f"/api/games/{gid}").json()["rev"]
    refusals = [
        (None, {"seat": 1}, 403, "spectator",
         "spectators cannot invite a substitute: use your seat's link"),
        (t2, {"seat": 2}, 422, "own_seat", "that is your own seat"),
        (t2, {"seat": 1}, 422, "not_late", "Anna is not late: a substitute is invited only "
         "after the seat's deadline, or once it was handed to the computer"),
    ]
    for token, body, status, code, message in refusals:
        r = site.post(f"/api/games/{gid}/substitute", json=body,
                      headers=auth(token) if token else {})
        assert (r.status_code, r.json()["error"], r.json()["message"]) == (status, code, message)
    assert site.get(f"/api/games/{gid}").json()["rev"] == rev  # nothing changed
    site.app.state.deadlines.clock.advance(3601)  # Anna's hour passed
    r = site.post(f"/api/games/{gid}/substitute", json={"seat": 1}, headers=auth(t2))
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    assert r.json()["seat"] == 1 and link.startswith(f"/g/{gid}/substitute/")
    stranger = other_client(site)  # anybody, without an account
    r = _take(stranger, link)
    assert r.status_code == 303, r.text
    new = r.headers["location"].split("token=")[1]
    assert new not in (t1, t2)
    assert stranger.get(f"/api/games/{gid}", headers=auth(new)).json()["seat"] == 1
    legal = site.get(f"/api/games/{gid}", headers=auth(new)).json()
    r = site.post(f"/api/games/{gid}/moves", json={"n": legal["n"], "action": legal["legal"][0]},
                  headers=auth(t1))
    assert r.status_code == 403 and r.json()["error"] == "bad_token"  # the old token acts no more
    assert _move(site, gid, new).status_code == 200  # the substitute plays
    assert "Anna's seat goes to a substitute invited by Boris until its owner takes it back" \
        in _log(site, gid)
    again = stranger.post(link, data={"csrf": csrf_of(stranger)})
    assert again.status_code == 410 and again.json()["error"] == "used"
    assert "This invitation was used already" in stranger.get(link).text
    # the owner takes the seat back: the substitute's token stops working
    r = site.post(f"/api/games/{gid}/substitute/take-back", headers=auth(t1))
    assert r.status_code == 200 and r.json() == {"seat": 1}
    assert site.get(f"/api/games/{gid}", headers=auth(t1)).json()["seat"] == 1
    r = site.get(f"/api/games/{gid}", headers=auth(new))
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    assert "Anna takes the seat back from the substitute" in _log(site, gid)
    r = site.post(f"/api/games/{gid}/substitute/take-back", headers=auth(t1))
    assert r.status_code == 422 and r.json()["error"] == "not_substituted"


def test_substitute_a_voted_seat_goes_to_an_account_and_into_its_games(site) -> None:
    gid, t1, t2 = _game(site)
    r = site.post(f"/api/games/{gid}/vote", json={"seat": 1}, headers=auth(t2))
    assert r.json()["handed"] is True  # the only other person voted: the computer plays
    r = site.post(f"/api/games/{gid}/substitute", json={"seat": 1}, headers=auth(t2))
    assert r.status_code == 200, r.text
    carla = other_client(site)
    name = uniq("Carla")
    signup(carla, name)
    r = _take(carla, r.json()["link"])
    assert r.status_code == 303
    token = r.headers["location"].split("token=")[1]
    mine = carla.get("/api/account/games").json()
    assert [(g["id"], g["seat"]) for g in mine] == [(gid, 1)]
    assert mine[0]["link"].endswith(token)  # the account's seat token
    seats = site.get(f"/api/games/{gid}/clocks").json()["seats"]
    assert seats[0]["kind"] == "human" and not seats[0]["handed"]  # a person plays again
    assert f"Anna's seat goes to {name}, a substitute invited by Boris, until" in _log(site, gid)
    r = site.post(f"/api/games/{gid}/substitute/take-back", headers=auth(t1))
    assert r.status_code == 200
    assert carla.get("/api/account/games").json() == []  # revoked


def test_substitute_an_unknown_link_is_not_found(site) -> None:
    gid, _t1, _t2 = _game(site)
    r = site.get(f"/g/{gid}/substitute/nothing-here")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_substitute_the_owner_s_old_link_offers_the_seat_back_on_the_page(site) -> None:
    gid, t1, t2 = _game(site)
    site.app.state.deadlines.clock.advance(3601)
    link = site.post(f"/api/games/{gid}/substitute", json={"seat": 1},
                     headers=auth(t2)).json()["link"]
    assert _take(other_client(site), link).status_code == 303
    page = site.get(f"/g/{gid}?token={t1}&lang=en")  # the owner's old link
    assert page.status_code == 404 and 'action="/g/' + gid + '/take-back"' in page.text
    assert "If a substitute plays your seat now, your link takes it back:" in page.text
    r = site.post(f"/g/{gid}/take-back", data={"token": t1})
    assert r.status_code == 303 and r.headers["location"] == f"/g/{gid}?token={t1}"
    assert site.get(f"/api/games/{gid}", headers=auth(t1)).json()["seat"] == 1
    r = site.post(f"/g/{gid}/take-back", data={"token": t1})  # nothing more to take back
    assert r.status_code == 422 and r.json()["error"] == "not_substituted"
