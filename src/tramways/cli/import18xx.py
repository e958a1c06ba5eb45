"""``tramways import-18xx FILE -o RECORD [--check TRACE.jsonl]``: import an 18xx.games game of
1840 (docs/interop.md).

The record is written only once it replays to the site's position: every action translated
and legal, the export's own result reached, and with ``--check`` every figure of the trace
equal after every processed action.  Every bad input or failed check is one line on stderr and
exit code 2, and nothing is written: a file that is not an 1840 export, a malformed action, an
undo that cannot be resolved, a trace of another game, an output path in a missing directory,
the first figure that differs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export
from tramways.g1840.interop.trace import read_trace


def cmd_import18xx(args: argparse.Namespace) -> int:
    source = Path(args.file)
    output = Path(args.output)
    if output.is_dir():
        raise ImportError18xx(f"-o {output}: is a directory")
    if not output.parent.is_dir():
        raise ImportError18xx(f"-o {output}: directory {output.parent} does not exist")
    if source.exists() and output.exists() and source.resolve() == output.resolve():
        raise ImportError18xx(f"-o {output}: would overwrite the export itself")
    export = load_export(source)
    trace = read_trace(args.check) if args.check else None
    record = import_export(export, trace)
    record.save(output)
    checked = f", every figure checked against {args.check}" if args.check else ""
    print(f"wrote {output} (1840, {len(export.players)} players, "
          f"{len(record.actions)} actions{checked})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import-18xx",
        help="import an 1840 game exported from 18xx.games",
        description="Import an 1840 game exported from 18xx.games as a tramways record.",
    )
    p.add_argument("file", metavar="FILE", help="the game's JSON export from 18xx.games")
    p.add_argument("-o", "--output", required=True, metavar="RECORD",
                   help="the tramways record to write")
    p.add_argument("--check", metavar="TRACE.jsonl",
                   help="compare every figure after every action with this trace")
    p.set_defaults(func=cmd_import18xx)
