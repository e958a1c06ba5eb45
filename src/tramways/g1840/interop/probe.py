"""The probe: an export replayed through our engine as far as it goes (docs/interop.md).

:func:`probe` translates each effective site action (:class:`.translate.Translator`), plays
our actions, and with a trace compares every figure after every processed action; it reports
how far the export replays - legally, and figure for figure - and the first problem.
:mod:`.mapping` builds the record from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tramways.core.errors import IllegalAction, NotationError
from tramways.core.replay import Session
from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.errors import ImportError18xx
from tramways.g1840.interop.figures_view import figures_from_view
from tramways.g1840.interop.log18xx import EffectiveAction, Export18xx, effective_actions
from tramways.g1840.interop.setup18xx import ENGINE_COMPANY_ID, compute_setup
from tramways.g1840.interop.trace import (
    Trace,
    assignments_in_flux,
    bank_holdings,
    compare,
    in_view_gaps,
    is_assignment,
)
from tramways.g1840.interop.translate import (
    NotMapped,
    Translator,
    new_session,
)
from tramways.g1840.view_types import as_view1840


def _passes_a_mandatory_purchase(text: str, exc: Exception) -> bool:
    """Whether an optional ``CO done`` was refused because the company, without a tram, must
    buy one now (VIII.5.3, R-CR-5; X-18): the site never lets such a company pass, so an
    export that does is refused rather than left waiting for the purchase."""
    return (text.endswith(" done") and isinstance(exc, IllegalAction)
            and exc.rule == "VIII.5.3" and "must buy" in str(exc))


@dataclass
class ProbeResult:
    """How far an export replays: ``reached`` export entries replayed (all when it equals
    their number), our actions played, and the first problem."""

    reached: int
    played: list[str] = field(default_factory=list)
    failure: str | None = None
    ended_early: bool = False
    session: Session | None = field(default=None, repr=False, compare=False)


def _groups(effective: list[EffectiveAction]) -> Iterator[tuple[int, list[EffectiveAction]]]:
    group: list[EffectiveAction] = []
    for eff in effective:
        if group and eff.index != group[0].index:
            yield group[0].index, group
            group = []
        group.append(eff)
    if group:
        yield group[0].index, group


def post_run_buys_first(effective: list[EffectiveAction]) -> list[EffectiveAction]:
    """Move a line's ``buy_company`` played after its run (the site's BuyCompany step, action
    88) just before that run, where our engine allows it.  Only for probing: it can change the
    run's landmark bonus."""
    out = list(effective)
    for k, eff in enumerate(out):
        if not (isinstance(eff.action, a18.BuyCompany) and eff.action.entity.isdigit()):
            continue
        j = k - 1
        while j >= 0 and out[j].action.entity == eff.action.entity and not isinstance(
                out[j].action, a18.RunRoutes):
            j -= 1
        if j >= 0 and isinstance(out[j].action, a18.RunRoutes) and (
                out[j].action.entity == eff.action.entity):
            out.insert(j, out.pop(k))
    return out


def _skip_in_flux(path: str) -> bool:
    return in_view_gaps(path) or is_assignment(path)


def _only_passes_left(trace: Trace, effective: list[EffectiveAction], position: int,
                      site_round: str) -> bool:
    """X-17: whether the site's round goes on only with passes and reassignments (up to and
    including the one that ends it), so our engine, which settled those turns itself, is
    merely ahead (a reassignment that changed something shows in the next figures)."""
    for eff in effective[position:]:
        if not isinstance(eff.action, (a18.Pass, a18.ReassignTrains)):
            return False
        figures = trace.entries[eff.index].figures
        if figures is not None and figures.get("round") != site_round:
            return True
    return False


def _ahead_by_passes(trace: Trace, effective: list[EffectiveAction], position: int,
                     actual: dict[str, Any], skip: Any) -> bool:
    """X-17: whether our engine has settled by itself turns the site still asks, and the site's
    next actions, up to some point, are only passes and reassignments after which its figures
    equal ours (fz2027_9_4p action 126: WT, with nothing in its treasury, is asked to choose a
    line and passes; our engine passed for it and already revealed the new lines)."""
    ours = bank_holdings(actual)
    for eff in effective[position:]:
        if not isinstance(eff.action, (a18.Pass, a18.ReassignTrains)):
            return False
        figures = trace.entries[eff.index].figures
        if figures is not None and compare(bank_holdings(figures), ours, index=eff.index,
                                           action="", skip=skip) is None:
            return True
    return False


class _Stop(Exception):
    """The probe stops here (its result's ``failure`` or ``ended_early`` says why)."""


