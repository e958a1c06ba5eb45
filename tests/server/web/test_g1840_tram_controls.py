"""The tram controls of the 1840 page (issue 23, item 4), in process over a whole rule-bot
game (seed 7): the reassignment is a small editor, scrapping is offered in sight only where
it makes sense (VIII.5.3, Table 7)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

pytest.importorskip("fastapi")

from tramways.bots.base import make_bot  # noqa: E402
from tramways.core import Session  # noqa: E402
from tramways.g1840.entities import entities  # noqa: E402
from tramways.g1840.view_types import View1840, as_view1840  # noqa: E402
from tramways.server.web.g1840_controls import Choice, group_legal, scrap_makes_sense  # noqa: E402


@dataclass
class Seen:
    """The tram choices of every position of the game: (view, choice)."""

    scrap: list[tuple[View1840, Choice]] = field(default_factory=list)
    arrange: list[tuple[View1840, Choice]] = field(default_factory=list)


@pytest.fixture(scope="module")
def seen() -> Seen:
    session = Session.new("1840", {}, 7)
    bots = [make_bot("rule", session.game) for _ in range(4)]
    rng = random.Random(7)
    out = Seen()
    while not session.state.is_over():
        seat = session.state.current_players()[0]
        legal = session.legal_notation(seat)
        if any(a.split()[1] in ("scrap", "arrange") for a in legal):
            view = as_view1840(session.state.view(seat))
            for c in group_legal(legal, view):
                if c.kind in ("scrap", "arrange"):
                    getattr(out, c.kind).append((view, c))
        action = bots[seat].choose(session.state.view(seat),
                                   session.state.legal_actions(seat), rng)
        session.play(session.game.format_action(action), seat)
    return out


def test_viii_5_3_scrapping_is_in_sight_for_a_costly_tram_or_at_the_tram_limit() -> None:
    """Table 7: a yellow tram under a red newest costs its run 50: in sight; a yellow under
    an orange newest runs at no cost: folded, unless the company is at its tram limit; a
    spare is in sight only at the limit."""
    ent = entities()
    assert ent.maintenance_for("yellow", "red") == -50
    assert scrap_makes_sense(-50, spare=False, at_limit=False)
    assert ent.maintenance_for("yellow", "orange") == 0
    assert not scrap_makes_sense(0, spare=False, at_limit=False)
    assert scrap_makes_sense(0, spare=False, at_limit=True)
    assert not scrap_makes_sense(0, spare=True, at_limit=False)
    assert scrap_makes_sense(0, spare=True, at_limit=True)


def test_viii_5_3_every_scrap_of_a_whole_game_is_folded_unless_it_makes_sense(seen: Seen
                                                                             ) -> None:
    ent = entities()
    folded = shown = 0
    for view, c in seen.scrap:
        company = view.companies[c.actor]
        owned = [t for t in company.trams if t]
        running = [t for t in company.trams[:len(company.lines)] if t]
        for o in c.options:
            colour = o.notation.split()[2]
            upkeep = ent.maintenance_for(colour, view.trams.newest or colour)
            sensible = (upkeep < 0 and colour in running) or len(owned) >= ent.max_trams
            assert o.folded is not sensible, (o.notation, company.trams, view.trams.newest)
            assert o.confirm is not None  # it asks first, folded or not
            english = o.label.english()
            if colour in running:
                assert f"(maintenance {upkeep:+d})" in english, english
            folded += o.folded
            shown += not o.folded
    assert folded > 100 and shown > 10, (folded, shown)


def test_viii_5_3_the_reassignment_editor_offers_each_line_the_colours_of_the_legal_moves(
        seen: Seen) -> None:
    """Per line, its tram now (selected) and every colour a legal arrangement gives it; every
    legal arrangement can be composed in the editor, and the arrangement as it is is not one
    of them (the page sends nothing for it)."""
    assert len(seen.arrange) > 10
    for view, c in seen.arrange:
        company = view.companies[c.actor]
        assert [line.line for line in c.lines] == list(company.lines)
        now = [company.tram_of(line) or "none" for line in company.lines]
        assert [line.current for line in c.lines] == now
        for notation in c.notations:
            colours = notation.split()[2].split(",")[:len(company.lines)]
            assert all(col in line.colours for col, line in zip(colours, c.lines, strict=True))
            assert colours != now
        for line in c.lines:
            assert set(line.colours) <= {*owned_or_none(company.trams), line.current}


def owned_or_none(trams: tuple[str | None, ...]) -> set[str]:
    return {t or "none" for t in trams} | {"none"}
