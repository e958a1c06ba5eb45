"""The application factory: ``create_app(ServerSettings(...))``."""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.to_thread
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from tramways import __version__
from tramways.server.accesslog import AccessLog, log_to_stderr
from tramways.server.bodies import refusal
from tramways.server.database import DATABASE_DOWN, SQLITE_SYNCHRONOUS, default_url, listen
from tramways.server.errors import ApiError
from tramways.server.gctune import GC_THRESHOLDS
from tramways.server.headers import SameOriginForms, SecurityHeaders
from tramways.server.history import HISTORY_POSITIONS
from tramways.server.limits import (
    MAX_BODY_BYTES,
    SOCKETS_PER_ADDRESS,
    SOCKETS_PER_SEAT,
    SOCKETS_TOTAL,
    WS_MAX_MESSAGE_BYTES,
    BodyLimit,
    Limits,
    RateLimiter,
    SocketLimit,
)
from tramways.server.live import LISTEN_POLL_SECONDS, POLL_SECONDS, Hub
from tramways.server.notify import Notifier, SmtpSettings
from tramways.server.readpool import READ_NICE, READ_PROCESSES, READ_QUEUE, READ_RESULTS, ReadPool
from tramways.server.rows import Written
from tramways.server.service import CACHE_BYTES, CACHE_GAMES, GameService
from tramways.server.storage import Store


