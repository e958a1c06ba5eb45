"""X Share price changes: the chart's edges, stacking and Table 6 (X.1-X.3, R-CR-2)."""

from __future__ import annotations

import pytest

from tramways.g1840.entities import entities
from tramways.g1840.market import ShareMarket


@pytest.mark.parametrize(
    ("total", "move"),
    [(0, -1), (10, 0), (90, 0), (100, 1), (190, 1), (200, 2), (390, 2), (400, 3), (590, 3),
     (600, 4), (990, 4), (1000, 5), (1490, 5), (1500, 6), (2490, 6), (2500, 7), (9000, 7)],
)
def test_x2_table_6_dividend_moves(total: int, move: int) -> None:
    assert entities().dividend_move(total) == move


def test_x2_r_cr_2_right_at_row_end_moves_up_then_right_again() -> None:
    m = ShareMarket()
    m.place("A", (3, 8))  # 125, second to last of a row of 10
    m.move_dividend("A", 3)  # R-CR-2: right to 137, up to 147, right again to 160
    assert m.where["A"] == (2, 10) and m.price("A") == 160


@pytest.mark.parametrize(("spaces", "price"), [(1, 240), (2, 265), (3, 290), (4, 320)])
def test_x2_r_cr_2_four_spaces_from_230(spaces: int, price: int) -> None:
    """R-CR-2's example: four spaces from 230 at the end of its row: 240, 265, 290, 320."""
    m = ShareMarket()
    m.place("A", (2, 14))  # 230, the last space of row 2
    m.move_dividend("A", spaces)
    assert m.price("A") == price


@pytest.mark.parametrize(("spaces", "price"), [(1, 240), (2, 250), (3, 250), (4, 250)])
def test_x2_r_version_1_first_edition_r_cr_2_climbs_for_every_space(spaces: int,
                                                                      price: int) -> None:
    """R-VERSION-1: R-CR-2 of the first edition goes up for every space after the row end
    (and stays on the top row)."""
    m = ShareMarket(climb_at_row_end=True)
    m.place("A", (2, 14))
    m.move_dividend("A", spaces)
    assert m.price("A") == price
    m.place("B", (3, 8))  # 125: right to 137, then up twice to 157
    m.move_dividend("B", 3)
    assert m.where["B"] == (1, 9) and m.price("B") == 157


def test_x2_r_version_1_the_edition_travels_with_a_copy() -> None:
    from .test_game_support import make

    first = make(2, edition=None)  # no edition stated: the first (R-VERSION-1)
    assert first.market.climb_at_row_end and first.clone().market.climb_at_row_end
    assert not make(2).clone().market.climb_at_row_end  # new games: the newest
    assert not make(2, ruleset="18xx.games").clone().market.climb_at_row_end


def test_x2_top_right_corner_stays() -> None:
    m = ShareMarket()
    m.place("A", (0, 19))
    m.move_dividend("A", 2)
    assert m.where["A"] == (0, 19) and m.price("A") == 400


def test_x2_left_at_row_start_moves_down_and_bottom_left_stays() -> None:
    m = ShareMarket()
    m.place("A", (2, 0))
    m.move_dividend("A", -1)
    assert m.where["A"] == (3, 0) and m.price("A") == 70
    m.place("A", (4, 0))
    m.move_dividend("A", -1)
    assert m.where["A"] == (4, 0) and m.price("A") == 60


def test_x3_down_stops_at_the_bottom_of_a_column() -> None:
    m = ShareMarket()
    m.place("A", (2, 12))  # 190: no cell below in the 10-long row 3
    m.move_down("A", 1)
    assert m.where["A"] == (2, 12)
    m.place("A", (1, 3))
    m.move_down("A", 5)
    assert m.where["A"] == (4, 3) and m.price("A") == 75


def test_x3_up_stops_at_the_top() -> None:
    m = ShareMarket()
    m.place("A", (0, 5))
    m.move_up("A")
    assert m.where["A"] == (0, 5)


def test_x1_marker_moving_onto_occupied_space_goes_under() -> None:
    m = ShareMarket()
    m.place("A", (2, 2))
    m.place("B", (2, 3))
    m.move_dividend("B", -1)
    assert m.stacks[(2, 2)] == ["A", "B"]
    assert m.order(["B", "A"]) == ["A", "B"]  # VIII.4: the top marker is higher


def test_viii4_equal_price_on_different_cells_rightmost_first() -> None:
    m = ShareMarket()
    m.place("A", (2, 2))  # 90
    m.place("B", (1, 0))  # 90
    m.place("C", (0, 3))  # 115
    assert m.order(["A", "B", "C"]) == ["C", "A", "B"]


