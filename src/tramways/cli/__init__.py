"""The ``tramways`` command line.

Generic commands (``new``, ``show``, ``moves``, ``play``, ``undo``, ``selfplay``) work for every
game through the core contract; game-specific commands (``render``, ``routes``,
``import-18xx``, ``duel``) live in their own modules and register themselves here.

Errors are one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tramways.core.errors import TramwaysError

# Modules that add sub-commands: each has ``register(subparsers)``.  A module that does not
# exist yet (a game still being built) is skipped.
COMMAND_MODULES = (
    "tramways.cli.common",
    "tramways.cli.board",
    "tramways.cli.routes",
    "tramways.cli.import18xx",
    "tramways.cli.export18xx",
    "tramways.cli.duel",
    "tramways.cli.serve",
    "tramways.cli.backup",
)


class UsageError(Exception):
    """Bad command-line usage (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tramways", description=__doc__.splitlines()[0])
    from tramways import __version__

    parser.add_argument("--version", action="version", version=f"tramways {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        code = args.func(args)
        return int(code or 0)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except TramwaysError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
