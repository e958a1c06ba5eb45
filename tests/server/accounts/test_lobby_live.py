"""The lobby's live socket (``WS /api/lobby/live``) never misses a change of the open tables.

On SQLite a process learns of a table changed through another process only by its sockets'
poll (every 3 s), which compares the lobby's mark with the one it last saw.  The mark was the
count of open tables and of their taken seats: a table is ``starting`` while its game is made
and ``started`` after, both outside those counts, so a poll that looked in between saw the
final counts already, and the table's page never learnt that the game had started (the
browser story in ``test_browser.py`` waited for Anna's "Play" in vain, once, on a loaded
machine).  A page also carries the mark it was read with, so a change made before its socket
first looks is sent at once."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.server.accounts.helpers import (
    make_app_client,
    open_table,
    other_client,
    post_form,
    signup,
    uniq,
)

MARK = re.compile(r'data-mark="([0-9a-f]+)"')


def _open(client, seats: str = "2") -> str:
    return open_table(client, game="1840" if seats != "2" else "trambahn", seats=seats)


def test_a_poll_that_looked_while_the_table_was_starting_sees_the_start(db_url: str) -> None:
    with make_app_client(db_url) as anna:
        bert = other_client(anna)
        signup(anna, uniq("Anna"))
        signup(bert, uniq("Bert"))
        table = _open(anna)
        accounts = anna.app.state.accounts
        seen: list[str] = []
        begin: Callable[[str], bool] = accounts.begin_start

        def begin_start(open_id: str) -> bool:
            won = begin(open_id)
            seen.append(accounts.lobby_mark())  # what a poll reads while the game is made
            return won

        accounts.begin_start = begin_start
        assert post_form(bert, f"/lobby/{table}/join").status_code == 303
        assert accounts.open_game(table).status == "started"
        assert len(seen) == 1
        assert seen[0] != accounts.lobby_mark()
        # a socket that last saw the "starting" mark is told of the change
        with anna.websocket_connect(f"/api/lobby/live?since={seen[0]}") as ws:
            assert ws.receive_json() == {"lobby": "changed"}


def test_a_player_moving_to_another_table_changes_the_mark(db_url: str) -> None:
    with make_app_client(db_url) as anna:
        bert, carl = other_client(anna), other_client(anna)
        for client, name in ((anna, "Anna"), (bert, "Bert"), (carl, "Carl")):
            signup(client, uniq(name))
        first, second = _open(anna, "3"), _open(carl, "3")
        assert post_form(bert, f"/lobby/{first}/join").status_code == 303
        accounts = anna.app.state.accounts
        before = accounts.lobby_mark()
        assert post_form(bert, f"/lobby/{first}/leave").status_code == 303
        assert post_form(bert, f"/lobby/{second}/join").status_code == 303
        # as many tables open and seats taken as before, yet the pages show other players
        assert accounts.lobby_mark() != before


def test_a_table_opened_between_a_page_and_its_socket_is_sent_at_once(sqlite_url: str) -> None:
    with make_app_client(sqlite_url) as anna:
        bert = other_client(anna)
        signup(anna, uniq("Anna"))
        signup(bert, uniq("Bert"))
        accounts = anna.app.state.accounts
        found = MARK.search(anna.get("/lobby").text)
        assert found and found.group(1) == accounts.lobby_mark()
        page_mark = found.group(1)
        table = _open(bert)  # after Anna's page was read, before her socket looks
        table_page = MARK.search(anna.get(f"/lobby/{table}").text)
        assert table_page and table_page.group(1) == accounts.lobby_mark() != page_mark
        with anna.websocket_connect(f"/api/lobby/live?since={page_mark}") as ws:
            assert ws.receive_json() == {"lobby": "changed"}
