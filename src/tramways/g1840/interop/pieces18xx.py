"""Where the site's tile pieces lie, to find the hex of a station action.

18xx.games names a station by its city, ``TILE-COPY-CITY`` (``619-1-0``), not by its hex; a
printed hex's own tile is named after the hex (``E23-0-0``).  :class:`TilePieces` follows the
effective ``lay_tile`` actions (an upgrade sends the old piece back to the supply, from where it
may be laid again elsewhere), so :meth:`TilePieces.hex_of_city` answers for every
``place_token`` / ``remove_token`` at the moment it is played.  The city index is then turned
into our location id on that hex's tile by the board helper's
:func:`tramways.g1840.interop.trace_positions.city_location`.
"""

from __future__ import annotations

from tramways.g1840.interop.actions18xx import LayTile, split_city


class TilePieces:
    """Tile piece id (``6-1``) -> hex, as the effective actions lay them."""

    def __init__(self) -> None:
        self._hex_of: dict[str, str] = {}
        self._piece_on: dict[str, str] = {}

    def lay(self, action: LayTile) -> None:
        """Record a lay or upgrade: the hex's previous piece leaves the board."""
        previous = self._piece_on.pop(action.hex, None)
        if previous is not None:
            self._hex_of.pop(previous, None)
        old_hex = self._hex_of.pop(action.tile, None)
        if old_hex is not None:  # a piece cannot lie on two hexes
            self._piece_on.pop(old_hex, None)
        self._hex_of[action.tile] = action.hex
        self._piece_on[action.hex] = action.tile

    def hex_of_piece(self, piece: str) -> str:
        """The hex of a laid piece, or of a printed hex's own piece (``E23-0`` -> ``E23``).

        ``KeyError`` for a piece that is not on the board.
        """
        if piece in self._hex_of:
            return self._hex_of[piece]
        name, _, copy = piece.rpartition("-")
        if copy == "0" and _is_hex(name) and name not in self._piece_on:
            return name
        raise KeyError(piece)

    def hex_of_city(self, city: str) -> tuple[str, int]:
        """``"619-1-0"`` -> (hex, city index on that hex's tile)."""
        piece, index = split_city(city)
        return self.hex_of_piece(piece), index

    def piece_on(self, hexname: str) -> str | None:
        """The laid piece on a hex (``None`` while the printed hex shows)."""
        return self._piece_on.get(hexname)


def _is_hex(name: str) -> bool:
    return len(name) >= 2 and name[0].isalpha() and name[0].isupper() and name[1:].isdigit()
