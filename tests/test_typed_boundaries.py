"""No untyped JSON crosses from an engine to a consumer (issue 28, "done when").

The engines (``core/``, ``g1840/`` but its ``interop/`` and ``data/``, ``trambahn/``) hand their
consumers (the server, the bots, the environments, the CLI) typed values: views, results,
runs, boards as frozen dataclasses or TypedDicts.  This test reads every public function and
method of those packages (public: neither it nor its class starts with ``_``; constructors
count) and fails on a parameter or return annotated with an untyped JSON object:
``dict[str, Any]``, ``Mapping[str, Any]`` (and their ``typing`` spellings), ``Any`` inside a
``dict`` or ``Mapping`` value, or a module-level alias of one (``JSONObject``, ``JSON``).

Two kinds of crossing are allowed, each for a reason:

* **serialisation**: ``to_json`` / ``from_json`` methods (the one place a value becomes JSON
  and back; the wire of the server and ``tramways show --json``), and the doors that turn a
  view's JSON typed again (``as_view1840``, ``as_trambahn_view``);
* **record data** (``ALLOWED``): a game's settings and set-up are the record's JSON
  (``GameRecord.settings``, ``.setup``), validated by each game at load; each entry says why.

``ALLOWED`` only shrinks: an entry that no longer names an untyped crossing fails the test too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tramways"

ENGINES = ("core", "g1840", "trambahn")
OUTSIDE = ("g1840/interop/", "g1840/data/")
"""Inside an engine but not a boundary: the 18xx.games converters (their input is the site's
JSON) and the map and tile data readers."""

SERIALISATION = frozenset({"to_json", "from_json", "as_view1840", "as_trambahn_view"})

_RECORD = "settings and set-up are record data (GameRecord.settings/.setup, validated at load)"
_INTO = (_RECORD + "; they go into the engine, which reads them into Settings1840 / "
         "TrambahnSettings itself. Passing the typed model instead needs a Game protocol generic "
         "in its settings type (Game1840.new_state(Settings1840) does not answer a core "
         "new_state(<core settings type>), and hosts would hold Game[Any], unchecked) and "
         "touches 22 files: 9 hosts (core/replay, envs/base, cli/common, bots/analysis, "
         "server backup/bodies/payloads/positions/service), State1840/Position/check_setup "
         "and 7 tests that build states from dicts")
ALLOWED: dict[str, str] = {
    "core/game.py:Game.normalize_settings": _RECORD,
    "core/game.py:Game.setup": _INTO,
    "core/game.py:Game.new_state": _INTO,
    "core/game.py:Game.player_names": _INTO,
    "core/game.py:Game.new_game_settings": _RECORD,
    "core/game.py:GameBase.new_game_settings": _RECORD,
    "core/game.py:settings_for_new_game": _RECORD,
    "core/game.py:view_json": "the wire: a view's JSON, from its to_json()",
    "core/selfplay.py:play_game": _RECORD,
    "g1840/game.py:Game1840.normalize_settings": _RECORD,
    "g1840/game.py:Game1840.new_game_settings": _RECORD,
    "g1840/game.py:Game1840.setup": _INTO,
    "g1840/game.py:Game1840.new_state": _INTO,
    "g1840/game.py:Game1840.player_names": _INTO,
    "g1840/engine.py:State1840.__init__": _RECORD,
    "g1840/position.py:Position.__init__": _RECORD,
    "g1840/edition.py:Edition.of": _RECORD,
    "g1840/ruleset.py:Ruleset.of": _RECORD,
    "g1840/record_schema.py:check_setup": _RECORD,
    "trambahn/game.py:TrambahnGame.normalize_settings": _RECORD,
    "trambahn/game.py:TrambahnGame.setup": _INTO,
    "trambahn/game.py:TrambahnGame.new_state": _INTO,
    "trambahn/game.py:TrambahnGame.player_names": _INTO,
}

_OBJECTS = {"dict", "Dict", "Mapping", "MutableMapping"}


def _untyped(node: ast.expr, aliases: set[str]) -> bool:
    """Whether an annotation is, or holds, an untyped JSON object."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in aliases:
            return True
        if isinstance(sub, ast.Subscript):
            head = sub.value
            name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
            if name in _OBJECTS and isinstance(sub.slice, ast.Tuple) and len(sub.slice.elts) == 2:
                value = sub.slice.elts[1]
                if isinstance(value, ast.Name) and value.id == "Any":
                    return True
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            try:
                inner = ast.parse(sub.value, mode="eval").body
            except SyntaxError:
                continue
            if _untyped(inner, aliases):
                return True
    return False


