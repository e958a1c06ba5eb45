"""The structured access log (server.accesslog): one JSON line per request, by route, with
no secret in it (issue 24, operations: "structured access logs without tokens")."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from tramways.server.accesslog import LOGGER
from tramways.server.app import ServerSettings, create_app


@pytest.fixture
def lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    caplog.set_level(logging.INFO, logger=LOGGER.name)
    out: list[dict[str, object]] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            out.append(json.loads(record.getMessage()))

    handler = Collect()
    LOGGER.addHandler(handler)
    yield out
    LOGGER.removeHandler(handler)


def test_access_log_names_routes_and_never_a_token(tmp_path, lines) -> None:
    app = create_app(ServerSettings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                                    resume_bots=False))
    with TestClient(app) as client:
        made = client.post("/api/games", json={"game": "trambahn",
                                               "seats": ["human", "human"]}).json()
        gid, token = made["id"], made["seats"][0]["token"]
        assert client.get(f"/api/games/{gid}?token={token}").status_code == 200
        client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
        client.get("/account/reset/7/1999999999/deadbeefcafe")
        client.get("/no/such/page?secret=s3cr3t")
    text = json.dumps(lines)
    assert token not in text and "deadbeefcafe" not in text and "s3cr3t" not in text
    read = [line for line in lines if line["route"] == "/api/games/{game_id}"]
    assert len(read) == 2
    assert read[0]["game"] == gid and read[0]["query"] == ["token"]
    assert read[0]["status"] == 200 and read[0]["method"] == "GET" and read[0]["type"] == "http"
    assert isinstance(read[0]["ms"], float)
    assert any(line["route"] == "/account/reset/{account_id}/{expiry}/{mac}" for line in lines)
    unknown = [line for line in lines if line["route"] is None]
    assert unknown and unknown[-1]["status"] == 404 and unknown[-1]["query"] == ["secret"]


def test_access_log_off_writes_nothing(tmp_path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER.name)
    app = create_app(ServerSettings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                                    resume_bots=False))
    with TestClient(app) as client:
        client.get("/healthz")
    assert not [r for r in caplog.records if r.name == LOGGER.name]
