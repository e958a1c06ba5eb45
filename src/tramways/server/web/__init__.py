"""The site's pages (lobby, Trambahn table) and their static files and catalogs."""

from pathlib import Path

from tramways.server.web.pages import router

STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["STATIC_DIR", "router"]