class _Prober:
    """One probe's state: the session, its translator, the actions held back (``emulate``)."""

    def __init__(self, export: Export18xx, trace: Trace | None, emulate: bool) -> None:
        setup18 = compute_setup(export.seed, len(export.players), export.small_map)
        self.export, self.trace, self.emulate = export, trace, emulate
        self.session = new_session(export, setup18)
        self.translator = Translator(export, self.session)
        self.companies = [ENGINE_COMPANY_ID[c] for c in setup18.tram_companies]
        self.privates = list(as_view1840(self.session.state.view(None)).privates)
        self.result = ProbeResult(reached=0, session=self.session)
        self.held: list[str] = []
        self.effective = effective_actions(export)
        if emulate:
            self.effective = post_run_buys_first(self.effective)
        self.position = 0

    def fail(self, message: str) -> _Stop:
        self.result.failure = message
        return _Stop()

    def flush(self) -> None:
        session = self.session
        while self.held and self.held[0] in session.legal_notation():
            self.result.played.append(self.held[0])
            session.play(self.held.pop(0))

    def run(self) -> ProbeResult:
        try:
            for index, group in _groups(self.effective):
                head = f"{group[0].action.TYPE} by {group[0].action.entity}"
                for eff in group:
                    self.entry(index, head, eff)
                self.result.played.extend(self.translator.implicit_passes())
                self.flush()
                self.check_figures(index, head)
                self.result.reached = index + 1
        except _Stop:
            return self.result
        if self.held:
            self.result.failure = f"held back and never asked for: {', '.join(self.held)}"
            return self.result
        self.result.reached = len(self.export.actions)
        return self.result

    def entry(self, index: int, head: str, eff: EffectiveAction) -> None:
        """Translate and play one effective site action."""
        self.position += 1
        effective = self.effective
        following = effective[self.position] if self.position < len(effective) else None
        if isinstance(eff.action, a18.EndGame):
            if following is not None:
                raise self.fail(f"action {following.index}: an action after end_game")
            self.result.ended_early = True
            self.result.reached = len(self.export.actions)
            raise _Stop()
        what = head if eff.auto is None else (
            f"{head}, auto action {eff.auto}: {eff.action.TYPE} by {eff.action.entity}")
        ahead = self.position
        while ahead < len(effective) and isinstance(effective[ahead].action, a18.ChooseAbility):
            ahead += 1  # a return changes no turn: whose the turn is next is read past it
        try:
            texts = self.translator.notations(
                eff, effective[ahead] if ahead < len(effective) else None)
        except (NotMapped, KeyError, ValueError, ImportError18xx) as exc:
            raise self.fail(f"action {index} ({what}): not mapped: {exc}") from None
        for text in texts:
            if text.startswith("?"):
                self.play_if_asked(text[1:], index, what)
            else:
                self.play(text, eff, index, what)

    def play_if_asked(self, text: str, index: int, what: str) -> None:
        """``?X``: play X only if our engine asks for it (a refused action leaves our
        engine's state untouched)."""
        try:
            self.session.play(text)
        except (IllegalAction, NotationError) as exc:
            if _passes_a_mandatory_purchase(text, exc):
                raise self.fail(f"action {index} ({what}): our engine refuses "
                                f"{text!r}: {exc}") from None
            return
        self.result.played.append(text)
        self.flush()

    def play(self, text: str, eff: EffectiveAction, index: int, what: str) -> None:
        session = self.session
        if (self.emulate and isinstance(eff.action, (a18.Dividend, a18.ChooseAbility))
                and text not in session.legal_notation()):
            self.held.append(text)
            return
        try:
            session.play(text)
        except (IllegalAction, NotationError) as exc:
            best = text.split(" run ")[0] + " run"
            if not (self.emulate and isinstance(exc, IllegalAction) and exc.rule == "IX.8"
                    and " run " in text and best in session.legal_notation()):
                raise self.fail(f"action {index} ({what}): our engine refuses "
                                f"{text!r}: {exc}") from None
            text = best  # the site keeps a recorded run that is not the best
            session.play(text)
        self.result.played.append(text)
        self.flush()

    def check_figures(self, index: int, head: str) -> None:
        """Compare our figures with the trace's after the export entry ``index``."""
        trace, translator, effective = self.trace, self.translator, self.effective
        upcoming = effective[self.position] if self.position < len(effective) else None
        if trace is None or (upcoming is not None and (translator.already_placed(
                upcoming.action, anywhere_on_hex=True) or translator.lifted(upcoming.action))):
            return  # (the site is still waiting for the home marker our engine placed itself)
        entry = trace.entries[index]
        if entry.figures is None:
            return
        view = translator.view()
        actual = figures_from_view(view, self.companies, self.privates)
        skip = _skip_in_flux if assignments_in_flux(view) else in_view_gaps
        diff = compare(bank_holdings(entry.figures), bank_holdings(actual),
                       index=index, action=head, skip=skip)
        translator.ahead = diff is not None and (
            (diff.path == "round" and _only_passes_left(
                trace, effective, self.position, str(entry.figures.get("round"))))
            or _ahead_by_passes(trace, effective, self.position, actual, skip))
        if diff is not None and not translator.ahead:
            raise self.fail(diff.message())


def probe(export: Export18xx, trace: Trace | None = None,
          emulate: bool = False) -> ProbeResult:
    """Replay an export through our engine as far as it goes (see the module docstring).

    ``emulate`` (legality only, no trace) works around the engine changes the mapping once
    asked for, so the probe can test the rest of the mapping: a tram company's dividend that
    the site plays before the previous company's tram buying (X-2), and a private returned to
    the bank out of its owner's turn (112), are held back until our engine allows them; a
    private bought after a line's run is bought just before it (:func:`post_run_buys_first`);
    a recorded run that is not the best (X-8, 384) is replaced by our best run.
    """
    if emulate and trace is not None:
        raise ValueError("emulate reorders actions: figures cannot be compared")
    return _Prober(export, trace, emulate).run()