def test_x1_a_marker_leaving_a_shared_space_leaves_that_stack() -> None:
    m = ShareMarket()
    m.place("A", (2, 2))
    m.place("B", (2, 2))
    m.place("C", (2, 2))
    assert m.stacks[(2, 2)] == ["A", "B", "C"]
    m.move_dividend("B", 1)
    assert m.stacks[(2, 2)] == ["A", "C"] and m.stacks[(2, 3)] == ["B"]
    m.move_dividend("A", 1)  # onto B's space: under B (X.1)
    assert m.stacks[(2, 2)] == ["C"] and m.stacks[(2, 3)] == ["B", "A"]
    m.move_dividend("C", 1)
    assert (2, 2) not in m.stacks and m.stacks[(2, 3)] == ["B", "A", "C"]
    assert m.order(["C", "A", "B"]) == ["B", "A", "C"]  # VIII.4: top first
    m.move_dividend("C", 0)  # staying put keeps the place in the stack
    assert m.stacks[(2, 3)] == ["B", "A", "C"]


def test_x3_down_at_the_exact_end_of_a_shorter_row() -> None:
    m = ShareMarket()
    m.place("A", (2, 9))  # 147: row 3 has 10 spaces, its last is column 9
    m.move_down("A", 1)
    assert m.where["A"] == (3, 9) and m.price("A") == 137
    m.move_down("A", 1)  # row 4 has 5 spaces: no cell below, the marker stops
    assert m.where["A"] == (3, 9)
    m.place("B", (3, 4))  # 91 above the last space of row 4
    m.move_down("B", 2)
    assert m.where["B"] == (4, 4) and m.price("B") == 81
    m.place("C", (2, 10))  # 160: one past the end of row 3
    m.move_down("C", 3)
    assert m.where["C"] == (2, 10)


@pytest.mark.parametrize("ruleset", ["rules", "18xx.games"])
def test_x2_r_cr_2_right_at_the_end_of_row_1_goes_up_and_the_top_row_end_stays(
        ruleset: str) -> None:
    """R-CR-2 (amended) and the site (X-9): row 1 is as long as the top row: from its end the
    marker goes up to 400, and the end of the top row stops it."""
    from .test_game_support import make

    m = make(2, ruleset=ruleset).market
    m.place("A", (1, 18))  # 350
    m.move_dividend("A", 1)
    assert m.where["A"] == (1, 19) and m.price("A") == 380
    m.move_dividend("A", 1)
    assert m.where["A"] == (0, 19) and m.price("A") == 400
    m.move_dividend("A", 3)
    assert m.where["A"] == (0, 19)
    m.place("B", (1, 19))
    m.move_dividend("B", 4)
    assert m.where["B"] == (0, 19)
    m.place("C", (0, 17))  # 330: 360, 400, then the corner holds it
    m.move_dividend("C", 5)
    assert m.where["C"] == (0, 19) and m.price("C") == 400


def test_x2_r_version_1_first_edition_at_the_end_of_row_1_climbs_to_400() -> None:
    m = ShareMarket(climb_at_row_end=True)
    m.place("A", (1, 18))
    m.move_dividend("A", 3)  # 380, then up to 400 and the top row holds it
    assert m.where["A"] == (0, 19) and m.price("A") == 400


def test_x2_left_from_the_second_space_stays_in_its_row() -> None:
    m = ShareMarket()
    m.place("A", (3, 1))  # 75: one left is 70 in the same row, not a move down
    m.move_dividend("A", -1)
    assert m.where["A"] == (3, 0) and m.price("A") == 70


def test_x2_left_at_the_start_of_row_3_moves_down_to_the_bottom_row() -> None:
    m = ShareMarket()
    m.place("A", (3, 0))  # 70 at the start of row 3: down to 60, then the corner holds it
    m.move_dividend("A", -1)
    assert m.where["A"] == (4, 0) and m.price("A") == 60
    m.place("B", (2, 0))  # 80: down twice, 70 then 60
    m.move_dividend("B", -2)
    assert m.where["B"] == (4, 0)


@pytest.mark.parametrize("climb", [False, True])
def test_x2_no_space_leaves_the_marker_where_it_stands(climb: bool) -> None:
    """X.2 with no space to move (either edition of R-CR-2): the marker stays, and a left move
    in the climbing edition does not run on to the right afterwards."""
    m = ShareMarket(climb_at_row_end=climb)
    m.place("A", (3, 8))
    m.move_dividend("A", 0)
    assert m.where["A"] == (3, 8)
    m.move_dividend("A", -2)
    assert m.where["A"] == (3, 6)
