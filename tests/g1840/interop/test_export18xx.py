"""``tramways export-18xx``: games of ours written for 18xx.games (issue 22).

The round trip ``import(export(g))`` gives the same game (:func:`same_game`: the same actions
and figures after every action); the site's engine (the shared oracle, run as a separate
program when ``ruby`` is here) loads the exports of a fixed sample without refusing any action
and reaches our figures after every one.  Games under the printed rules, set-ups the site
would not draw and sales at a recorded price (X-19) are refused in one line.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from tramways.cli import main
from tramways.core.record import GameRecord
from tramways.core.selfplay import play_game
from tramways.g1840.interop.export18xx import ExportError18xx, export_record
from tramways.g1840.interop.importer import import_export
from tramways.g1840.interop.log18xx import load_export, parse_export
from tramways.g1840.interop.probe import probe
from tramways.g1840.interop.roundtrip import oracle_dir, same_game, trace_with_oracle
from tramways.g1840.interop.trace import read_trace

SAMPLE = [  # (players, small map, seed, our actions kept): every player count and both maps
    (2, False, 8, 60),
    (3, False, 2, 100),
    (3, True, 3, 60),
    (4, False, 4, 60),
    (5, False, 5, 150),
    (6, False, 6, 45),
]


@cache
def _game(players: int, small: bool, seed: int, keep: int) -> GameRecord:
    settings = {"players": players, "ruleset": "18xx.games", "edition": 2}
    if small:
        settings["small_map"] = True
    record = play_game("1840", settings, seed).session.record
    return record.model_copy(update={"actions": record.actions[:keep]})


@pytest.mark.parametrize(("players", "small", "seed", "keep"), SAMPLE)
def test_x1_round_trip_import_of_export_is_the_same_game(players, small, seed, keep):
    record = _game(players, small, seed, keep)
    document = export_record(record)
    assert document["settings"]["seed"] == record.seed
    assert [p["name"] for p in document["players"]] == record.settings["names"]
    back = import_export(parse_export(document))
    assert back.setup["line_display"] == record.setup["line_display"]  # the site's draw
    assert same_game(record, back) is None


def test_x1_new_site_games_are_set_up_with_the_sites_draw():
    from tramways.g1840.interop.setup18xx import compute_setup

    record = _game(3, True, 3, 60)
    site = compute_setup(record.seed, 3, True).engine_setup()
    assert record.setup["tram_companies"] == site["tram_companies"]
    assert record.setup["line_deck"] == site["line_deck"]


def test_export_refuses_a_game_under_the_printed_rules():
    record = play_game("1840", {"players": 2}, 5, max_actions=10).session.record
    with pytest.raises(ExportError18xx, match="printed rules"):
        export_record(record)


def test_x19_a_sale_at_a_recorded_price_is_written_with_that_price(oracle_dir):
    """X-19 is an import detail (records of the site's random generator): such a sale goes
    back with its ``share_price``, which the site's engine pays as our import did."""
    from tramways.g1840.interop.importer import import_export as imported

    source = oracle_dir / "site-engine-games/fz2027_7_3p.json"
    record = imported(load_export(source))
    sale = next(t for t in record.actions if " sell " in t and " at " in t)
    document = export_record(record)
    sold = [a for a in document["actions"] if a["type"] == "sell_shares" and "share_price" in a]
    assert sale == "P3 sell G 3 at 195"
    assert [(a["percent"], a["share_price"]) for a in sold] == [(30, 195)]


def test_x1_export_refuses_a_set_up_the_site_would_not_draw():
    record = _game(2, False, 8, 60)
    setup = dict(record.setup, line_display=list(reversed(record.setup["line_display"])))
    with pytest.raises(ExportError18xx, match="line_display"):
        export_record(record.model_copy(update={"setup": setup}))


def test_cli_export_writes_the_file_and_refuses_in_one_line(tmp_path, capsys):
    game = tmp_path / "game.json"
    _game(3, True, 3, 60).save(game)
    out = tmp_path / "site.json"
    assert main(["export-18xx", str(game), "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["title"] == "1840" and data["settings"]["optional_rules"] == ["three_player_small"]
    assert load_export(out).small_map
    rules = tmp_path / "rules.json"
    play_game("1840", {"players": 2}, 5, max_actions=10).session.record.save(rules)
    capsys.readouterr()
    assert main(["export-18xx", str(rules), "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "printed rules" in err
    assert not (tmp_path / "x.json").exists()


@pytest.mark.skipif(oracle_dir() is None, reason="the 18xx.games oracle needs ruby")
@pytest.mark.parametrize(("players", "small", "seed", "keep"), SAMPLE)
def test_site_engine_loads_our_export_to_our_figures(tmp_path, players, small, seed, keep):
    oracle = oracle_dir()
    assert oracle is not None
    path = tmp_path / f"g{players}_{seed}.json"
    path.write_text(json.dumps(export_record(_game(players, small, seed, keep))),
                    encoding="utf-8")
    run = trace_with_oracle(path, tmp_path / "out", oracle)
    assert run.error is None
    result = probe(load_export(path), read_trace(run.trace))
    assert result.failure is None
