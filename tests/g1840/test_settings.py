"""The settings of a game of 1840 as a typed model (III.1, XII, R-VERSION-1): checked once,
written back as every record stores them."""

from __future__ import annotations

import pytest

from tramways.core.errors import RecordError
from tramways.g1840.edition import Edition
from tramways.g1840.game import GAME
from tramways.g1840.settings import Settings1840


def test_iii_1_settings_fill_their_defaults_and_write_the_records_json() -> None:
    s = Settings1840.from_json({"players": 3})
    assert s == Settings1840(players=3, names=("Player 1", "Player 2", "Player 3"))
    assert s.to_json() == {"players": 3, "small_map": False,
                           "names": ["Player 1", "Player 2", "Player 3"]}
    assert GAME.normalize_settings({"players": 3}) == s.to_json()


def test_r_version_1_an_edition_and_the_site_ruleset_are_kept_only_when_stated() -> None:
    given = {"players": 3, "small_map": True, "names": ["A", "B", "C"], "ruleset": "18xx.games",
             "edition": 2, "programs": True}
    s = Settings1840.from_json(given)
    assert s.edition is Edition.SECOND and s.ruleset == "18xx.games" and s.programs
    assert s.to_json() == given
    assert Settings1840.from_json(s.to_json()) == s
    assert "edition" not in Settings1840.from_json({"players": 2}).to_json()


@pytest.mark.parametrize(("settings", "message"), [
    ({"players": 7}, "players must be 2 to 6"),
    ({"players": True}, "players must be 2 to 6"),
    ({"players": 4, "small_map": True}, "the small map (XII) is for 3 players only"),
    ({"players": 3, "small_map": "yes"}, "small_map must be true or false"),
    ({"players": 2, "names": ["A"]}, "names must be 2 non-empty strings"),
    ({"players": 2, "ruleset": "house"}, "ruleset must be one of rules, 18xx.games"),
    ({"players": 2, "edition": 9}, "edition must be one of"),
    ({"players": 2, "programs": 1}, "programs must be true or false"),
    ({"players": 2, "colour": "red"}, "unknown settings colour"),
])
def test_iii_1_bad_settings_are_refused_naming_the_field(settings: dict, message: str) -> None:
    with pytest.raises(RecordError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Settings1840.from_json(settings)
