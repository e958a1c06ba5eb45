"""``tramways duel 1840 --bots rule,rule,search``: one person against computer players.

The position is printed as ``tramways show`` prints it, then the legal actions (numbered; long
lists such as bids and tile lays are cut, ``f TEXT`` filters them, and any action may be typed
in notation, with or without the leading ``P1``).  Each bot move is printed with the bot's
one-line reason.  After every Line Round the board is drawn to a PNG (SVG when PNG output is
not available) beside the record.  ``u`` takes back your last move (and the bots' after it),
``hint`` asks the rule bot, ``b`` draws the board now, ``q`` saves and quits; end of input
quits cleanly.  ``--record FILE`` names the record; an existing duel record is resumed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tramways.bots import bot_names, make_bot
from tramways.bots.match import explanation, give_position
from tramways.core import Action, GameRecord, IllegalAction, NotationError, Session, TramwaysError
from tramways.core.rng import derive_rng, draw_seed
from tramways.g1840.view import text_view
from tramways.g1840.view_types import View1840

SHOWN = 60
"""Actions listed at most (type ``f TEXT`` to filter, or the notation)."""
PER_KIND = 6
"""Actions of one kind listed before ``... and N more`` (bids, tile lays)."""

HELP = ("Type the number of a choice or its notation ('buy W', 'L7 lay F22 57 r1', 'WT pay "
        "120'). f TEXT = list the choices containing TEXT, m = list them all, hint = ask the "
        "rule bot, b = draw the board now, u = undo your last move, q = quit (saved), h = help.")


class Duel1840:
    """One person (seat ``human``) against bots on one :class:`Session`."""

    def __init__(self, session: Session, human: int, bots: list[str | None], path: Path,
                 out: Any = print, ask: Any = None) -> None:
        self.session = session
        self.human = human
        self.names = bots
        self.bots = {seat: make_bot(name, session.game) for seat, name in enumerate(bots)
                     if name is not None}
        self.rngs = {seat: derive_rng(session.record.seed, "duel", seat,
                                      len(session.record.actions)) for seat in self.bots}
        self.path = path
        self.out = out
        self.ask = ask or (lambda prompt: input(prompt))
        self.mine: list[int] = []  # record lengths before each of the human's moves

    def save(self) -> None:
        self.session.record.save(self.path)

    def text(self, view: View1840) -> str:
        return text_view(view)

    def view(self, seat: int | None) -> View1840:
        """The typed view of ``seat`` (None: a spectator's)."""
        view = self.session.state.view(seat)
        assert isinstance(view, View1840)
        return view

    def run(self) -> int:
        state = self.session.state
        while not state.is_over():
            seat = state.current_players()[0]
            before = self.view(None).round_info
            if seat == self.human:
                if not self.human_move():
                    self.save()
                    self.out(f"Saved the record to {self.path}. Bye.")
                    return 0
            else:
                self.bot_move(seat)
            state = self.session.state
            now = self.view(None)
            if before.type == "LR" and (now.round != before.name or now.finished):
                self.draw(before.name)
        view = self.view(self.human)
        self.out(self.text(view))
        winners = view.result.winners if view.result is not None else ()
        verdict = "you win!" if self.human in winners else (
            "won by " + ", ".join(view.players[s].name for s in winners))
        self.out(f"Game over: {verdict}")
        self.save()
        self.out(f"Saved the record to {self.path}.")
        return 0

    def draw(self, label: str) -> Path | None:
        """The board as PNG (or SVG) beside the record: ``<record>-<label>.png``."""
        from tramways.g1840.render import render_png, render_svg

        state: Any = self.session.state
        stem = self.path.with_suffix("")
        title = f"after {label}" if label != "now" else self.view(None).round
        try:
            data = render_png(state.board, phase=state.phase, title=title)
            target = Path(f"{stem}-{label}.png")
        except Exception:  # no cairo on this machine: SVG needs nothing
            data = render_svg(state.board, phase=state.phase, title=title).encode("utf-8")
            target = Path(f"{stem}-{label}.svg")
        target.write_bytes(data)
        self.out(f"(board drawn to {target})")
        return target

    def bot_move(self, seat: int) -> None:
        state = self.session.state
        bot = self.bots[seat]
        rng = self.rngs[seat]
        give_position(bot, state, rng)
        action = bot.choose(state.view(seat), state.legal_actions(seat), rng)
        self.session.play(action, seat=seat)
        why = explanation(bot)
        name = self.view(None).players[seat].name
        self.out(f"{name}: {self.session.game.format_action(action)}"
                 + (f"  ({why})" if why else ""))

    def listing(self, actions: list[Action], needle: str | None = None, limit: int = SHOWN
                ) -> None:
        """Numbered choices; unfiltered, at most ``PER_KIND`` of each kind of action."""
        fmt = self.session.game.format_action
        per_kind: dict[type, int] = {}
        hidden: dict[type, int] = {}
        shown = 0
        for i, a in enumerate(actions):
            text = fmt(a)
            if needle is not None:
                if needle.lower() not in text.lower():
                    continue
            elif per_kind.get(type(a), 0) >= PER_KIND:
                hidden[type(a)] = hidden.get(type(a), 0) + 1
                continue
            if shown >= limit:
                self.out(f"  ... ({len(actions)} choices; f TEXT filters, m lists all)")
                return
            per_kind[type(a)] = per_kind.get(type(a), 0) + 1
            self.out(f"  {i + 1:>4}. {text}")
            shown += 1
        for kind, n in hidden.items():
            self.out(f"        ... and {n} more {kind.__name__} (f TEXT filters, m lists all)")

    def human_move(self) -> bool:
        """One decision of the human; False to quit."""
        state = self.session.state
        view = self.view(self.human)
        self.out("")
        self.out(self.text(view))
        actions = state.legal_actions(self.human)
        self.out("Your choices:")
        self.listing(actions)
        while True:
            try:
                answer = self.ask("choice (number, notation, f TEXT, hint, u, q, h): ").strip()
            except (EOFError, KeyboardInterrupt):
                self.out("")
                return False
            low = answer.lower()
            if not answer:
                continue
            if low in ("q", "quit", "exit"):
                return False
            if low in ("h", "help", "?"):
                self.out(HELP)
            elif low == "m":
                self.listing(actions, limit=10**6)
            elif low.startswith("f "):
                self.listing(actions, answer[2:].strip(), limit=10**6)
            elif low == "b":
                self.draw("now")
            elif low == "hint":
                adviser = make_bot("rule", self.session.game)
                a = adviser.choose(view, actions, derive_rng(0, "hint"))
                self.out(f"rule bot: {self.session.game.format_action(a)} -- "
                         f"{explanation(adviser)}")
            elif low in ("u", "undo"):
                if not self.mine:
                    self.out("Nothing of yours to undo yet.")
                    continue
                keep = self.mine.pop()
                self.session.undo(len(self.session.record.actions) - keep)
                self.out(f"(took back to action {keep})")
                return True
            else:
                action = self.parse(answer, actions)
                if action is None:
                    continue
                before = len(self.session.record.actions)
                try:
                    self.session.play(action, seat=self.human)
                except IllegalAction as exc:
                    self.out(f"Not allowed ({exc.rule}): {exc.message}")
                    continue
                self.mine.append(before)
                return True

    def parse(self, answer: str, actions: list[Action]) -> Action | None:
        if answer.isdigit():
            n = int(answer)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            self.out(f"Choose a number from 1 to {len(actions)}.")
            return None
        game = self.session.game
        for text in (answer, f"P{self.human + 1} {answer}"):
            try:
                return game.parse_action(text)
            except NotationError:
                continue
        self.out("I do not understand that (h for help).")
        return None


def cmd_duel_1840(args: argparse.Namespace) -> int:
    path = Path(args.record) if args.record else None
    if path is not None and path.exists():
        session = Session.from_record(GameRecord.load(path))
        meta = session.record.meta.get("duel")
        if session.game.name != "1840" or not meta:
            raise TramwaysError(f"{path}: not an 1840 duel record")
        human = int(meta["human"])
        seats: list[str | None] = list(meta["bots"])
        print(f"Resuming {path} ({len(session.record.actions)} actions played).")
    else:
        names = [n.strip() for n in (args.bots or "rule,rule,rule").split(",") if n.strip()]
        for name in names:
            if name not in bot_names("1840"):
                raise TramwaysError(f"no bot {name!r} for 1840 (bots: "
                                    f"{', '.join(bot_names('1840'))})")
        players = len(names) + 1
        if not 2 <= players <= 6:
            raise TramwaysError("1840 is for 2 to 6 players: name 1 to 5 bots")
        human = args.seat - 1
        if not 0 <= human < players:
            raise TramwaysError(f"--seat must be 1 to {players}")
        seats = [*names]
        seats.insert(human, None)
        labels = [("You" if s is None else f"Bot {i + 1} ({s})") for i, s in enumerate(seats)]
        seed = args.seed if args.seed is not None else draw_seed()
        session = Session.new("1840", {"players": players, "names": labels}, seed,
                              meta={"duel": {"human": human, "bots": seats}})
        if path is None:
            path = Path(f"1840-duel-{seed}.json")
    return Duel1840(session, human, seats, path).run()
