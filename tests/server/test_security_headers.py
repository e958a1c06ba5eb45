"""Security headers (``tramways.server.headers``) and the API's documentation without a CDN."""

from __future__ import annotations

import re

import pytest

from tests.server.helpers import auth, new_game, token_of

pytest.importorskip("fastapi")


def test_every_page_forbids_framing_foreign_scripts_and_sniffing(sqlite_client):
    for path in ("/", "/api/games/nope", "/static/style.css"):
        r = sqlite_client.get(path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self';" in csp
        assert "frame-ancestors 'none'" in csp and "'unsafe-eval'" not in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
        assert r.headers["x-frame-options"] == "DENY"


def test_no_page_or_answer_with_a_seat_token_is_kept_in_a_cache(sqlite_client):
    created = new_game(sqlite_client, ["human", "human"])
    gid, token = created["id"], token_of(created, 1)
    for r in (sqlite_client.get(f"/g/{gid}?token={token}"),
              sqlite_client.get(f"/api/games/{gid}", headers=auth(token)),
              sqlite_client.get(f"/api/games/{gid}?token={token}"),
              sqlite_client.get(f"/g/{gid}")):
        assert r.status_code == 200
        assert r.headers["cache-control"] == "no-store"
    assert sqlite_client.get("/static/style.css").headers.get("cache-control") != "no-store"


def test_the_pages_run_no_inline_script(sqlite_client):
    created = new_game(sqlite_client, ["human", "bot:rule"])
    for path in ("/", f"/g/{created['id']}?token={token_of(created, 1)}"):
        page = sqlite_client.get(path).text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
        assert scripts and all('src="/static/' in attrs and not body.strip()
                               for attrs, body in scripts)
        assert not re.search(r"\son[a-z]+=", page)  # no inline event handlers


def test_the_api_documentation_loads_nothing_from_another_site(sqlite_client):
    for path in ("/docs", "/redoc"):
        page = sqlite_client.get(path)
        assert page.status_code == 200
        assert "https://" not in page.text and "//cdn" not in page.text
        assert "'unsafe-inline'" in page.headers["content-security-policy"]
        for asset in re.findall(r'(?:src|href)="(/[^"]+)"', page.text):
            assert sqlite_client.get(asset).status_code == 200, asset
    assert "swagger-ui-bundle.js" in sqlite_client.get("/docs").text


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_form_posted_from_another_site_is_refused_and_changes_nothing(sqlite_client, site):
    store = sqlite_client.app.state.store
    form = {"content-type": "application/x-www-form-urlencoded", "sec-fetch-site": site}
    r = sqlite_client.post("/new", content="seat1=human&seat2=bot:rule", headers=form)
    assert r.status_code == 403 and r.json()["error"] == "cross_site"
    created = new_game(sqlite_client, ["human", "human"])
    gid, token = created["id"], token_of(created, 1)
    before = store.rev(gid)
    r = sqlite_client.post(f"/g/{gid}/move", content=f"n=0&action=x&act_token={token}",
                           headers=form)
    assert r.status_code == 403
    assert store.rev(gid) == before


def test_the_sites_own_forms_and_the_api_go_through(sqlite_client):
    own = {"content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin"}
    r = sqlite_client.post("/new", content="seat1=human&seat2=bot:rule", headers=own)
    assert r.status_code == 200
    r = sqlite_client.post("/api/games", json={"game": "trambahn", "settings": {},
                                               "seats": ["human", "human"]},
                           headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 201  # the API carries its token explicitly: no forgery to fear
