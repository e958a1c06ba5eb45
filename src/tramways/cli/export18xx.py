"""``tramways export-18xx GAME.json -o SITE.json``: write an 1840 game of ours in the export
format of 18xx.games.

The game must be played under the 18xx.games ruleset (X-1..X-23, set up with the site's draw
for its seed); anything the site would not load to the same game is refused with one line
naming the first action or the ruling, exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tramways.core.record import GameRecord
from tramways.g1840.interop.export18xx import ExportError18xx, export_record


def cmd_export18xx(args: argparse.Namespace) -> int:
    source = Path(args.game)
    output = Path(args.output)
    if output.is_dir():
        raise ExportError18xx(f"-o {output}: is a directory")
    if not output.parent.is_dir():
        raise ExportError18xx(f"-o {output}: directory {output.parent} does not exist")
    if source.exists() and output.exists() and source.resolve() == output.resolve():
        raise ExportError18xx(f"-o {output}: would overwrite the game itself")
    record = GameRecord.load(source)
    document = export_record(record)
    output.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {output} (1840 for 18xx.games, {len(document['players'])} players, "
          f"{len(document['actions'])} site actions from {len(record.actions)})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export-18xx",
        help="export an 1840 game (18xx.games ruleset) for 18xx.games",
        description="Write an 1840 game of ours in the export format of 18xx.games.",
    )
    p.add_argument("game", metavar="GAME.json", help="the tramways record of the game")
    p.add_argument("-o", "--output", required=True, metavar="SITE.json",
                   help="the 18xx.games export to write")
    p.set_defaults(func=cmd_export18xx)