@dataclass
class ServerSettings:
    """How the site runs.  ``database_url``: an SQLAlchemy URL (default: a SQLite file
    ``tramways.sqlite3`` in the working folder)."""

    database_url: str = field(default_factory=default_url)
    bot_workers: int = 2
    bot_delay_seconds: float = float(os.environ.get("TRAMWAYS_BOT_DELAY_SECONDS", "0"))
    """A pause before each bot move, its move chosen and its lease held (0: none)."""
    resume_bots: bool = True
    analysis: str = os.environ.get("TRAMWAYS_ANALYSIS", "process")
    """Post-game analysis (docs/bots.md): ``"process"`` (in a worker process of its own),
    ``"thread"`` (on its thread of this process: tests), ``"off"``."""
    sqlite_synchronous: str = SQLITE_SYNCHRONOUS
    threads: int = 4
    """Worker threads for requests (the games' work is Python: more threads than cores only
    trade the GIL back and forth, and the event loop waits behind them)."""
    max_body_bytes: int = MAX_BODY_BYTES
    moves_per_second: float = 5.0
    """Per seat token, moves and undos through the API (bursts of ``move_burst``); 0: no limit."""
    move_burst: int = 20
    games_per_minute: float = 60.0
    """Per client address, new games through the API (bursts of ``game_burst``); 0: no limit."""
    game_burst: int = 30
    bot_games_per_hour: float = 10.0
    """Per client address, new games with no person's seat (bursts of ``bot_game_burst``),
    on top of ``games_per_minute``; 0: no limit."""
    bot_game_burst: int = 5
    max_bot_games: int = 50
    """Games of bots only running at once on the database (a new one is refused with 429
    while as many run); 0: no cap.  Their bots run at low priority in any case."""
    reads_per_second: float = 20.0
    """Per client address and process, the reads that cost CPU: past positions (``?at=N``)
    and the 1840 map's previews (bursts of ``read_burst``); 0: no limit."""
    read_burst: int = 60
    heavy_threads: int = 1
    """Of the ``threads``, how many may work on such costly reads at once (the others
    wait their turn without taking the CPU from the rest of the site): past positions'
    payloads, and the work below when ``read_processes`` is 0."""
    read_processes: int = READ_PROCESSES
    """Worker processes for the costliest reads (the 1840 map's previews, the table of a
    past position; :mod:`tramways.server.readpool`): their CPU work never holds this
    process's interpreter.  0: in the lane of ``heavy_threads`` instead."""
    read_queue: int = READ_QUEUE
    """Such reads waiting or running at once; one more is refused with 503 ``busy``."""
    read_results: int = READ_RESULTS
    """Results of such reads kept (by game, revision and what was asked)."""
    read_nice: int = READ_NICE
    """How much lower the read workers' priority is than this process's."""
    warm_start: bool = False
    """Compile the pages' templates and start the read workers before answering (``tramways
    serve`` does): the first reads then hold nobody up (compiling the 1840 table's template
    is some 0.3 s of the interpreter).  Off: on first use (the tests)."""
    gc_tuning: bool = False
    """Freeze start-up's objects and collect the old generation rarely
    (:mod:`tramways.server.gctune`: full collections stopped the process 0.2-0.3 s every
    15 s under load); ``tramways serve`` turns it on, the tests leave Python's collector."""
    gc_thresholds: tuple[int, int, int] = GC_THRESHOLDS
    """The collector's thresholds with ``gc_tuning`` (``gctune.GC_THRESHOLDS``)."""
    gil_switch_ms: float = 1.0
    """How long a thread may hold the interpreter while another waits (Python's switch
    interval, 5 ms by default): shorter lets the event loop in sooner while a worker thread
    computes (a board preview, a replay), at a small cost in throughput; 0: Python's own."""
    history_positions: int = HISTORY_POSITIONS
    """Past positions this process keeps (``?at=N`` and the history are replayed from the
    nearest kept one, not from the first move)."""
    rate_limits: str = "auto"
    """Where the rate-limit buckets live: ``"database"`` (shared by every server process on
    the database: the limits hold across processes), ``"memory"`` (per process), or
    ``"auto"``: the database on PostgreSQL, memory on SQLite."""
    sockets_total: int = SOCKETS_TOTAL
    """Live WebSockets this process holds at once (0: no cap); also per client address
    (``sockets_per_address``) and per seat token (``sockets_per_seat``)."""
    sockets_per_address: int = SOCKETS_PER_ADDRESS
    sockets_per_seat: int = SOCKETS_PER_SEAT
    ws_max_message_bytes: int = WS_MAX_MESSAGE_BYTES
    """The largest message a client may send on a live WebSocket (the server reads none:
    a larger one closes the socket with 1009); ``tramways serve`` also hands it to uvicorn,
    which then refuses a larger frame before buffering it."""
    cache_games: int = CACHE_GAMES
    """Positions this process keeps in memory at most (least recently used out first; a game
    not kept is rebuilt from its record when asked for, some ms for a long 1840 game)."""
    cache_bytes: int = CACHE_BYTES
    """The memory budget of those positions (bytes, about 200 MB by default): each is
    weighed by its game and number of moves (``cache.position_bytes``: an 1840 game near
    its end some 0.5-1.3 MB, Trambahn under 50 KB) and the least recently used go while the
    total is over it; 0: no budget (the count alone)."""
    run_migrations: bool = True
    smtp: SmtpSettings = field(default_factory=SmtpSettings)
    """Where "your turn" e-mails go out (no host: no e-mails)."""
    public_url: str = ""
    """The site's address as players reach it (``https://tramways.example``): the links in
    notifications.  Empty: the messages carry the game's path only."""
    allow_loopback_webhooks: bool = False
    """Tests only: let webhooks go to 127.0.0.0/8 and ::1 (never to private ranges)."""
    webhook_timeout: float = 5.0
    deadline_sweep_seconds: float = float(os.environ.get("TRAMWAYS_DEADLINE_SWEEP_SECONDS",
                                                         "30"))
    """How often each process looks for deadlines due in paced games (docs/async.md); 0:
    never."""
    bot_sweep_seconds: float = float(os.environ.get("TRAMWAYS_BOT_SWEEP_SECONDS", "15"))
    """PostgreSQL: how often each process looks for games whose bots have not moved for that
    long (their process died) and plays them (0: never; a request for the game also does)."""
    logins_per_minute: float = 5.0
    """Per user name, log-in tries (bursts of 10; per address six times as many); 0: none."""
    signups_per_hour: float = 30.0
    """Per client address, new accounts (bursts of 10); 0: no limit."""
    admins: str = field(default_factory=lambda: os.environ.get("TRAMWAYS_ADMINS", ""))
    """The names of the site's admins, separated by commas (``$TRAMWAYS_ADMINS``): those
    accounts see ``/admin`` (docs/accounts.md)."""
    chat_per_minute: float = 20.0
    """Per writer (a seat, or a spectator's account), chat messages (bursts of 5)."""
    access_log: bool = False
    """Write the structured access log (:mod:`tramways.server.accesslog`) to standard error
    (``tramways serve --access-log``)."""
    telemetry: bool = False
    """FastAPI's own OpenTelemetry hooks (spans, metrics and logs of every request, FastAPI
    0.16x): on only if a provider is set up in the process.  Off by default: with them on,
    every request looked up the providers (some 2% of a move's CPU on PostgreSQL) although
    the site sets none up."""
    bot_seed: int | None = None
    """Bots draw their randomness from this seed, the game's seed, their seat and the move
    number (``derive_rng``): a game with a chosen seed and the same human moves replays alike
    (the browser tests); None: fresh randomness for every bot move."""


