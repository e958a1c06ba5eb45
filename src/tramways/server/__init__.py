"""The tramways site: the JSON API, live updates, bots in seats, and the pages.

``create_app(settings)`` builds the ASGI application (FastAPI); ``tramways serve`` runs it
with uvicorn.  See docs/server.md for the API.
"""

from tramways.server.app import ServerSettings, create_app

__all__ = ["ServerSettings", "create_app"]
