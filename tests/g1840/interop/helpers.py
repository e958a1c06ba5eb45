"""Small synthetic 18xx.games exports for the interop tests."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from tramways.g1840.interop.trace import Trace, read_trace

P1, P2 = 11, 22


def action(ident: int, type_: str, entity: Any = P1, entity_type: str = "player",
           **fields: Any) -> dict[str, Any]:
    return {"type": type_, "entity": entity, "entity_type": entity_type, "id": ident, **fields}


def export(actions: list[dict[str, Any]] | None = None, **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": 99,
        "title": "1840",
        "players": [{"id": P1, "name": "Ann"}, {"id": P2, "name": "Bob"}],
        "settings": {"seed": 7, "optional_rules": []},
        "status": "active",
        "actions": copy.deepcopy(actions or []),
    }
    data.update(top)
    return data


@functools.cache
def cached_trace(path: Path) -> Trace:
    """The oracle trace, read once per test run (it is 2.5 MB)."""
    return read_trace(path)
