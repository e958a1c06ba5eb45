"""The costly reads as the read pool's workers run them (:mod:`tramways.server.readpool`).

Each takes JSON-like data (a payload's ``view``, the payload of a past position) and returns
what the page needs, all picklable: they run in another process.  A refusal of the rules
(``IllegalAction``, ``NotationError``) comes back to the server as the same exception.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from tramways.g1840.analysis import lay_previews
from tramways.g1840.view_types import View1840
from tramways.server.web import g1840_table
from tramways.server.web.i18n import environment, languages


def board(view: dict[str, Any], line: int | None, lay: tuple[str, str, int] | None,
          claimed: str | None = None) -> tuple[str, Any]:
    """The board SVG and the line's run: after ``lay`` (the preview of a tile lay), or along
    the ``claimed`` route (IX.2, IX.7: checked as the engine checks it)."""
    return g1840_table.board_svg(View1840.from_json(view), line, lay, None, claimed)


def previews(view: dict[str, Any], line: int, lays: list[tuple[str, str, int]]
             ) -> dict[str, int | None]:
    """One hex's lays and the change each makes to the line's best run, by notation."""
    found = lay_previews(View1840.from_json(view), line, lays)
    return {f"L{line} lay {h} {t} r{r}": d for (h, t, r), d in found.items()}


def table(state: dict[str, Any]) -> dict[str, Any]:
    """The 1840 table's model (:func:`g1840_table.table_model`) of a payload."""
    return g1840_table.table_model(state)


@dataclass(frozen=True)
class AtQuery:
    """The query of this page's seat tokens at another position (``q_at(k)`` in the
    templates): ``token=...&at=k``."""

    tokens: tuple[str, ...]

    def __call__(self, k: int) -> str:
        return urlencode([*(("token", t) for t in self.tokens), ("at", k)])


def table_html(state: dict[str, Any], lang: str, context: dict[str, Any]) -> str:
    """The 1840 table of a past position as HTML (the ``g1840.html`` fragment in ``lang``):
    its model and its template, both some 10-100 ms for a long game.  ``context``: the page's
    own (picklable) values (the tokens, the position's number, ``q_at``...)."""
    model = g1840_table.table_model(state)
    template = environment(lang).get_template("g1840.html")
    return template.render(request=None, lang_url=None, **{**context, "g": model})


def warm() -> int:
    """Compile every template of the pages in every language (a worker's first read, or the
    server's first page, then waits for none); this process's id."""
    import os

    for lang in languages():
        env = environment(lang)
        for name in env.list_templates(extensions=["html"]):
            env.get_template(name)
    return os.getpid()