def _aliases(tree: ast.Module) -> set[str]:
    """Module-level names bound to an untyped JSON object (or to ``Any`` itself, as
    ``JSON = Any``)."""
    found: set[str] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if not isinstance(target, ast.Name):
            continue
        if (isinstance(value, ast.Name) and value.id == "Any") or _untyped(value, found):
            found.add(target.id)
    return found


def _annotations(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    a = fn.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
        if arg.annotation is not None:
            yield arg.annotation
    if fn.returns is not None:
        yield fn.returns


def _public(body: list[ast.stmt], prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef
                                                                      | ast.AsyncFunctionDef]]:
    for stmt in body:
        if isinstance(stmt, ast.ClassDef) and not stmt.name.startswith("_"):
            yield from _public(stmt.body, f"{prefix}{stmt.name}.")
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if not stmt.name.startswith("_") or stmt.name == "__init__":
                yield prefix + stmt.name, stmt


def engine_modules() -> list[Path]:
    out = []
    for engine in ENGINES:
        for path in sorted((PACKAGE / engine).rglob("*.py")):
            name = path.relative_to(PACKAGE).as_posix()
            if not name.startswith(OUTSIDE):
                out.append(path)
    return out


def crossings() -> dict[str, str]:
    """Every public function of an engine with an untyped JSON object in its signature:
    ``"path:Qualified.name"`` -> the annotation."""
    found: dict[str, str] = {}
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _aliases(tree)
        for qualname, fn in _public(tree.body):
            if fn.name in SERIALISATION:
                continue
            bad = [ast.unparse(a) for a in _annotations(fn) if _untyped(a, aliases)]
            if bad:
                found[f"{path.relative_to(PACKAGE).as_posix()}:{qualname}"] = ", ".join(bad)
    return found


def test_no_untyped_json_crosses_from_an_engine_to_a_consumer() -> None:
    unexpected = {k: v for k, v in crossings().items() if k not in ALLOWED}
    assert not unexpected, (
        "an engine hands untyped JSON across its boundary (type it: a view, a dataclass, a "
        f"TypedDict): {unexpected}")


def test_the_allowed_crossings_only_shrink() -> None:
    stale = sorted(set(ALLOWED) - set(crossings()))
    assert not stale, f"no longer untyped: remove from ALLOWED: {stale}"


def test_the_scan_sees_an_untyped_crossing_and_its_aliases() -> None:
    """The scanner itself: a dict of Any, a Mapping of Any, an alias, a string annotation."""
    code = ("from typing import Any\nJSONObject = dict[str, Any]\nJSON = Any\n"
            "def a(x: dict[str, Any]) -> int: ...\n"
            "def b(x: int) -> 'Mapping[str, Any]': ...\n"
            "def c() -> JSONObject: ...\n"
            "def d() -> JSON: ...\n"
            "def e(x: dict[str, int], y: Any) -> list[str]: ...\n"
            "class K:\n    def f(self) -> typing.Dict[str, Any]: ...\n"
            "    def _g(self) -> dict[str, Any]: ...\n")
    tree = ast.parse(code)
    aliases = _aliases(tree)
    flagged = {q for q, fn in _public(tree.body)
               if any(_untyped(a, aliases) for a in _annotations(fn))}
    assert flagged == {"a", "b", "c", "d", "K.f"}
