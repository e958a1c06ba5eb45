"""PostgreSQL: a move written in one statement (one round trip), not seven.

A move's write is the compare-and-set of ``games`` (its ``rev`` and ``n``), the row of
``actions``, the move's lines of ``log`` and the ``NOTIFY`` that tells every server process
(:class:`~tramways.server.rows.Written`).  Written as separate statements in a transaction
that is a ``BEGIN``, four statements and a ``COMMIT``: seven trips to the database through
SQLAlchemy and psycopg, a fifth of the server's CPU a move in a profile.  Here the four are
one statement with data-modifying ``WITH`` clauses, run in autocommit: a single statement is
a transaction of its own, so the write is as atomic as before (all of it or nothing), and its
``NOTIFY`` is delivered at its commit as before.

- The inserts and the notification select ``FROM up`` (the updated row): when the
  compare-and-set matched no row (another writer was first) nothing is inserted, nothing is
  announced, and the statement answers ``done = 0``: :class:`~tramways.server.rows.Conflict`.
- A move number already written (the unique ``(game_id, seq)`` of ``actions``) fails the
  whole statement with an ``IntegrityError``, as before: a ``Conflict`` too.
- The log's lines keep their order (``unnest ... WITH ORDINALITY``, inserted in that order:
  the ids grow with it); ``last`` is the id of the last one (``NULL``: no line), the same
  figure the move's ``NOTIFY`` carries (``LOG_ID``).

SQLite keeps the transaction of separate statements (:meth:`Store.append`): there a statement
is a call into the library, not a trip over a socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from tramways.server.database import NOTIFY_CHANNEL
from tramways.server.rows import ActionRow, Written

APPEND = sa.text(f"""
WITH up AS (
  UPDATE games
  SET n = CAST(:new_n AS integer), rev = CAST(:new_rev AS integer),
      status = CAST(:status AS varchar), updated = CAST(:stamp AS timestamptz),
      finished = CAST(:done AS timestamptz)
  WHERE id = CAST(:gid AS varchar) AND rev = CAST(:old_rev AS integer)
    AND n = CAST(:seq AS integer)
  RETURNING id
), act AS (
  INSERT INTO actions (game_id, seq, notation, seat, reveals, created)
  SELECT up.id, CAST(:seq AS integer), CAST(:notation AS text), CAST(:seat AS integer),
         CAST(:reveals AS boolean), CAST(:stamp AS timestamptz)
  FROM up
  RETURNING seq
), lines AS (
  INSERT INTO log (game_id, seq, text, created)
  SELECT up.id, CAST(:seq AS integer), t.line, CAST(:stamp AS timestamptz)
  FROM up, unnest(CAST(:lines AS text[])) WITH ORDINALITY AS t(line, k)
  ORDER BY t.k
  RETURNING id
), last AS (
  SELECT max(id) AS id FROM lines
)
SELECT (SELECT count(*) FROM up) AS done,
       (SELECT count(*) FROM act) AS acted,
       (SELECT id FROM last) AS last,
       (SELECT pg_notify('{NOTIFY_CHANNEL}',
          CASE WHEN CAST(:whole AS boolean)
          THEN CAST(:head AS text) || ' ' || coalesce(CAST((SELECT id FROM last) AS text), '-')
               || ' ' || CAST(:tail AS text)
          ELSE CAST(:short AS text) END)
        FROM up) AS notified
""")
"""The move's write: ``done`` 1 (written) or 0 (the compare-and-set failed)."""


def parameters(game_id: str, rev: int, action: ActionRow, lines: Sequence[str], status: str,
               stamp: datetime) -> dict[str, Any]:
    """:data:`APPEND`'s parameters, its ``NOTIFY`` payload included: ``head`` and ``tail``
    around the id of the last log line, which only the statement knows (the same text as
    :meth:`Written.payload`; ``short``, without the move, when that would be too long)."""
    seat = "-" if action.seat is None else str(action.seat)
    head = f"{game_id} {rev + 1} {action.seq} {seat} {int(action.reveals)}"
    tail = f"{len(lines)} {action.notation}"
    # the longest the log id can make it: 19 digits
    whole = len(f"{head} {'9' * 19} {tail}".encode()) <= Written.NOTIFY_LIMIT
    return {
        "gid": game_id, "old_rev": rev, "new_rev": rev + 1, "seq": action.seq,
        "new_n": action.seq + 1, "status": status, "stamp": stamp,
        "done": stamp if status == "over" else None, "notation": action.notation,
        "seat": action.seat, "reveals": action.reveals, "lines": list(lines),
        "whole": whole, "head": head, "tail": tail, "short": f"{game_id} {rev + 1}",
    }
