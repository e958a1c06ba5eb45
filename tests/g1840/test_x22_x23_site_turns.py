"""The 18xx.games ruleset's X-22 and X-23 (proposed; issue 22, found by exporting our games to
the site's engine): the site never asks an owner's consent when a line buys a private, and it
returns a private or scraps a tram only for the side acting now, in a Company or Line Round."""

from __future__ import annotations

import pytest

from tramways.core.errors import IllegalAction

from .test_game_support import play, two_player_after_sr1, two_player_sr2

X18 = "18xx.games"


def test_x23_no_private_returned_in_a_share_round_on_the_site() -> None:
    s = two_player_sr2(X18)
    assert s.round.name == "SR2" and s.current_players() == [0]
    assert not [a for a in s.legal_actions(0) if type(a).__name__ == "ReturnPrivate"]
    with pytest.raises(IllegalAction, match="X-23"):
        play(s, "P1 return KK")
    rules = two_player_sr2()
    play(rules, "P1 return KK")  # IV.2: at any time
    assert "KK" not in rules.players[0].privates


def test_x23_only_the_acting_company_scraps_on_the_site() -> None:
    s = two_player_after_sr1(X18)
    play(s, "WT buy yellow", "WT done")
    assert s.sub.turn_view(s).company == "SJE"
    with pytest.raises(IllegalAction, match="X-23"):
        play(s, "WT scrap yellow")  # WT is not acting now
    rules = two_player_after_sr1()
    assert any(type(a).__name__ == "ScrapTram" for a in rules.anytime_actions(1)
               if getattr(a, "company", None) == "WT") or not rules.companies["WT"].owned()


def test_x22_a_line_buys_another_players_private_without_an_offer() -> None:
    from tramways.g1840.ruleset import RULES, SITE

    assert SITE.sale_without_consent and not RULES.sale_without_consent
