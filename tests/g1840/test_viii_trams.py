"""VIII.5.3 Trams on the charter: one per line, spares, rearranging and scrapping."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.actions import Arrange
from tramways.g1840.mechanics import trams

from .test_game_support import play, two_player_after_sr1


def wt_with(lines: list[int], tram_list: list[str | None]):
    s = two_player_after_sr1()
    wt = s.companies["WT"]
    wt.lines = lines
    for line in lines:
        s.line_owner[line] = "WT"
    wt.trams = tram_list
    return s, wt


def test_viii5_3_a_single_tram_can_move_to_another_line() -> None:
    s, wt = wt_with([1, 3], ["yellow"])
    assert s.tram_of(1) == "yellow" and s.tram_of(3) is None
    assert trams.arrangements(wt) == [("none", "yellow")]
    assert Arrange(company="WT", colours=("none", "yellow")) in s.legal_actions(1)
    play(s, "WT arrange none,yellow")
    assert s.tram_of(1) is None and s.tram_of(3) == "yellow"
    assert s.lines_with_trams() == [3]


def test_viii5_3_buying_fills_the_line_without_a_tram_first() -> None:
    s, wt = wt_with([1, 3], [None, "yellow"])
    play(s, "WT buy orange")
    assert wt.trams == ["orange", "yellow"]


def test_viii5_3_scrapping_a_running_tram_lets_a_spare_take_the_line() -> None:
    s, wt = wt_with([1], ["yellow", "orange"])
    play(s, "WT scrap yellow")
    assert wt.trams == ["orange"] and s.tram_of(1) == "orange"


def test_viii5_3_scrapping_a_spare() -> None:
    s, wt = wt_with([1], ["orange", "yellow", "orange"])
    play(s, "WT scrap yellow")
    assert wt.trams == ["orange", "orange"]


def test_viii5_3_arrangement_must_use_the_companys_trams() -> None:
    s, _ = wt_with([1, 3], ["yellow", "orange"])
    refused("VIII.5.3", play, s, "WT arrange orange,orange")
    refused("VIII.5.3", play, s, "WT arrange none,yellow,orange")  # a spare while a line has none
    play(s, "WT arrange orange,yellow")
    assert s.tram_of(1) == "orange"


def test_viii5_3_keeping_the_arrangement_is_not_an_arrangement() -> None:
    """Rearranging means changing which line runs what: the unchanged assignment is not listed,
    so it is refused (the engine accepts exactly what it lists, IV.1.2 property test)."""
    s, wt = wt_with([1, 3], ["yellow", "orange"])
    assert Arrange(company="WT", colours=("yellow", "orange")) not in s.legal_actions(1)
    refused("VIII.5.3", play, s, "WT arrange yellow,orange")
    assert wt.trams == ["yellow", "orange"]


def test_table_7_maintenance_by_newest_colour_ever_bought() -> None:
    s, wt = wt_with([1], [])
    play(s, "WT buy yellow")
    assert s.trams.newest == "yellow"
    assert s.route_context(1).maintenance == 0
    play(s, "WT buy orange")
    assert s.trams.newest == "orange"
    s.trams.newest = "purple"
    assert s.route_context(1).maintenance == -400  # the yellow tram runs line 1
    wt.trams = ["purple"]
    assert s.route_context(1).maintenance == 200
