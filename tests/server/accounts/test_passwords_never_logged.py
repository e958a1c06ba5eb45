"""Passwords are never logged and never returned (issue 24, quality bar): a real
``tramways serve --access-log`` process signs up, refuses a wrong password, logs in (the
password also sent where it does not belong: in the query string) and answers the account's
pages; its whole error output (the access log and the app's log lines) and every answer are
searched for the passwords, in clear and as their argon2 hashes."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.server.accounts.helpers import uniq
from tests.server.conftest import start_server, stop_server

PASSWORD = "Pa55word-in-the-clear"
WRONG = "Wr0ng-guess-in-the-clear"


def _csrf(client: httpx.Client, page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def test_passwords_are_never_in_a_log_line_nor_an_answer(tmp_path: Path) -> None:
    errors = tmp_path / "stderr.log"
    name = uniq("Logan")
    answers: list[str] = []
    with errors.open("wb") as err:
        proc, base = start_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", None, "--access-log",
                                  stderr=err)
        try:
            with httpx.Client(base_url=base) as c:
                r = c.post("/account/signup", data={"csrf": _csrf(c, "/account/signup"),
                                                    "name": name, "password": PASSWORD})
                assert r.status_code == 303, r.text
                answers += [c.get("/api/account").text, c.get("/account").text,
                            c.get(f"/u/{name}").text]
            with httpx.Client(base_url=base) as c:
                token = _csrf(c, "/account/signup")
                taken = c.post("/account/signup", data={"csrf": token, "name": name,
                                                        "password": PASSWORD})
                assert taken.status_code == 409 or "taken" in taken.text
                wrong = c.post("/account/login", data={"csrf": token, "name": name,
                                                       "password": WRONG})
                assert wrong.status_code == 401
                right = c.post(f"/account/login?password={PASSWORD}",
                               data={"csrf": token, "name": name, "password": PASSWORD})
                assert right.status_code == 303
                answers += [taken.text, wrong.text, right.text, c.get("/api/account").text,
                            c.get("/mine").text]
        finally:
            stop_server(proc)
    logged = errors.read_text()
    assert '"route":"/account/login"' in logged  # the access log was on: the search means something
    for text in (logged, *answers):
        assert PASSWORD not in text and WRONG not in text
        assert "$argon2" not in text  # nor the stored hash
