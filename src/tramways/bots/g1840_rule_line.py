"""The rule bot's Line Round turn (IX), from its view only.

A line scraps a tram that would run at a loss (Table 7, R-LR-8); otherwise it weighs each
tile lay (IX.4, IX.5), station marker (IX.6) and Stadtbahn marker removal it may make by what
its best run gains over the Line Rounds left (the exact router on a copy of the board, IX.8),
plus the runs of the Stadtbahn companies its director holds shares of, the stops it newly
reaches and (with a track weight) the hex sides its track newly arrives at (IX.2), and takes
the best that gains anything; else it skips a Stadtbahn bonus, runs, or ends the turn.

Also the small helpers the rule bot's decisions share: :func:`first_of`, :func:`all_of` and
:class:`Firsts` (the first action of each class of a long list, found in one pass).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tramways.bots.g1840_model import ViewModel
from tramways.core import Action
from tramways.g1840.actions import (
    EndTurn,
    LayTile,
    PlaceStation,
    RemoveMarker,
    Run,
    ScrapTram,
    SkipBonus,
)
from tramways.g1840.legality.context import SimpleBuildState
from tramways.g1840.legality.stadtbahn import (
    BONUS_RED,
    BONUS_UPGRADE,
    BONUS_YELLOW,
    TILE_BONUSES,
    legal_bonus_lays,
)
from tramways.g1840.view_types import View1840

Choice = tuple[Action, str]
"""An action and the one-line reason for it."""


UNUSABLE_BONUS = 0.25
"""The share of a Stadtbahn tile's bonus worth (``Budget.stadtbahn_bonus``) still counted, with
``Budget.use_bonus``, when its tile-laying bonus could not be taken after it: the tile still
builds its Stadtbahn line, and the line's own lay may come first to make the bonus usable."""

WAITING_BONUSES = (BONUS_YELLOW, BONUS_UPGRADE, BONUS_RED)
"""The tile-laying bonuses whose Stadtbahn tile counts at :data:`UNUSABLE_BONUS` when its tile
could not be laid.  Not the purple railway station (R-LR-11: one bonus fewer than purple
hexes): G's purple hex C13 lies mid-line, and waiting for a line that reaches a railway
station left G unbuilt in 4 of 10 games."""

WEIGHED = (LayTile, PlaceStation, RemoveMarker)
"""The actions a line's turn weighs (IX.4, IX.6): all others score nothing."""


def first_of(legal: Sequence[Action], kind: type | tuple[type, ...]) -> Action | None:
    """The first action of ``kind`` in ``legal`` (``None``: none)."""
    for a in legal:
        if isinstance(a, kind):
            return a
    return None


def all_of(legal: Sequence[Action], kind: type | tuple[type, ...]) -> list[Action]:
    """Every action of ``kind`` in ``legal``, in its order."""
    return [a for a in legal if isinstance(a, kind)]


class Firsts:
    """The first action of each class in ``actions``, found in one pass: the answers of
    :func:`first_of` for a list asked about many times (a Line Round's list holds hundreds of
    lays and private purchases, IX.4, IV.2)."""

    __slots__ = ("actions", "at")

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = actions
        # built from the end, so each class keeps its first index
        self.at: dict[type, int] = dict(zip(map(type, reversed(actions)),
                                            range(len(actions) - 1, -1, -1), strict=True))

    def first(self, kind: type | tuple[type, ...]) -> Action | None:
        """``first_of(actions, kind)``."""
        best = -1
        for t, i in self.at.items():
            if issubclass(t, kind) and (best < 0 or i < best):
                best = i
        return None if best < 0 else self.actions[best]


