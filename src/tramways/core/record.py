"""Game records: the JSON file that *is* the game.

``{game, version, settings, seed, setup, actions, meta}``.  ``actions`` is the list of actions
in the game's text notation.  Loading validates the shape (with pydantic) and refuses a
malformed record with a :class:`~tramways.core.errors.RecordError` naming what is wrong.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tramways.core.errors import RecordError


class GameRecord(BaseModel):
    """A whole game: settings, seed, set-up (every random outcome) and actions."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(min_length=1)
    version: int = Field(ge=1)
    settings: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    actions: list[str] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """Validate parsed JSON; raise ``RecordError`` with every problem named."""
        if not isinstance(data, dict):
            raise RecordError("record: expected a JSON object")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'record'}: {err['msg']}"
                for err in exc.errors()
            )
            raise RecordError(f"record: {problems}") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record: not JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_data(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError(f"{path}: no such file") from None
        except OSError as exc:
            raise RecordError(f"{path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path}: not UTF-8 text") from None
        return cls.from_json(text)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: a crash never leaves a half-written record."""
        target = Path(path)
        fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(self.to_json())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