_HTTP_ERRORS = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "too_large", 415: "unsupported_media_type"}


def _sweep_bots(service: GameService, every: float, stop: threading.Event) -> None:
    while not stop.wait(every):
        try:
            service.resume_bots(idle_for=every)
        except DATABASE_DOWN as exc:
            # the database is away: the next sweep tries again (no traceback for a restart)
            logging.getLogger("tramways.server").warning(
                "bot sweep failed: the database is away (%s)", type(exc.orig or exc).__name__)
        except Exception:
            logging.getLogger("tramways.server").warning("bot sweep failed", exc_info=True)


SETTINGS_ENV = "TRAMWAYS_SERVER_SETTINGS"


def settings_to_env(settings: ServerSettings) -> str:
    """The settings as JSON, for worker processes started by ``tramways serve --workers N``."""
    import dataclasses
    import json

    return json.dumps(dataclasses.asdict(settings))


def app_from_env() -> FastAPI:
    """The app of one worker process: its settings from ``$TRAMWAYS_SERVER_SETTINGS``; the
    worker ends with its parent (``workers.die_with_parent``)."""
    import json
    import os

    from tramways.server.workers import die_with_parent

    die_with_parent()
    raw = json.loads(os.environ.get(SETTINGS_ENV, "{}"))
    raw["smtp"] = SmtpSettings(**raw.get("smtp", {}))
    return create_app(ServerSettings(**raw))


def _warm(reads: ReadPool) -> None:
    """The warm start: this process's templates compiled; the read workers started, each
    compiling its own in the background (they run at a lower priority: on a busy machine
    waiting for them could take long)."""
    from tramways.server.web.costly import warm

    reads.start(warm)
    warm()


def _telemetry(on: bool) -> dict[str, Any]:
    """The application's ``telemetry`` argument, for a FastAPI that has one (0.16x on)."""
    import inspect

    if on or "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


def _written(service: GameService, hub: Hub, written: Written) -> None:
    """A write of any process (PostgreSQL ``NOTIFY``): its move played on this process's
    cached position first (so that the sockets' frames and this process's next write find it
    current), then the sockets woken.  A write without a move (an undo, a seat changing
    hands, a closing) may have given a seat a new token: the game's tokens seen here are
    forgotten (a substitute's old owner can no longer act in any process), and so are its
    facts (:mod:`tramways.server.facts`).  A settings change (a pace, a notification target)
    only forgets the game's facts: no socket is woken."""
    if written.settings:
        service.store.facts.forget(written.game_id)
        return
    if written.action is None:
        service.forget_token(written.game_id)
        service.store.facts.forget(written.game_id)
    service.follow(written)
    hub.publish(written.game_id, written.rev)


