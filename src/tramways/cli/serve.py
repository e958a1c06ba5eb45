"""``tramways serve``: run the site (needs the ``web`` extra: ``pip install -e '.[web]'``)."""

from __future__ import annotations

import argparse

from tramways.core.errors import TramwaysError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the web site (lobby, tables, JSON API)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="SQLAlchemy URL (default: sqlite:///tramways.sqlite3 in the working folder; "
        "PostgreSQL: postgresql+psycopg://user@host/db)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from tramways.server import ServerSettings, create_app
    except ModuleNotFoundError as exc:
        raise TramwaysError(
            f"the web server needs the 'web' extra ({exc.name} is missing): "
            "pip install -e '.[web]'"
        ) from None
    settings = ServerSettings() if args.database is None else ServerSettings(args.database)
    try:
        app = create_app(settings)
    except Exception as exc:  # a bad URL or an unreachable database: one line, no traceback
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise TramwaysError(f"cannot open the database: {first}") from None
    host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"tramways: open http://{host}:{args.port}/ (API docs at /docs)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
