"""Pictures of the 1840 board: SVG (:func:`render_svg`) and PNG (:func:`render_png`).

* :mod:`~tramways.g1840.render.geometry` - the hex grid, edges and track curves;
* :mod:`~tramways.g1840.render.layout` - where each revenue location sits in its hex;
* :mod:`~tramways.g1840.render.hexview` - one hex as drawn (tile, track pieces, spots);
* :mod:`~tramways.g1840.render.features` - terrain, track, halts, interchanges, markers;
* :mod:`~tramways.g1840.render.labels` - revenue boxes, names, ids and signs;
* :mod:`~tramways.g1840.render.palette` - every colour, as data (18 line colours);
* :mod:`~tramways.g1840.render.svg` / :mod:`~tramways.g1840.render.png` - the documents.
"""

from tramways.g1840.render.palette import LINE_COLOURS, STADTBAHN_COLOURS
from tramways.g1840.render.png import render_png
from tramways.g1840.render.svg import render_svg

__all__ = ["LINE_COLOURS", "STADTBAHN_COLOURS", "render_png", "render_svg"]
