"""``tramways serve``: run the site (needs the ``web`` extra: ``pip install -e '.[web]'``)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from tramways.core.errors import TramwaysError

HEADER_TIMEOUT = 10.0
"""``--timeout-headers``' default (``tramways.server.protocol.HEADER_TIMEOUT``; not imported
from there: the web extra may be missing when the parser is built)."""


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
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on this port (default 1); with PostgreSQL they share live "
        "updates and bots, with SQLite other processes' moves arrive within seconds",
    )
    p.add_argument(
        "--moves-per-second",
        type=float,
        default=None,
        metavar="R",
        help="per seat token, moves and undos through the API (default 5, bursts of 20; 0: off)",
    )
    p.add_argument(
        "--games-per-minute",
        type=float,
        default=None,
        metavar="R",
        help="per client address, new games through the API (default 60, bursts of 30; 0: off)",
    )
    p.add_argument(
        "--bot-games-per-hour",
        type=float,
        default=None,
        metavar="R",
        help="per client address, new games with no person's seat (default 10, bursts of 5; "
        "0: off)",
    )
    p.add_argument(
        "--max-bot-games",
        type=int,
        default=None,
        metavar="N",
        help="games of bots only running at once (default 50; 0: no cap); their bots always "
        "yield to people's games",
    )
    p.add_argument(
        "--reads-per-second",
        type=float,
        default=None,
        metavar="R",
        help="per client address, the reads that cost CPU: past positions (?at=N) and the "
        "1840 map's previews (default 20, bursts of 60; 0: off)",
    )
    p.add_argument(
        "--cache-games",
        type=int,
        default=None,
        metavar="N",
        help="positions each process keeps in memory at most, least recently used out first "
        "(default 2000)",
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        help="write the access log: one JSON line per request on standard error, by route, "
        "never a token (docs/operations.md)",
    )
    p.add_argument(
        "--cache-mb",
        type=float,
        default=None,
        metavar="MB",
        help="the memory budget of those positions per process, as estimated by game and "
        "number of moves (default 200; 0: count only)",
    )
    t = p.add_argument_group("connections (see docs/operations.md)")
    t.add_argument("--timeout-headers", type=float, default=HEADER_TIMEOUT, metavar="S",
                   help="close a connection whose request headers are not complete S seconds "
                   f"after it opened or the request began (default {HEADER_TIMEOUT:g}; 0: never)")
    t.add_argument("--timeout-keep-alive", type=int, default=5, metavar="S",
                   help="close an idle keep-alive connection after S seconds (default 5)")
    t.add_argument("--timeout-graceful-shutdown", type=int, default=10, metavar="S",
                   help="on SIGTERM, wait at most S seconds for requests and live connections "
                   "to end (default 10)")
    t.add_argument("--limit-concurrency", type=int, default=None, metavar="N",
                   help="answer 503 beyond N connections and tasks at once per process "
                   "(default: no limit; live WebSockets count too)")
    t.add_argument("--http", choices=("httptools", "h11"), default="httptools",
                   help="the HTTP parser (default httptools; h11 when httptools is missing)")
    t.add_argument("--h11-max-incomplete-event-size", type=int, default=None, metavar="BYTES",
                   help="with --http h11: the largest request head (default uvicorn's, 16 KB)")
    t.add_argument("--ws-max-message-bytes", type=int, default=None, metavar="BYTES",
                   help="the largest client message on a live WebSocket (default 4096; "
                   "larger: closed with 1009)")
    t.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                   help="proxies trusted for X-Forwarded-For/-Proto (the client address of "
                   "the rate limits; default $FORWARDED_ALLOW_IPS or 127.0.0.1; '*': any)")
    env = os.environ.get
    p.add_argument("--public-url", default=env("TRAMWAYS_PUBLIC_URL", ""), metavar="URL",
                   help="the site's address as players reach it, for the links in "
                   "notifications ($TRAMWAYS_PUBLIC_URL)")
    p.add_argument("--smtp-host", default=env("TRAMWAYS_SMTP_HOST", ""), metavar="HOST",
                   help="mail server for 'your turn' e-mails ($TRAMWAYS_SMTP_HOST; none: no "
                   "e-mails)")
    p.add_argument("--smtp-port", type=int, default=int(env("TRAMWAYS_SMTP_PORT", "587")),
                   metavar="N", help="its port ($TRAMWAYS_SMTP_PORT, default 587)")
    p.add_argument("--smtp-security", choices=("starttls", "ssl", "none"),
                   default=env("TRAMWAYS_SMTP_SECURITY", "starttls"),
                   help="($TRAMWAYS_SMTP_SECURITY, default starttls)")
    p.add_argument("--smtp-user", default=env("TRAMWAYS_SMTP_USER", ""), metavar="NAME",
                   help="login ($TRAMWAYS_SMTP_USER; the password only from "
                   "$TRAMWAYS_SMTP_PASSWORD)")
    p.add_argument("--smtp-from", default=env("TRAMWAYS_SMTP_FROM", "tramways@localhost"),
                   metavar="ADDRESS", help="sender address ($TRAMWAYS_SMTP_FROM)")
    p.add_argument(
        "--bot-seed",
        type=int,
        default=None,
        metavar="N",
        help="bots draw their randomness from N, the game's seed, their seat and the move "
        "number: a seeded game with the same human moves replays alike (for tests)",
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
    settings.warm_start = True  # templates compiled, read workers started, before serving
    settings.gc_tuning = True  # start-up's objects frozen, full collections rare (gctune)
    # the rates: each option names the setting it overrides (0 switches a limit off)
    for rate in ("moves_per_second", "games_per_minute", "bot_games_per_hour",
                 "reads_per_second"):
        if getattr(args, rate) is not None:
            setattr(settings, rate, getattr(args, rate))
    if args.max_bot_games is not None:
        if args.max_bot_games < 0:
            raise TramwaysError("--max-bot-games: 0 (no cap) or more")
        settings.max_bot_games = args.max_bot_games
    if args.cache_games is not None:
        if args.cache_games < 1:
            raise TramwaysError("--cache-games: at least 1")
        settings.cache_games = args.cache_games
    if args.cache_mb is not None:
        if args.cache_mb < 0:
            raise TramwaysError("--cache-mb: 0 or more")
        settings.cache_bytes = int(args.cache_mb * 1024 * 1024)
    settings.access_log = args.access_log
    from tramways.server.notify import SmtpSettings

    settings.public_url = args.public_url
    settings.smtp = SmtpSettings(
        host=args.smtp_host, port=args.smtp_port, security=args.smtp_security,
        user=args.smtp_user, password=os.environ.get("TRAMWAYS_SMTP_PASSWORD", ""),
        sender=args.smtp_from,
    )
    if args.bot_seed is not None:
        settings.bot_seed = args.bot_seed
    if args.ws_max_message_bytes is not None:
        if args.ws_max_message_bytes < 1:
            raise TramwaysError("--ws-max-message-bytes: at least 1")
        settings.ws_max_message_bytes = args.ws_max_message_bytes
    uvicorn_options = _uvicorn_options(args, settings.ws_max_message_bytes)
    if args.workers < 1:
        raise TramwaysError("--workers: at least 1")
    host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    if args.workers > 1:
        from tramways.server.app import SETTINGS_ENV, settings_to_env
        from tramways.server.database import migrate

        try:
            migrate(settings.database_url)  # once, before the workers start
        except Exception as exc:
            first = (str(exc).splitlines() or [type(exc).__name__])[0]
            raise TramwaysError(f"cannot open the database: {first}") from None
        settings.run_migrations = False
        # the workers share one set of rate-limit buckets (the database's), on SQLite too
        settings.rate_limits = "database"
        os.environ[SETTINGS_ENV] = settings_to_env(settings)
        from tramways.server.workers import PARENT_ENV

        os.environ[PARENT_ENV] = str(os.getpid())  # the workers end with this process
        print(f"tramways: open http://{host}:{args.port}/ ({args.workers} processes)", flush=True)
        uvicorn.run("tramways.server.app:app_from_env", factory=True, workers=args.workers,
                    host=args.host, port=args.port, log_level="warning", **uvicorn_options)
        return 0
    try:
        app = create_app(settings)
    except Exception as exc:  # a bad URL or an unreachable database: one line, no traceback
        first = (str(exc).splitlines() or [type(exc).__name__])[0]
        raise TramwaysError(f"cannot open the database: {first}") from None
    print(f"tramways: open http://{host}:{args.port}/ (API docs at /docs)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **uvicorn_options)
    return 0


def _uvicorn_options(args: argparse.Namespace, ws_max_size: int) -> dict[str, Any]:
    """uvicorn's connection options from the command line (the header deadline goes to the
    protocol, in this process and the workers, through ``$TRAMWAYS_HEADER_TIMEOUT``)."""
    from tramways.server.protocol import HEADER_TIMEOUT_ENV, protocol_path

    if args.timeout_headers < 0 or args.timeout_keep_alive < 1:
        raise TramwaysError("--timeout-headers: 0 or more; --timeout-keep-alive: at least 1")
    os.environ[HEADER_TIMEOUT_ENV] = str(args.timeout_headers)
    options: dict[str, Any] = {
        "http": protocol_path(args.http),
        "timeout_keep_alive": args.timeout_keep_alive,
        "timeout_graceful_shutdown": args.timeout_graceful_shutdown,
        "limit_concurrency": args.limit_concurrency,
        "ws_max_size": ws_max_size,
    }
    if args.h11_max_incomplete_event_size is not None:
        options["h11_max_incomplete_event_size"] = args.h11_max_incomplete_event_size
    if args.forwarded_allow_ips is not None:
        options["forwarded_allow_ips"] = args.forwarded_allow_ips
    return options
