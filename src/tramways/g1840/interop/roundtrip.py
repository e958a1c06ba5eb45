"""The round trip of an 1840 game through the site's format, and the site's engine as a
separate program (docs/interop.md).

* :func:`same_game` - whether a record read back from its export is the same game: the same
  actions, where our ``LN run`` may come back as the route our engine chose and a Stadtbahn
  bonus our ``LN run`` declined comes back as ``LN skip`` (the site records the pass), with
  the same position after every action;
* :func:`oracle_dir` / :func:`trace_with_oracle` - run ``ruby oracle.rb`` of the shared oracle
  (``TRAMWAYS_ORACLE`` or ``../shared/oracle`` beside the repository) on an export and read the
  first action the site refused.  The oracle is a test tool: it is called, never imported.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tramways.core.record import GameRecord
from tramways.core.replay import Session


def _is_run(text: str) -> bool:
    return text.startswith("L") and (text.endswith(" run") or " run " in text)


def _figures(session: Session) -> dict[str, Any]:
    from tramways.g1840.interop.figures_view import figures_from_view
    from tramways.g1840.view_types import as_view1840

    return figures_from_view(as_view1840(session.state.view(None)))


def _theirs_only(ours: str, head: str, theirs: list[str], k: int,
                 owner: dict[int, str]) -> bool:
    """Whether the import's next action has no counterpart in ours: the bonus our run (or
    the line's company's return or scrap) declined, recorded by the site as a pass, or the
    site's reassignment that our ``done`` makes by itself (``owner``: line -> company)."""
    if k >= len(theirs):
        return False
    other = theirs[k]
    if other == f"{head} skip" and ours != other and ours.startswith(head + " "):
        return True
    if other.endswith(" skip") and other[1:-5].isdigit() and owner.get(int(other[1:-5])) == head:
        return True  # the bonus our engine ended with the company's return (R-LR-1)
    return (ours == f"{head} done" and k + 1 < len(theirs) and theirs[k + 1] == ours
            and other.startswith(f"{head} arrange "))


def _ours_only(ours: str, head: str, theirs: list[str], k: int) -> bool:
    """Whether our action has no counterpart in the import: a bonus the site's one pass
    declined earlier (before a removal), or arrangements that come back as one (the figures
    are compared at the turn's ``done``)."""
    if k < len(theirs) and theirs[k] == ours:
        return False
    return ours == f"{head} skip" or ours.startswith(f"{head} arrange ")


def _same_action(ours: str, other: str) -> bool:
    """The same action, or a run that came back as the route our engine chose, or
    ``CO scrap C`` as the line's ``CO scrap C LN`` (X-23)."""
    if other == ours or (" scrap " in ours and other.startswith(ours + " L")):
        return True
    return (ours.endswith(" run") and _is_run(other)
            and other.split(" run")[0] == ours.split(" run")[0])


def same_game(original: GameRecord, imported: GameRecord) -> str | None:
    """``None`` when both records are the same game, else the first difference (a run may
    come back as the route our engine chose, ``CO scrap C`` as the line's ``CO scrap C LN``,
    when both lead to the same figures; a declined bonus may come back earlier)."""
    a = Session.from_record(original.model_copy(update={"actions": []}))
    b = Session.from_record(imported.model_copy(update={"actions": []}))
    theirs = list(imported.actions)
    k = 0
    for i, ours in enumerate(original.actions):
        head = ours.split(" ", 1)[0]
        while _theirs_only(ours, head, theirs, k, getattr(a.state, "line_owner", {})):
            b.play(theirs[k])
            k += 1
        if _ours_only(ours, head, theirs, k):
            a.play(ours)
            continue
        if k >= len(theirs):
            return f"action {i} ({ours!r}): the import ends"
        other = theirs[k]
        if not _same_action(ours, other):
            return f"action {i}: {ours!r}, the import has {other!r}"
        a.play(ours)
        b.play(other)
        k += 1
        if (other != ours or ours.endswith(" done")) and _figures(a) != _figures(b):
            return f"action {i}: {ours!r} and {other!r} lead to different figures"
    if k != len(theirs):
        return f"the import has {len(theirs) - k} more actions ({theirs[k]!r})"
    if _figures(a) != _figures(b):
        return "the final figures differ"
    return None


def oracle_dir() -> Path | None:
    """The shared oracle's folder, if it and ``ruby`` are here."""
    if shutil.which("ruby") is None:
        return None
    env = os.environ.get("TRAMWAYS_ORACLE")
    candidates = [Path(env)] if env else []
    here = Path(__file__).resolve()
    candidates += [p / "shared" / "oracle" for p in here.parents]
    for c in candidates:
        if (c / "oracle.rb").is_file():
            return c
    return None


@dataclass(frozen=True)
class OracleRun:
    """What the site's engine made of an export: the trace file and the first refusal."""

    trace: Path
    error: dict[str, Any] | None
    finished: bool


def trace_with_oracle(export_path: Path, out_dir: Path, oracle: Path) -> OracleRun:
    """Load and trace an export in the site's engine (``ruby oracle.rb``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["ruby", "oracle.rb", str(out_dir.resolve()), str(export_path.resolve())],
                   cwd=oracle, check=True, capture_output=True, timeout=600)
    stem = export_path.name.removesuffix(".json")
    summary = json.loads((out_dir / f"{stem}.summary.json").read_text(encoding="utf-8"))
    return OracleRun(trace=out_dir / f"{stem}.trace.jsonl", error=summary.get("error"),
                     finished=bool(summary.get("finished")))
