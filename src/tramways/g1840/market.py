"""The share price chart (X): positions, stacking and the moves of X.2 / X.3.

Cells are ``(row, column)``, row 0 at the top, rows left-aligned and shorter lower down.  Each cell
holds a stack of company markers, top first; a marker moving onto an occupied cell goes under the
markers already there (X.1).
"""

from __future__ import annotations

from tramways.g1840.entities import entities

Cell = tuple[int, int]


class ShareMarket:
    """Where each company's share price marker stands."""

    __slots__ = ("rows", "where", "stacks", "climb_at_row_end")

    def __init__(self, climb_at_row_end: bool = False) -> None:
        self.rows = entities().market_rows
        self.where: dict[str, Cell] = {}
        self.stacks: dict[Cell, list[str]] = {}
        self.climb_at_row_end = climb_at_row_end
        """R-CR-2 of the first edition of the rulings (R-VERSION-1): once a right move reaches
        the end of its row, every remaining space goes up (see :meth:`move_dividend`)."""

    def price(self, company: str) -> int:
        row, col = self.where[company]
        return self.rows[row][col]

    def place(self, company: str, cell: Cell) -> None:
        """Put a marker on ``cell``, under any already there (X.1)."""
        old = self.where.get(company)
        if old == cell:
            return
        if old is not None:
            self.stacks[old].remove(company)
            if not self.stacks[old]:
                del self.stacks[old]
        self.where[company] = cell
        self.stacks.setdefault(cell, []).append(company)

    # --- single steps -------------------------------------------------------------------
    def _right(self, cell: Cell) -> Cell:
        row, col = cell
        if col + 1 < len(self.rows[row]):
            return (row, col + 1)
        return (row - 1, col) if row > 0 else cell

    def _left(self, cell: Cell) -> Cell:
        row, col = cell
        if col > 0:
            return (row, col - 1)
        return (row + 1, col) if row + 1 < len(self.rows) else cell

    def _down(self, cell: Cell) -> Cell:
        row, col = cell
        if row + 1 < len(self.rows) and col < len(self.rows[row + 1]):
            return (row + 1, col)
        return cell

    def _up(self, cell: Cell) -> Cell:
        row, col = cell
        return (row - 1, col) if row > 0 else cell

    # --- moves --------------------------------------------------------------------------
    def move_dividend(self, company: str, spaces: int) -> None:
        """X.2 / R-CR-2: ``spaces`` to the right, one space at a time: right if the row goes
        on, else one up, and after going up right again along the longer row (four spaces from
        230 at the end of its row: 240, 265, 290, 320); a negative number moves left, one down
        at the start of a row.  At a corner the marker stays.

        With :attr:`climb_at_row_end` (R-CR-2 of the first edition, R-VERSION-1) every space
        after the row end goes up: four spaces from 230 give 240, 250 and stay at 250."""
        cell = self.where[company]
        for _ in range(-spaces):  # a negative number: left (nothing for a positive one)
            cell = self._left(cell)
        if self.climb_at_row_end:  # right to the row's end, every remaining space up
            remaining = max(spaces, 0)
            while remaining and cell[1] + 1 < len(self.rows[cell[0]]):
                cell = (cell[0], cell[1] + 1)
                remaining -= 1
            for _ in range(remaining):
                cell = self._up(cell)
        else:
            for _ in range(spaces):
                cell = self._right(cell)
        self.place(company, cell)

    def move_down(self, company: str, spaces: int) -> None:
        """X.3: one space down per share sold; the bottom of a column stops the marker."""
        cell = self.where[company]
        for _ in range(spaces):
            cell = self._down(cell)
        self.place(company, cell)

    def move_up(self, company: str) -> None:
        """X.3: a sold-out tram company rises one space (not above the top row)."""
        self.place(company, self._up(self.where[company]))

    def order(self, companies: list[str]) -> list[str]:
        """VIII.4: highest price first; equal prices: rightmost cell first; same cell: top first."""

        def key(company: str) -> tuple[int, int, int]:
            cell = self.where[company]
            return (-self.price(company), -cell[1], self.stacks[cell].index(company))

        return sorted(companies, key=key)
