"""``tramways export-all`` and ``tramways import-all``: back up a site (every game, account,
open game, chat line, rating and clock) as JSON lines, and restore it into a fresh database (docs/operations.md, "Backup and restore")."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TypeVar

from tramways.core.errors import TramwaysError

T = TypeVar("T")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export-all", help="write a site's database (its games and every other "
                       "table but sessions) as JSON lines")
    p.add_argument("--database", required=True, metavar="URL",
                   help="the site's SQLAlchemy URL (as for tramways serve)")
    p.add_argument("-o", "--output", default="-", metavar="FILE",
                   help="where the lines go (default: standard output)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("import-all", help="restore an export-all file into a "
                       "fresh database (all or nothing)")
    p.add_argument("file", metavar="FILE", help="the export-all file ('-': standard input)")
    p.add_argument("--database", required=True, metavar="URL",
                   help="the SQLAlchemy URL of the database to restore into (migrated first)")
    p.add_argument("--no-check", action="store_true",
                   help="do not replay every game through the engine before writing")
    p.set_defaults(func=cmd_import)


def _backup() -> ModuleType:
    try:
        from tramways.server import backup
    except ModuleNotFoundError as exc:
        raise TramwaysError(f"backups need the 'web' extra ({exc.name} is missing): "
                            "pip install -e '.[web]'") from None
    return backup


def _run(work: Callable[[], T]) -> T:
    """``work()``, with a database that cannot be reached as one line."""
    import sqlalchemy as sa

    try:
        return work()
    except (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.ArgumentError) as exc:
        first = (str(getattr(exc, "orig", None) or exc).splitlines() or [type(exc).__name__])[0]
        raise TramwaysError(f"cannot open the database: {first}") from None


def cmd_export(args: argparse.Namespace) -> int:
    backup = _backup()
    if args.output == "-":
        counts = _run(lambda: backup.export_all(args.database, sys.stdout))
    else:
        out = Path(args.output)
        if out.is_dir() or not out.parent.is_dir():
            raise TramwaysError(f"-o {out}: not a file in an existing directory")
        partial = out.with_name(out.name + ".partial")
        try:
            with partial.open("w", encoding="utf-8") as fh:
                counts = _run(lambda: backup.export_all(args.database, fh))
        except BaseException:
            partial.unlink(missing_ok=True)  # a failed export leaves no half file
            raise
        partial.replace(out)
    print(f"exported {counts.summary()}", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    backup = _backup()
    check = not args.no_check
    if args.file == "-":
        counts = _run(lambda: backup.import_all(args.database, sys.stdin, check=check))
    else:
        path = Path(args.file)
        if not path.is_file():
            raise TramwaysError(f"{path}: no such file")
        with path.open(encoding="utf-8") as fh:
            counts = _run(lambda: backup.import_all(args.database, fh, check=check))
    print(f"imported {counts.summary()}", file=sys.stderr)
    return 0
