"""Traces of 18xx.games replays, as comparable figures, and the comparator.

A trace (``NAME.trace.jsonl``, reference/1840/oracle/TRACE_FORMAT.md) has a header line and one
line per export action; a processed action carries the site's whole state after it.
:func:`read_trace` turns every state into **figures**: a flat ``dict`` path -> value that
names only what the rules define, in our vocabulary, so that our engine's side is produced by a
small adapter from our state's view.

Figure paths (values are ints, strings, ``None`` or sorted lists):

===================================  ========================================================
``round``                            ``PRE``, ``SR1``, ``CR1``, ``LR1a`` ... ``CR6``, ``End``
``player:NAME.cash``                 int
``player:NAME.loans``                int (number of 100 loans)
``player:NAME.value``                int (R-END-1 wealth)
``player:NAME.shares.CO``            int percent; only for holdings above 0
``player:NAME.privates``             sorted private ids (``KK``)
``company:CO.cash``                  int (tram companies, our ids: ``WT``, ``GW``, ``DT``...)
``company:CO.share_price``           int
``company:CO.share_cell``            ``"ROW,COLUMN"`` of the share-price chart (row 0 on top)
``company:CO.unsold``                int percent still with the bank
``company:CO.pool``                  int percent in the share pool (only above 0)
``company:CO.lines``                 sorted line numbers
``company:CO.trams``                 sorted colours of trams not on a line
``company:CO.fleet``                 sorted colours of all its trams (on lines or not)
``company:CO.privates``              sorted private ids
``stadtbahn:S.share_price``          int; also ``share_cell``, ``unsold``, ``pool``
``stadtbahn:S.markers``              sorted hexes of its station markers
``line:N.company``                   owning tram company or ``None``
``line:N.tram``                      colour of its tram or ``None``
``line:N.markers``                   sorted hexes of its station markers
``lines.display``                    sorted line numbers offered in the next line auction
                                     (the site keeps lines removed by R-CR-8 in its list;
                                     they are left out)
``private:P.owner``                  ``player:NAME``, ``company:CO``, ``closed`` or ``None``
``tile:HEX``                         ``"TILE@ROTATION"`` for every hex whose tile was laid
===================================  ========================================================

Lines and tram companies appear once they are in the game; a line removed from the game
(R-CR-8) disappears.  A tile's rotation is the site's 0-5 (our edge numbering is the same,
reference/1840/README.md).
"""

from __future__ import annotations

import fnmatch
import gzip
import json
import os
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tramways.g1840.interop.actions18xx import train_colour
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.setup18xx import ENGINE_COMPANY_ID
from tramways.g1840.view_types import View1840

Figures = dict[str, Any]
"""A flat mapping figure path -> value (see the module docstring)."""

ROUND_LETTERS = "abc"
MAX_LINES = 3
"""A tram company owns at most three lines (IV.3)."""


# ------------------------------------------------------------------------------ reading


@dataclass(frozen=True)
class TraceHeader:
    """The header line: game, players (site id -> name), settings and the initial figures."""

    game_id: Any
    players: tuple[tuple[str, str], ...]
    settings: dict[str, Any]
    num_actions: int
    engine_commit: str | None
    initial_map: dict[str, tuple[str, int]]
    initial: Figures


@dataclass(frozen=True)
class TraceEntry:
    """One export action as the site replayed it; ``figures`` only when ``processed``."""

    index: int
    id: int | None
    type: str
    entity: str | None
    processed: bool
    skip_reason: str | None
    auto_actions: tuple[str, ...]
    log: tuple[int, int]
    figures: Figures | None = field(default=None, compare=False)
    raw_state: dict[str, Any] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Trace:
    header: TraceHeader
    entries: tuple[TraceEntry, ...]

    def processed(self) -> Iterator[TraceEntry]:
        return (e for e in self.entries if e.processed)


