"""Tiny helpers that write SVG elements as strings (no XML library needed)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from xml.sax.saxutils import escape

from tramways.g1840.render.geometry import fmt


def _attrs(attrs: Mapping[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = fmt(value)
        parts.append(f' {name}="{escape(str(value), {chr(34): "&quot;"})}"')
    return "".join(parts)


def tag(name: str, content: str | None = None, **attrs: Any) -> str:
    """One SVG element; ``class_`` -> ``class``, ``stroke_width`` -> ``stroke-width``."""
    if content is None:
        return f"<{name}{_attrs(attrs)}/>"
    return f"<{name}{_attrs(attrs)}>{content}</{name}>"


def text(x: float, y: float, content: str, size: float, **attrs: Any) -> str:
    attrs.setdefault("text_anchor", "middle")
    attrs.setdefault("dominant_baseline", "central")
    return tag("text", escape(content), x=x, y=y, font_size=size, **attrs)


def halo_text(x: float, y: float, content: str, size: float, **attrs: Any) -> str:
    """Text with a white outline underneath, readable over track."""
    halo = dict(attrs, fill="#ffffff", stroke="#ffffff", stroke_width=size * 0.25)
    halo["stroke_linejoin"] = "round"
    return text(x, y, content, size, **halo) + text(x, y, content, size, **attrs)


def group(items: Iterable[str], **attrs: Any) -> str:
    return tag("g", "".join(items), **attrs)


def svg_root(body: str, width: float, height: float, **attrs: Any) -> str:
    """The ``<svg>`` element of a drawing (the board, a tile): its size, its view box and the
    board's fonts, then ``attrs``."""
    return tag("svg", body, xmlns="http://www.w3.org/2000/svg", width=width, height=height,
               viewBox=f"0 0 {fmt(width)} {fmt(height)}",
               font_family="DejaVu Sans, Verdana, Arial, sans-serif", **attrs)