def _resync(service: GameService, hub: Hub) -> None:
    """The ``LISTEN`` connection was (re)made: what was announced meanwhile is lost, so every
    socket looks at the database and every remembered fact is forgotten."""
    service.store.facts.forget()
    hub.wake_all()


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The site: the JSON API under ``/api``, ``/healthz``, the pages and ``/static``."""
    settings = settings or ServerSettings()
    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous,
                  run_migrations=settings.run_migrations)
    service = GameService(store, bot_workers=settings.bot_workers,
                          cache_games=settings.cache_games,
                          cache_bytes=settings.cache_bytes, bot_seed=settings.bot_seed,
                          bot_delay=settings.bot_delay_seconds,
                          history_positions=settings.history_positions)
    # PostgreSQL: every write wakes the sockets by NOTIFY; their own look is a safety net
    hub = Hub(LISTEN_POLL_SECONDS if store.is_postgres else POLL_SECONDS)
    service.add_listener(hub.publish)
    from tramways.server.web.notify_text import turn_message

    notifier = Notifier(
        store.known_targets, smtp=settings.smtp, public_url=settings.public_url,
        allow_loopback_webhooks=settings.allow_loopback_webhooks,
        webhook_timeout=settings.webhook_timeout, texts=turn_message,
    )
    service.turn_listener = notifier.submit
    from tramways.server.clocks.clock import clock_from_env
    from tramways.server.clocks.deadlines import Deadlines, run_sweeps

    deadlines = Deadlines(service, clock_from_env(), remind=notifier.submit)
    service.add_listener(deadlines.on_write)
    from tramways.server.analyses import Analyser

    analyser = Analyser(service, store, mode=settings.analysis)
    service.add_listener(analyser.submit)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if settings.gil_switch_ms > 0:
            sys.setswitchinterval(settings.gil_switch_ms / 1000)
        if settings.resume_bots:
            service.resume_bots()
        if settings.warm_start:
            await anyio.to_thread.run_sync(_warm, app.state.reads)
        if settings.gc_tuning:  # after the warm start: its objects are frozen too
            from tramways.server.gctune import tune

            young, middle, old = settings.gc_thresholds  # a list when read from JSON
            tune((young, middle, old))
        stop = threading.Event()
        if store.is_postgres:  # moves written by other server processes wake our sockets too
            threading.Thread(
                target=listen,
                args=(store.url, lambda written: _written(service, hub, written), stop,
                      app.state.listening, lambda: _resync(service, hub)),
                name="listen",
                daemon=True,
            ).start()
            if settings.resume_bots and settings.bot_sweep_seconds > 0:
                threading.Thread(
                    target=_sweep_bots, args=(service, settings.bot_sweep_seconds, stop),
                    name="bot-sweep", daemon=True,
                ).start()
        if settings.deadline_sweep_seconds > 0:  # every process: deadlines fire once
            threading.Thread(
                target=run_sweeps, args=(deadlines, settings.deadline_sweep_seconds, stop),
                name="deadline-sweep", daemon=True,
            ).start()
        yield
        stop.set()
        app.state.reads.close()
        notifier.close()
        analyser.close()
        service.close()
        store.close()

    # the API's documentation pages with Swagger UI and ReDoc from the package, never a CDN
    app = FastAPIOffline(
        **_telemetry(settings.telemetry),
        favicon_url="/static/favicon.svg",
        title="tramways",
        version=__version__,
        description="Play 1840 Vienna Tramways and Trambahn: seats, views, moves, live updates.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.service = service
    app.state.analyser = analyser
    app.state.hub = hub
    app.state.notifier = notifier
    app.state.deadlines = deadlines
    app.state.listening = threading.Event()  # set once the PostgreSQL LISTEN is in place
    if settings.rate_limits not in ("auto", "database", "memory"):
        raise ValueError(f"rate_limits: 'auto', 'database' or 'memory', not {settings.rate_limits!r}")
    shared = settings.rate_limits == "database" or (
        settings.rate_limits == "auto" and store.is_postgres
    )
    app.state.move_limiter = RateLimiter(
        settings.moves_per_second, settings.move_burst, what="moves for this seat",
        store=store if shared else None, prefix="move:",
    )
    app.state.game_limiter = RateLimiter(
        settings.games_per_minute / 60.0, settings.game_burst, what="new games from this address",
        store=store if shared else None, prefix="game:",
    )
    app.state.bot_game_limiter = RateLimiter(
        settings.bot_games_per_hour / 3600.0, settings.bot_game_burst,
        what="new games of bots only from this address",
        store=store if shared else None, prefix="botgame:",
    )
    app.state.read_limiter = RateLimiter(
        settings.reads_per_second, settings.read_burst, what="costly reads from this address",
    )
    app.state.limits = Limits(
        moves=app.state.move_limiter, games=app.state.game_limiter,
        bot_games=app.state.bot_game_limiter, reads=app.state.read_limiter,
        max_bot_games=settings.max_bot_games, count_bot_only_games=store.count_bot_only_games,
    )
    app.state.heavy = anyio.CapacityLimiter(max(1, settings.heavy_threads))
    app.state.reads = ReadPool(settings.read_processes, settings.read_queue,
                               settings.read_results, settings.read_nice, lane=app.state.heavy)
    app.state.socket_limit = SocketLimit(
        settings.sockets_total, settings.sockets_per_address, settings.sockets_per_seat
    )
    from tramways.server.accounts.setup import install as install_accounts

    install_accounts(app, settings, shared)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SameOriginForms)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(AccessLog)  # outermost: the status the client got, and its time
    if settings.access_log:
        log_to_stderr()

    @app.exception_handler(ApiError)
    async def _api_error(_request: object, exc: ApiError) -> JSONResponse:
        headers = {}
        if "retry_after" in exc.body:
            headers["Retry-After"] = str(exc.body["retry_after"])
        return JSONResponse(exc.body, status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: object, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own reply echoes the input, which may not even be JSON (a body of
        # ``{"a": Infinity}`` parses in Python): name the places and the reasons only.
        errors = exc.errors()
        bad_json = next((e for e in errors if e.get("type") == "json_invalid"), None)
        if bad_json is not None:
            loc = [str(p) for p in bad_json.get("loc", ())]
            where = loc[-1] if len(loc) > 1 else "?"
            return JSONResponse(
                {"error": "bad_json", "message": f"the body is not valid JSON (at character "
                 f"{where})"}, status_code=400)
        refused = refusal(errors)  # a new game's own checks keep their code (bad_seats, ...)
        return JSONResponse(refused.body, status_code=refused.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: object, exc: StarletteHTTPException) -> JSONResponse:
        """FastAPI's and Starlette's own refusals (no such path, a method not allowed, a body
        that is not even text) in the project's shape, never ``{"detail": ...}``."""
        error = _HTTP_ERRORS.get(exc.status_code, f"http_{exc.status_code}")
        message = str(exc.detail) if exc.detail else error.replace("_", " ")
        if exc.status_code == 400 and "parsing the body" in message:
            error, message = "bad_json", "the body is not valid JSON (not UTF-8 text)"
        return JSONResponse({"error": error, "message": message},
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(sa.exc.OperationalError)
    @app.exception_handler(sa.exc.InterfaceError)
    async def _database_down(_request: object, exc: Exception) -> JSONResponse:
        logging.getLogger("tramways.server").warning("database unavailable: %s",
                                                     str(exc).splitlines()[0] if str(exc) else exc)
        return JSONResponse(
            {"error": "unavailable", "message": "the database is not answering; try again"},
            status_code=503, headers={"Retry-After": "1"},
        )

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, object]:
        store.rev("-")  # the database answers
        return {"ok": True, "version": __version__}

    from tramways.server.api import router as api_router
    from tramways.server.web import router as web_router

    app.include_router(api_router, prefix="/api")
    from tramways.server.api_clocks import router as clocks_router

    app.include_router(clocks_router, prefix="/api")
    from tramways.server.api_analysis import router as analysis_router

    app.include_router(analysis_router, prefix="/api")
    app.include_router(web_router)
    static = Path(__file__).parent / "web" / "static"
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
    logging.getLogger("tramways.server").setLevel(logging.INFO)
    return app