def _json_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    try:
        if str(path).endswith(".gz"):
            fh: IO[str] = gzip.open(path, "rt", encoding="utf-8")
        else:
            fh = Path(path).open(encoding="utf-8")
    except FileNotFoundError:
        raise ImportError18xx(f"{path}: no such file") from None
    except OSError as exc:
        raise ImportError18xx(f"{path}: {exc.strerror}") from None
    with fh:
        try:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    yield number, json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ImportError18xx(f"{path}: line {number} is not JSON ({exc.msg})") from None
        except UnicodeDecodeError:
            raise ImportError18xx(f"{path}: not UTF-8 text") from None
        except (OSError, EOFError, zlib.error) as exc:
            raise ImportError18xx(f"{path}: not a readable gzip file ({exc})") from None


def read_trace(path: str | os.PathLike[str], keep_raw: bool = False) -> Trace:
    """Read a trace file into figures per processed action (``ImportError18xx`` if bad)."""
    lines = _json_lines(path)
    first = next(lines, None)
    if first is None or not isinstance(first[1], dict) or first[1].get("kind") != "header":
        raise ImportError18xx(f"{path}: line 1 is not a trace header")
    head = first[1]
    try:
        players = tuple((str(p["id"]), str(p["name"])) for p in head["players"])
        initial_map = {h: (str(t[0]), int(t[1])) for h, t in head["initial_map"].items()}
        header = TraceHeader(
            game_id=head.get("game_id"),
            players=players,
            settings=dict(head.get("settings") or {}),
            num_actions=int(head["num_actions"]),
            engine_commit=head.get("engine_commit"),
            initial_map=initial_map,
            initial=figures_from_state(head["initial_state"], dict(players)),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ImportError18xx(f"{path}: bad trace header ({exc!r})") from None
    names = dict(players)
    entries = []
    for number, data in lines:
        if not isinstance(data, dict) or data.get("kind") != "action":
            raise ImportError18xx(f"{path}: line {number} is not an action line")
        try:
            processed = bool(data["processed"])
            state = data.get("state") if processed else None
            entries.append(TraceEntry(
                index=int(data["index"]),
                id=data.get("id"),
                type=str(data["type"]),
                entity=None if data.get("entity") is None else str(data["entity"]),
                processed=processed,
                skip_reason=data.get("skip_reason"),
                auto_actions=tuple(data.get("auto_actions") or ()),
                log=(int(data["log"][0]), int(data["log"][1])),
                figures=figures_from_state(state, names) if state is not None else None,
                raw_state=state if keep_raw else None,
            ))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ImportError18xx(f"{path}: line {number}: bad action line ({exc!r})") from None
    if len(entries) != header.num_actions:
        raise ImportError18xx(
            f"{path}: {len(entries)} action lines, the header announces {header.num_actions}")
    return Trace(header=header, entries=tuple(entries))


def read_log(path: str | os.PathLike[str]) -> list[str]:
    """The game log of a trace: ``NAME.log.jsonl`` (``message`` of each line) or a text log."""
    if str(path).endswith(".jsonl"):
        return [str(data.get("message", "")) for _, data in _json_lines(path)]
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ImportError18xx(f"{path}: {exc.strerror}") from None


def log_path_for(trace_path: str | os.PathLike[str]) -> Path | None:
    """The ``NAME.log.jsonl`` (or ``NAME.log.txt``) beside ``NAME.trace.jsonl``, if any."""
    p = Path(trace_path)
    stem = p.name.removesuffix(".jsonl").removesuffix(".trace")
    for suffix in (".log.jsonl", ".log.txt"):
        candidate = p.with_name(stem + suffix)
        if candidate.is_file():
            return candidate
    return None


# ------------------------------------------------------------------------------ figures


def round_name(state: Mapping[str, Any]) -> str:
    """Our Round Bar name (V) of the site's round: ``PRE``, ``SR2``, ``CR3``, ``LR5c``, ``End``."""
    game = state["game"]
    rnd = state["round"]
    if game.get("finished"):
        return "End"
    name = rnd["name"]
    if name in ("Auction Round", "Choose"):
        return "PRE"
    if name == "Stock Round":
        return f"SR{rnd['turn']}"
    if name == "Company Round":
        return f"CR{game['cr_counter']}"
    if name == "Line Round":
        return f"LR{rnd['turn']}{ROUND_LETTERS[int(rnd['round_num']) - 1]}"
    raise ValueError(f"unknown round {name!r}")


def _company_id(site_id: str) -> str:
    return ENGINE_COMPANY_ID.get(site_id, site_id)


def _holder(owner: str | None, names: Mapping[str, str]) -> str | None:
    """``player:621`` -> ``player:NAME``; ``corp:WT`` -> ``company:WT``; none -> None."""
    if owner is None or owner in ("none", "pool", ""):
        return None
    kind, _, ident = owner.partition(":")
    if kind == "player":
        return f"player:{names.get(ident, ident)}"
    if kind == "corp":
        return f"company:{_company_id(ident)}"
    return owner


def _markers(entity: Mapping[str, Any]) -> list[str]:
    return sorted(t["hex"] for t in entity.get("tokens", []) if t.get("used", True))


def _cell(price: Mapping[str, Any] | None) -> str | None:
    return None if price is None else f"{price['row']},{price['col']}"


def figures_from_state(state: Mapping[str, Any], names: Mapping[str, str]) -> Figures:
    """The figures of one site state (``names``: player id -> name)."""
    figures: Figures = {"round": round_name(state)}
    for pid, player in state["players"].items():
        key = f"player:{names.get(pid, player.get('name', pid))}"
        figures[f"{key}.cash"] = player["cash"]
        figures[f"{key}.loans"] = player.get("loans", 0)
        figures[f"{key}.value"] = player["value"]
        for corp, percent in sorted(player.get("shares", {}).items()):
            if percent:
                figures[f"{key}.shares.{_company_id(corp)}"] = percent
        figures[f"{key}.privates"] = sorted(player.get("companies", []))
    for site_id, corp in state["tram_companies"].items():
        key = f"company:{_company_id(site_id)}"
        figures[f"{key}.cash"] = corp["cash"]
        price = corp.get("share_price")
        figures[f"{key}.share_price"] = None if price is None else price["price"]
        figures[f"{key}.share_cell"] = _cell(price)
        figures[f"{key}.unsold"] = corp["shares"].get("ipo", 0)
        if corp["shares"].get("pool"):
            figures[f"{key}.pool"] = corp["shares"]["pool"]
        figures[f"{key}.lines"] = sorted(int(n) for n in corp.get("lines", []))
        figures[f"{key}.trams"] = sorted(_colour(t) for t in corp.get("trains", []))
        fleet = list(figures[f"{key}.trams"])
        for number in corp.get("lines", []):
            line = state.get("lines", {}).get(str(number), {})
            fleet.extend(_colour(t) for t in line.get("trains", []))
        figures[f"{key}.fleet"] = sorted(fleet)
        figures[f"{key}.privates"] = sorted(corp.get("companies", []))
    for site_id, corp in state.get("stadtbahn", {}).items():
        key = f"stadtbahn:{site_id}"
        price = corp.get("share_price")
        figures[f"{key}.share_price"] = None if price is None else price["price"]
        figures[f"{key}.share_cell"] = _cell(price)
        figures[f"{key}.unsold"] = corp["shares"].get("ipo", 0)
        if corp["shares"].get("pool"):
            figures[f"{key}.pool"] = corp["shares"]["pool"]
        figures[f"{key}.markers"] = _markers(corp)
    for number, line in sorted(state.get("lines", {}).items(), key=lambda kv: int(kv[0])):
        key = f"line:{int(number)}"
        owner = line.get("owning_major")
        figures[f"{key}.company"] = None if owner is None else _company_id(owner)
        trams = [_colour(t) for t in line.get("trains", [])]
        if len(trams) > 1:
            raise ValueError(f"line {number} holds {len(trams)} trams")
        figures[f"{key}.tram"] = trams[0] if trams else None
        figures[f"{key}.markers"] = _markers(line)
    in_play = set(state.get("lines", {}))
    figures["lines.display"] = sorted(
        int(n) for n in state["game"].get("tram_lines_available", []) if n in in_play)
    for sym, private in state.get("companies", {}).items():
        owner = "closed" if private.get("closed") else _holder(private.get("owner"), names)
        figures[f"private:{sym}.owner"] = owner
    for hexname, (tile, rotation) in sorted(state.get("tiles", {}).items()):
        figures[f"tile:{hexname}"] = f"{tile}@{rotation}"
    return figures


def _colour(train: Mapping[str, Any]) -> str:
    colour = train_colour(str(train.get("name") or train["id"]))
    if colour is None:
        raise ValueError(f"a Stadtbahn train {train!r} on a tram company or line")
    return colour


VIEW_GAPS: tuple[str, ...] = ()
"""Figure path patterns (``fnmatch``) our view does not provide (none since the engine's view
lists Stadtbahn markers)."""

ASSIGNMENTS = ("line:*.tram", "company:*.trams")
"""Figures that say which line runs which tram.  While a tram company's turn in a Company Round
is under way the site keeps bought trams beside the lines until its reassign step, ours puts
them on lines at once: compare them only outside such turns (``company:*.fleet`` is always
compared)."""


def in_view_gaps(path: str) -> bool:
    """Whether a figure path is one :func:`.figures_view.figures_from_view` cannot produce."""
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in VIEW_GAPS)


