"""The site's pages (lobby, Trambahn table) and their static files and catalogs."""

from pathlib import Path

from tramways.server.web.g1840_tiles import router as tiles_router
from tramways.server.web.pages import router
from tramways.server.web.previews import router as previews_router

router.include_router(tiles_router)
router.include_router(previews_router)

STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["STATIC_DIR", "router"]
