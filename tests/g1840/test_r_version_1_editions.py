"""R-VERSION-1: a record states the edition of the rulings it was played under.

``test_r_version_1_first_edition.record.json`` is a 2-player selfplay game (seed 0) played under
the first edition, written before records stated an edition (its settings have none).  At action
121 (CR6) the Stadtbahn company D stands at 81, the end of the bottom row, and moves 4 spaces:
R-CR-2 of the first edition goes up for every space (91, 101, 111, 121); the amended R-CR-2 goes
up once and then right along the longer row (91, 98, 106, 115).  Player 2 holds D's shares, so
the final wealth differs too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tramways.core.errors import RecordError
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.edition import LATEST, Edition
from tramways.g1840.game import GAME

RECORD = Path(__file__).with_name("test_r_version_1_first_edition.record.json")
MOVE = 121  # "GW done": the CR6 Stadtbahn runs follow, D pays and moves 4 spaces


def _record(edition: int | None) -> GameRecord:
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    if edition is not None:
        data["settings"]["edition"] = edition
    return GameRecord.from_data(data)


def test_r_version_1_a_record_without_edition_is_of_the_first_edition() -> None:
    record = _record(None)
    assert "edition" not in record.settings
    state = Session.from_record(record).state
    assert state.edition is Edition.FIRST
    assert state.market.climb_at_row_end


def test_r_version_1_first_edition_record_replays_as_played() -> None:
    before = Session.from_record(_record(None), upto=MOVE).state
    assert before.market.where["D"] == (4, 4) and before.price("D") == 81
    after = Session.from_record(_record(None), upto=MOVE + 1).state
    assert after.market.where["D"] == (0, 4) and after.price("D") == 121  # up, up, up, up
    end = Session.from_record(_record(None)).state
    assert end.is_over()
    assert end.result()["wealth"] == [649, 679]
    assert Session.from_record(_record(1)).state.result()["wealth"] == [649, 679]


def test_r_version_1_everything_that_starts_a_game_uses_the_newest_edition() -> None:
    """Sessions, the server and the research environments start games through
    ``settings_for_new_game``; a replayed record never does."""
    from tramways.core.game import settings_for_new_game
    from tramways.games import get_game

    assert settings_for_new_game(GAME, {"players": 2})["edition"] == int(LATEST)
    assert settings_for_new_game(GAME, {"players": 2, "edition": 1})["edition"] == 1
    assert "edition" not in settings_for_new_game(get_game("trambahn"), {})
    assert "edition" not in GAME.normalize_settings({"players": 2})  # a record: as it states


def test_r_version_1_show_names_an_older_edition() -> None:
    old = Session.from_record(_record(None)).state.view(None)
    assert old.edition == 1
    assert "rulings edition 1 (R-VERSION-1" in GAME.text_view(old).splitlines()[0]
    new = Session.new("1840", {"players": 2}, seed=1).state.view(None)
    assert new.edition == int(LATEST) and "edition" not in GAME.text_view(new).splitlines()[0]


def test_r_version_1_the_same_actions_move_differently_under_the_amended_r_cr_2() -> None:
    after = Session.from_record(_record(2), upto=MOVE + 1).state
    assert after.market.where["D"] == (3, 7) and after.price("D") == 115  # up, right x3
    end = Session.from_record(_record(2)).state
    assert end.is_over()
    assert end.result()["wealth"] == [649, 673]


def test_r_version_1_new_games_use_the_newest_edition() -> None:
    assert LATEST is Edition.SECOND
    session = Session.new("1840", {"players": 3}, seed=5)
    assert session.record.settings["edition"] == int(LATEST)
    assert session.state.edition is LATEST
    assert not session.state.market.climb_at_row_end
    old = Session.new("1840", {"players": 3, "edition": 1}, seed=5)  # chosen on purpose
    assert old.record.settings["edition"] == 1 and old.state.market.climb_at_row_end


def test_r_version_1_the_18xx_games_ruleset_goes_right_in_every_edition() -> None:
    """X-9 made the site's ruleset go right again in the first edition; the amended R-CR-2
    does the same, so an imported record replays alike with or without an edition."""
    for settings in ({"players": 2, "ruleset": "18xx.games"},
                     {"players": 2, "ruleset": "18xx.games", "edition": 1},
                     {"players": 2, "ruleset": "18xx.games", "edition": 2}):
        state = GAME.new_state(GAME.normalize_settings(settings), GAME.setup(
            GAME.normalize_settings(settings), 1), 1)
        assert not state.market.climb_at_row_end


@pytest.mark.parametrize("bad", [0, 3, "2", True, None, 1.5, [2]])
def test_r_version_1_an_unknown_edition_is_refused(bad: object) -> None:
    with pytest.raises(RecordError, match="edition"):
        GAME.normalize_settings({"players": 2, "edition": bad})
    data = json.loads(RECORD.read_text(encoding="utf-8"))
    data["settings"]["edition"] = bad
    with pytest.raises(RecordError, match="edition"):
        Session.from_record(GameRecord.from_data(data))
