"""The application factory: ``create_app(ServerSettings(...))``."""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from tramways import __version__
from tramways.server.live import Hub
from tramways.server.service import ApiError, GameService
from tramways.server.storage import SQLITE_SYNCHRONOUS, Store, default_url, listen


@dataclass
class ServerSettings:
    """How the site runs.  ``database_url``: an SQLAlchemy URL (default: a SQLite file
    ``tramways.sqlite3`` in the working folder)."""

    database_url: str = field(default_factory=default_url)
    bot_workers: int = 2
    resume_bots: bool = True
    sqlite_synchronous: str = SQLITE_SYNCHRONOUS
    threads: int = 4
    """Worker threads for requests (the games' work is Python: more threads than cores only
    trade the GIL back and forth, and the event loop waits behind them)."""


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """The site: the JSON API under ``/api``, ``/healthz``, the pages and ``/static``."""
    settings = settings or ServerSettings()
    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
    service = GameService(store, bot_workers=settings.bot_workers)
    hub = Hub()
    service.add_listener(hub.publish)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if settings.resume_bots:
            service.resume_bots()
        stop = threading.Event()
        if store.is_postgres:  # moves written by other server processes wake our sockets too
            threading.Thread(
                target=listen,
                args=(store.url, lambda game_id, rev: hub.publish(game_id, rev), stop,
                      app.state.listening),
                name="listen",
                daemon=True,
            ).start()
        yield
        stop.set()
        service.close()
        store.close()

    app = FastAPI(
        title="tramways",
        version=__version__,
        description="Play 1840 Vienna Tramways and Trambahn: seats, views, moves, live updates.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.service = service
    app.state.hub = hub
    app.state.listening = threading.Event()  # set once the PostgreSQL LISTEN is in place

    @app.exception_handler(ApiError)
    async def _api_error(_request: object, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body, status_code=exc.status)

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, object]:
        store.rev("-")  # the database answers
        return {"ok": True, "version": __version__}

    from tramways.server.api import router as api_router
    from tramways.server.web import router as web_router

    app.include_router(api_router, prefix="/api")
    app.include_router(web_router)
    static = Path(__file__).parent / "web" / "static"
    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
    logging.getLogger("tramways.server").setLevel(logging.INFO)
    return app
