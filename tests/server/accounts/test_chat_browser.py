"""The chat under a game's table in a real browser (Playwright driving Debian's chromium).

The messages written before a page opens arrive once, in the first frames of the game's
live socket, which ``table.js`` opens and hands to ``chat.js`` as events.  ``chat.js`` must be
listening by then: the browser story (``test_browser.py``) once found no message on a page
of a finished game opened on a loaded machine, the socket's frame having come before
``chat.js`` was loaded."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
playwright = pytest.importorskip("playwright.sync_api")

from tests.server.conftest import start_server, stop_server  # noqa: E402
from tests.server.web.chromium import DESKTOP, needs_chromium  # noqa: E402

pytestmark = needs_chromium
WAIT = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("chat_browser")
    proc, base = start_server(f"sqlite:///{folder / 'site.sqlite3'}")
    try:
        yield base
    finally:
        stop_server(proc)


def _post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_messages_written_before_the_page_opened_show_when_chat_js_loads_late(
        browser: Any, server: str, tmp_path: Path) -> None:
    created = _post(server, "/api/games", {"game": "trambahn", "seats": ["human", "human"],
                                           "names": ["Ann", "Bob"]})
    gid, token = created["id"], created["seats"][0]["token"]
    _post(server, f"/api/games/{gid}/chat", {"text": "Servus"}, token)
    _post(server, f"/api/games/{gid}/chat", {"text": "Grüß Gott"}, created["seats"][1]["token"])
    page = browser.new_context(viewport=DESKTOP).new_page()

    def late(route: Any) -> None:  # as a loaded server may serve it
        time.sleep(2)
        route.continue_()

    page.route("**/static/chat.js", late)
    page.goto(f"{server}/g/{gid}?token={token}")
    messages = page.locator("#chat .messages li")
    playwright.expect(messages).to_have_count(2, timeout=WAIT)
    playwright.expect(messages.nth(0).locator(".text")).to_have_text("Servus")
    playwright.expect(messages.nth(1)).to_contain_text("Bob")