@dataclass
class Budget:
    """How much a turn may weigh: at most ``max_lays`` tile lays drawn with ``rng`` (``None``:
    all), until ``deadline`` (a ``time.perf_counter()`` value; ``None``: no limit); a lay
    scores ``track_weight`` per hex side its track newly arrives at, and a Stadtbahn tile lay
    (IX.4) scores ``stadtbahn_bonus`` less its cost for the bonus action it brings (R-LR-1;
    with ``use_bonus``, in full only when that bonus can be taken)."""

    max_lays: int | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    deadline: float | None = None
    track_weight: float = 0.0
    stadtbahn_bonus: float = 0.0
    use_bonus: bool = False
    """Play a Stadtbahn tile's tile-laying bonus (R-LR-1: an extra yellow tile, a green
    upgrade, a red or a purple tile) as people do: while it is pending only the bonus tiles
    are weighed, and the best that lowers nothing is laid (a normal lay would forfeit it and
    use up the line's own lay, IX.3); and the bonus counts in the Stadtbahn tile's worth at
    full only when a bonus tile could be laid right after it (R-LR-3: within reach of the
    line's markers), else at :data:`UNUSABLE_BONUS`."""


@dataclass(frozen=True)
class Before:
    """The line's figures before the action weighed: its best run without maintenance
    (``base``), the stops and (with a track weight) hex sides it reaches, the Line Rounds and
    Stadtbahn multipliers left, and the shares held of each Stadtbahn company with the value
    of its run now (for those held)."""

    base: int
    reach: int
    track: int
    rounds: int
    multipliers: int
    stadtbahn_shares: dict[str, int]
    stadtbahn_now: dict[str, int]