def is_assignment(path: str) -> bool:
    """Whether a figure path is one of :data:`ASSIGNMENTS`."""
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in ASSIGNMENTS)


def assignments_in_flux(view: View1840) -> bool:
    """Whether our position is inside a tram company's turn of a Company Round."""
    return view.round.startswith("CR") and view.turn is not None and view.turn.company is not None


# ---------------------------------------------------------------------------- compare


@dataclass(frozen=True)
class Difference:
    """The first figure that differs after one action."""

    path: str
    expected: Any
    actual: Any
    index: int | None = None
    action: str | None = None
    log: tuple[str, ...] = ()

    def message(self) -> str:
        """One line: where, which figure, both values, and the site's log of that action."""
        where = "" if self.index is None else f"action {self.index}"
        if self.action:
            where = f"{where} ({self.action})" if where else self.action
        text = f"{self.path} is {_show(self.actual)}, expected {_show(self.expected)}"
        if where:
            text = f"{where}: {text}"
        if self.log:
            text += " [log: " + " | ".join(self.log) + "]"
        return text

    def __str__(self) -> str:
        return self.message()


_MISSING = object()


def _show(value: Any) -> str:
    if value is _MISSING:
        return "absent"
    return json.dumps(value, ensure_ascii=False)


def bank_holdings(figures: Mapping[str, Any]) -> dict[str, Any]:
    """X-12: the site keeps unsold shares and pool shares apart and lets a buyer take either;
    the printed rules have one Share Pool.  The import compares the bank's holding of each
    company (``CO.bank`` = unsold + pool) instead of the two figures."""
    out: dict[str, Any] = {}
    for path, value in figures.items():
        if path.endswith(".unsold"):
            base = path[:-len(".unsold")]
            out[base + ".bank"] = value + figures.get(base + ".pool", 0)
        elif not path.endswith(".pool"):
            out[path] = value
    return out


def compare(
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    *,
    index: int | None = None,
    action: str | None = None,
    log: Sequence[str] = (),
    skip: Callable[[str], bool] | None = None,
) -> Difference | None:
    """The first difference (in ``expected``'s order, then paths only ``actual`` has).

    ``skip(path)`` true leaves a figure out of the comparison (e.g. :func:`in_view_gaps`).
    """
    for path, value in expected.items():
        if skip is not None and skip(path):
            continue
        other = actual.get(path, _MISSING)
        if other is _MISSING or other != value:
            return Difference(path, value, other, index, action, tuple(log))
    for path, other in actual.items():
        if path not in expected and not (skip is not None and skip(path)):
            return Difference(path, _MISSING, other, index, action, tuple(log))
    return None
