"""PNG pictures of the board: the SVG drawing rasterised by cairosvg.

cairosvg is an optional dependency (``pip install tramways[png]``) and needs the system's
libcairo; without it :func:`render_png` raises :class:`RenderError` with a one-line hint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.g1840.render.svg import DEFAULT_SIZE, render_svg

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class RenderError(TramwaysError):
    """The picture cannot be made (e.g. cairosvg or libcairo is missing)."""


def svg_to_png(svg: str, scale: float = 1.5) -> bytes:
    """Rasterise an SVG document; ``scale`` multiplies its size in pixels."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: libcairo itself is missing
        raise RenderError(
            f"PNG output needs cairosvg and libcairo ({exc.__class__.__name__}: {exc}); "
            "write .svg instead or install them (pip install 'tramways[png]')"
        ) from None
    data = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    if not isinstance(data, bytes) or not data.startswith(PNG_SIGNATURE):
        raise RenderError("cairosvg did not produce a PNG")
    return data


def render_png(
    board: Any,
    *,
    phase: str = "yellow",
    routes: Sequence[tuple[int, Any]] = (),
    title: str | None = None,
    scale: float = 1.5,
    size: float = DEFAULT_SIZE,
) -> bytes:
    """The board as PNG bytes (see :func:`~tramways.g1840.render.svg.render_svg`)."""
    return svg_to_png(
        render_svg(board, phase=phase, routes=routes, title=title, size=size), scale=scale
    )