class LineTurn:
    """One decision of a line's turn (see the module docstring); ``scored`` receives every
    alternative weighed with its score, in the order weighed."""

    def __init__(self, view: View1840, model: ViewModel, legal: Sequence[Action],
                 main: list[Action], scored: list[tuple[float, Action]], budget: Budget) -> None:
        self.view = view
        self.m = model
        self.legal = legal
        self.main = main
        self.scored = scored
        self.budget = budget
        lt = view.round_info.line_turn
        turn = view.turn
        self.line_turn = lt
        self.line = (lt.line if lt is not None else None) \
            or (turn.line if turn is not None else None) or 0
        self.home_or_first = lt is not None and (lt.home_choice or lt.first)
        self.bonus_pending = budget.use_bonus and lt is not None and lt.bonus in TILE_BONUSES
        """A tile-laying bonus awaits its tile (R-LR-1), played as ``Budget.use_bonus`` says."""
        self.unusable: set[Action] = set()
        """The Stadtbahn tile lays weighed whose tile-laying bonus could not be taken after
        them (R-LR-1; only with ``Budget.use_bonus``)."""

    def decide(self) -> Choice:
        m, line, main = self.m, self.line, self.main
        firsts = Firsts(main)
        now = m.run_value(line)
        run = firsts.first(Run)
        if run is not None:
            scrap = self._scrap_at_a_loss(now)
            if scrap is not None:
                return scrap
        best = self._best_build()
        if best is not None:
            return best
        skip = firsts.first(SkipBonus)
        if skip is not None:
            return skip, "skip the bonus: it gains nothing"
        if run is not None:
            return run, f"run line {line} for {now}"
        end = firsts.first(EndTurn)
        if end is not None:
            return end, "end the turn"
        return main[0], "first choice"

    def _scrap_at_a_loss(self, now: int) -> Choice | None:
        """A tram running at a loss is scrapped first (Table 7, R-LR-8)."""
        tram = self.m.tram_of(self.line)
        if tram is None or now >= 0:
            return None
        scrap = next((a for a in self.legal if isinstance(a, ScrapTram) and a.colour == tram),
                     None)
        if scrap is None:
            return None
        return scrap, f"scrap the {tram} tram of line {self.line}: it would run {now}"

    def _best_build(self) -> Choice | None:
        """The lay, station or marker removal that scores most above 0 (the first of equal
        ones), weighed until the deadline.  The line's figures before are found only when
        something is weighed (after a lay, a line usually has nothing left to weigh)."""
        actions = self._weighed()
        if not actions:
            return None
        before = self._before()
        best: Choice | None = None
        best_score = -1e-9 if self.bonus_pending else 0.0  # a free bonus tile: >= 0 will do
        for a in actions:
            if self.budget.deadline is not None and best is not None \
                    and time.perf_counter() > self.budget.deadline:
                break  # out of time: the best lay weighed so far
            weighed = self._weigh(a, before)
            if weighed is None:
                continue
            score, why = weighed
            self.scored.append((score, a))
            if score > best_score:
                best, best_score = (a, why()), score
        return best

    def _before(self) -> Before:
        """The line's figures now, each lay, station and removal is weighed against."""
        m, line = self.m, self.line
        base = m.run_value(line, with_maintenance=False)
        reach = m.reach_size(line)
        track = m.reach_size(line, what="edges") if self.budget.track_weight else 0
        shares = {sid: m.player().shares.get(sid, 0) // 10 for sid in self.view.stadtbahn}
        multipliers = max(1, m.stadtbahn_multipliers_left())
        rounds = max(1, m.rounds_left("LR", include_current=True))
        now = {sid: m.stadtbahn_value(sid) for sid, k in shares.items() if k}
        return Before(base, reach, track, rounds, multipliers, shares, now)

    def _weighed(self) -> list[Action]:
        """The actions to weigh, in their order: every lay, station marker and removal, or
        with ``max_lays`` a sample of the lays and no station marker or removal but a home
        circle's (the other actions, such as a private's purchase at each price, IV.2, score
        nothing and are left out)."""
        main, budget = self.main, self.budget
        if self.bonus_pending:
            return self._bonus_lays()
        if budget.max_lays is None:
            return [a for a in main if isinstance(a, WEIGHED)]
        lays = [a for a in main if isinstance(a, LayTile)]
        keep = set(budget.rng.sample(lays, min(len(lays), budget.max_lays)))
        if self.line_turn is not None and self.line_turn.home_choice:
            return [a for a in main if isinstance(a, WEIGHED)]
        return [a for a in lays if a in keep]

    def _bonus_lays(self) -> list[Action]:
        """The lays of ``main`` that take the pending bonus (R-LR-1), in their order."""
        lt = self.line_turn
        assert lt is not None and lt.bonus is not None
        board = self.m.board
        state = SimpleBuildState(board, self.m.phase, _operated(board))
        try:
            ok = {(t.coord, t.tile_id, t.rotation)
                  for t in legal_bonus_lays(state, self.line, lt.bonus)}
        except (ValueError, KeyError):
            return []
        return [a for a in self.main
                if isinstance(a, LayTile) and (a.hex, a.tile, a.rotation) in ok]

    def _weigh(self, a: Action, before: Before) -> tuple[float, Callable[[], str]] | None:
        """``a``'s score and its reason (made only for the best), or ``None``: not weighed."""
        if isinstance(a, LayTile):
            return self._lay(a, before)
        if isinstance(a, PlaceStation):
            return self._station(a, before)
        if isinstance(a, RemoveMarker):
            return self._removal(a, before)
        return None

    def _lay(self, a: LayTile, before: Before) -> tuple[float, Callable[[], str]]:
        """A lay: the run's gain over the Line Rounds left, the Stadtbahn runs' gain for the
        shares held (times the multipliers to come, VIII.5.2), 2 per stop newly reached, and
        the track weight per hex side newly reached."""
        m, line, base = self.m, self.line, before.base
        change = ("lay", a.hex, a.tile, a.rotation)
        boards: list[Any] = []

        def laid(lay: Any = a, boards: list[Any] = boards) -> Any:
            if not boards:
                boards.append(m.after_lay(lay.hex, lay.tile, lay.rotation))
            return boards[0]

        after = m.run_value(line, board=laid, with_maintenance=False, change=change)
        gain = float(after - base) * before.rounds
        for sid, value in before.stadtbahn_now.items():
            gain += ((m.stadtbahn_value(sid, laid, change) - value)
                     * before.stadtbahn_shares[sid] * before.multipliers / 10)
        grow = m.reach_size(line, laid, change) - before.reach
        score = gain + 2.0 * grow
        longer = 0
        if self.budget.track_weight:
            longer = m.reach_size(line, laid, change, "edges") - before.track
            score += self.budget.track_weight * longer
        bonus = self._stadtbahn_bonus(a, laid)
        score += bonus

        def why() -> str:
            text = f"lay {a.tile} on {a.hex}: best run {base} -> {after}"
            if grow > 0 and after == base:
                text += f", reaches {grow} more stops"
            elif longer > 0 and after == base:
                text += f", its track reaches {longer} more hex sides"
            if bonus:
                text += ", a Stadtbahn tile with its bonus action"
            return text

        return score, why

    def _stadtbahn_bonus(self, a: LayTile, laid: Callable[[], Any]) -> float:
        """What a Stadtbahn tile lay (IX.4) is worth beside the runs: the bonus action printed
        on its hex (R-LR-1) less the lay's cost; 0 for any other lay or without the option.
        With ``use_bonus``, a tile-laying bonus that no tile could take on the board after
        the lay (``laid()``) counts only :data:`UNUSABLE_BONUS` of its worth."""
        if not self.budget.stadtbahn_bonus:
            return 0.0
        board = self.m.board
        hexdef = board.layout.hexes.get(a.hex)
        if hexdef is None or hexdef.stadtbahn is None or board.tile(a.hex) is not None:
            return 0.0
        cost = hexdef.lay_cost or self.m.ent.stadtbahn_tile_cost
        bonus = hexdef.stadtbahn.bonus_action
        if self.budget.use_bonus and bonus in WAITING_BONUSES \
                and not self._bonus_tile_after(laid(), bonus):
            self.unusable.add(a)
            return self.budget.stadtbahn_bonus * UNUSABLE_BONUS - cost
        return self.budget.stadtbahn_bonus - cost

    def stadtbahn_lay(self, a: Action) -> bool:
        """Whether ``a`` lays a Stadtbahn tile (IX.4: a yellow tile on an empty light-orange
        hex), not a normal lay or upgrade."""
        if not isinstance(a, LayTile):
            return False
        board = self.m.board
        hexdef = board.layout.hexes.get(a.hex)
        return hexdef is not None and hexdef.stadtbahn is not None and board.tile(a.hex) is None

    def _bonus_tile_after(self, board: Any, bonus: str) -> bool:
        """Whether the line could lay the tile of ``bonus`` on ``board`` (R-LR-1, R-LR-3)."""
        if board is None:
            return False
        state = SimpleBuildState(board, self.m.phase, _operated(board))
        try:
            return bool(legal_bonus_lays(state, self.line, bonus))
        except (ValueError, KeyError):
            return False

    def _station(self, a: PlaceStation, before: Before
                 ) -> tuple[float, Callable[[], str]] | None:
        """A station marker (IX.6): the run's gain over the Line Rounds left less the marker's
        cost; the home circle or a first turn's marker comes first."""
        m, line, base = self.m, self.line, before.base
        board = m.after_marker(a.hex, a.location, line)
        if board is None:
            return None
        after = m.run_value(line, board=board, with_maintenance=False,
                            change=("station", a.hex, a.location, line))
        markers = len(m.board.line_markers(line))
        cost = m.ent.station_marker_costs[min(markers, 5)]
        score = (after - base) * before.rounds - cost
        if self.home_or_first:
            score += 1000
        return score, lambda: f"station on {a.hex}.{a.location}: best run {base} -> {after}"

    def _removal(self, a: RemoveMarker, before: Before
                 ) -> tuple[float, Callable[[], str]] | None:
        """Removing a Stadtbahn marker: the run's gain less the removal's cost and 50 per
        share held of that Stadtbahn company."""
        m, line, base = self.m, self.line, before.base
        owner = _marker_owner(m, a.hex, a.location)
        if owner is None:
            return None
        board = m.after_marker(a.hex, a.location, owner, remove=True)
        if board is None:
            return None
        after = m.run_value(line, board=board, with_maintenance=False,
                            change=("remove", a.hex, a.location, owner))
        score = (after - base) * before.rounds - m.ent.marker_removal_cost
        held = before.stadtbahn_shares
        if owner in held and held[owner]:
            score -= 50 * held[owner]
        return score, lambda: (f"remove the {owner} marker on {a.hex}: best run "
                               f"{base} -> {after}")


def _operated(board: Any) -> set[int]:
    """The lines with a marker on ``board``: those that have placed their home (IX.6)."""
    return {o for ms in board.all_markers().values() for owners in ms.values()
            for o in owners if isinstance(o, int)}


def _marker_owner(m: ViewModel, coord: str, location: int) -> Any:
    """The Stadtbahn company whose marker stands on ``coord.location`` (``None``: none)."""
    for o in m.board.markers(coord).get(location, ()):
        if isinstance(o, str):
            return o
    return None
