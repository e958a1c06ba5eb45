"""``tramways duel trambahn``: play a whole game against a bot in the terminal.

The table is drawn from the human player's view only (the bot's hand stays hidden), compact
enough for an 80x24 terminal: every screen of a turn is at most 23 lines of at most 80
columns, plus the prompt.  Choices are numbered and grouped by the turn's five steps (Course
of Play 1-5); the notation (``passenger 7r``) is accepted too.  ``h`` explains the game,
``u`` takes back your last move when the undo policy of :mod:`tramways.core.undo` allows it
(your own moves of this turn, until cards are drawn), ``q`` quits.  End of input quits.

The record is saved after every move (``--record FILE``, default ``trambahn-duel-SEED.json``);
an existing record is resumed.  The record's ``meta["duel"]`` remembers the person's seat and
the bot, so a resumed duel refuses a different ``--seat``/``--bot`` (and honours them when the
record has none, e.g. a record made by ``tramways new trambahn``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from tramways.bots import bot_names, make_bot
from tramways.cli.duel_screen import (
    HEIGHT,
    WIDTH,
    choice_lines,
    choice_order,
    score_pad,
    shorter,
    table_lines,
)
from tramways.core import Action, GameRecord, IllegalAction, NotationError, Session, TramwaysError
from tramways.core.rng import derive_rng, draw_seed
from tramways.core.undo import Played, check_undo, played_history, reveals
from tramways.trambahn.actions import Passenger
from tramways.trambahn.cards import COLOUR_NAMES, ROW_SIZE
from tramways.trambahn.preview import column_score, passenger_preview
from tramways.trambahn.view_types import TrambahnView, as_trambahn_view

PROMPT = "[bold]choice[/] (number or notation; u undo, h help, q quit): "

HELP = """\
[bold]Trambahn[/]: score the most victory points. A turn has five steps, in order:
 [bold]1 Passengers[/]: play 1 or 2 hand cards into the passenger row of their
   colour (a conductor C into any row). The [bold]4th passenger[/] of a row scores it.
 [bold]2 Stations[/]: play any cards into your columns: one colour per column, values
   rising (gaps allowed), a 10 closes it; C joins any open column; or a new one.
 [bold]3 Income[/]: put any hand cards onto your money pile (1 card = 1 money).
 [bold]4 Trams[/]: buy horse x2 (5 money), steam x3 (10) or electric x4 (15) and put
   each on a column of yours that has none (the display refills at turn end).
 [bold]5 End turn[/]: your columns without a tram go to your money pile; you draw
   back to 6 cards. An empty draw pile: both lose half their money, reshuffle.
[bold]Victory points[/]: a scoring (a row's 4th passenger) scores every column of
   that colour, for both players: its cards' points (1-6: 1, 7-9: 2, 10: 3)
   times its tram's value. A column without a tram scores nothing.
[bold]Extra Tour[/] (ET): the 8th card of a column (stations and conductors) scores
   that column at once, once per column.
[bold]End[/]: right after the 10th scoring of a row (Extra Tours do not count).
   Most points wins; a tie goes to the bigger money pile.
[bold]3/4![/] = this passenger leaves its row one short: the other player may fill it
   and score it next turn.  [bold]SCORES[/] = this passenger fills the row now.
[bold]u[/] takes back your last move, only within your turn and before cards are
   drawn (ending the turn draws).  [bold]q[/] quits; the game is saved after every move."""


# -- the game loop -----------------------------------------------------------------------------


class Duel:
    """A human against a bot, on one :class:`Session`; the record is saved after every move.

    ``ask(prompt)`` reads one answer (``console.input`` by default); everything else is printed
    on ``console``.  Undo follows :mod:`tramways.core.undo` on the history of the record.
    """

    def __init__(self, session: Session, human: int, bot_name: str, console: Console,
                 record_path: Path, ask: Callable[[str], str] | None = None) -> None:
        self.session = session
        self.human = human
        self.bot_name = bot_name
        self.bot = make_bot(bot_name, session.game)
        self.rng = derive_rng(session.record.seed, "duel", bot_name, len(session.record.actions))
        self.console = console
        self.ask = ask or console.input
        self.path = record_path
        self.labels = ["", ""]
        self.labels[human] = "You"
        self.labels[1 - human] = f"Bot ({bot_name})"
        self.played: list[Played] = played_history(session.record)
        self.log: list[tuple[int | None, str]] = []
        """What happened, newest last: (player or None, line)."""
        self.width = min(console.width, WIDTH) if console.width else WIDTH
        self.height = HEIGHT

    # -- moves and the record ---------------------------------------------------------------

    def save(self) -> None:
        self.session.record.save(self.path)

    def play(self, action: Action, seat: int) -> list[str]:
        """Apply one move, note it for the undo policy, log it and save the record."""
        state = self.session.state
        revealing = reveals(self.session.game, state, action)
        lines = self.session.play(action, seat)
        self.played.append(Played(seat, revealing or self.session.state.is_over()))
        self.note(seat, lines)
        self.save()
        return lines

    def recall(self, last: int = 40) -> None:
        """Log the last ``last`` moves of a resumed record, as they were logged when played."""
        actions = self.session.record.actions
        session = Session.from_record(self.session.record, upto=max(0, len(actions) - last))
        for text in actions[len(session.record.actions):]:
            action = session.parse(text)
            seat = action.player if isinstance(action.player, int) else None
            self.note(seat, session.play(action, seat))

    def note(self, player: int | None, lines: list[str]) -> None:
        self.log.extend((player, self.named(line)) for line in lines)

    def named(self, line: str) -> str:
        """A log line with ``P1`` / ``P2`` replaced by the players' names ("You start...")."""
        you = f"P{self.human + 1}"
        line = re.sub(rf"^{you} (\w+?)s\b", r"You \1", line)
        if line.startswith("You "):
            line = line.replace(" and assigns ", " and assign ")
        line = re.sub(rf"\b{you} wins\b", "You win", line)
        return re.sub(r"\bP([12])\b", lambda m: self.labels[int(m.group(1)) - 1], line)

    def undo(self) -> str | None:
        """Take back the human's last move if the undo policy allows it; else the reason."""
        try:
            check_undo(self.played, self.human, 1)
        except IllegalAction as exc:
            return exc.message
        text = self.session.record.actions[-1]
        self.session.undo(1)
        self.played.pop()
        words = text.split(" ", 1)[1]
        self.note(None, [f"You take back: {words}"])
        duel = self.session.record.meta.setdefault("duel", {})
        duel.setdefault("undone", []).append(
            {"at": len(self.session.record.actions), "action": text})
        self.save()
        return None

    # -- the screen -------------------------------------------------------------------------

    def log_lines(self, room: int) -> list[Text]:
        """The newest ``room`` lines of the log, each player's run of moves on one line."""
        runs: list[tuple[int | None, list[str]]] = []
        for player, line in self.log:
            if runs and runs[-1][0] == player and player is not None:
                runs[-1][1].append(line)
            else:
                runs.append((player, [line]))
        lines: list[Text] = []
        for player, texts in runs:
            if player is None:
                whole = Text(" ".join(texts))
            else:
                label = self.labels[player]
                parts = [shorter(t[len(label) + 1:] if t.startswith(label + " ") else t)
                         for t in texts]
                whole = Text(f"{label}: ", style="bold")
                whole.append("; ".join(parts))
            lines.extend(whole.wrap(self.console, self.width))
        for one in lines:
            one.stylize("dim")
        return lines[-room:] if room > 0 else []

    def screen(self, view: TrambahnView, actions: list[Action], message: Text | None) -> None:
        table = table_lines(view, self.labels, self.width)
        choices = choice_lines(actions, view, self.width)
        warn = [a for a in actions if isinstance(a, Passenger)
                and passenger_preview(view, a)["count"] == ROW_SIZE - 1]
        if warn and message is None:
            message = Text(f"3/4! leaves the row one short: "
                           f"{self.labels[1 - self.human]} may fill it and score it.",
                           style="yellow")
        self.show_parts(table, choices, message)

    def show_parts(self, table: list[Text], choices: list[Text], message: Text | None) -> None:
        """The table, then the log in the room left, then the choices and a message."""
        extra = [message] if message is not None else []
        room = self.height - 1 - len(table) - len(choices) - len(extra) - 1
        log = self.log_lines(room)
        rule = [Text("-" * self.width, style="dim")] if log else []
        lines = [*table, *rule, *log, *choices, *extra]
        if len(lines) > self.height - 1:  # a crowded table (rare): the choices matter most
            lines = lines[len(lines) - (self.height - 1):]
        self.console.clear()
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="ellipsis", crop=True)

    def help_screen(self) -> None:
        self.console.clear()
        self.console.print(Text.from_markup(HELP), no_wrap=True, overflow="ellipsis",
                           crop=True)
        try:
            self.ask("[dim]Press Enter to go back to the game.[/] ")
        except (EOFError, KeyboardInterrupt):
            self.console.print()

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        state = self.session.state
        while not state.is_over():
            player = state.current_players()[0]
            if player != self.human:
                self.bot_move(player)
            elif not self.human_move():
                self.save()
                self.console.print(f"Saved the record to {self.path}. Bye.", soft_wrap=True)
                return 0
            state = self.session.state
        view = as_trambahn_view(state.view(self.human))
        res = view.result
        assert res is not None
        w = res.winner
        verdict = "a draw" if w is None else ("you win!" if w == self.human else
                                             f"{self.labels[w]} wins")
        tie = res.scores[0] == res.scores[1] and w is not None
        end = Text(f"Game over: {verdict}" + (" (tie broken by money)" if tie else ""),
                   style="bold")
        saved = Text(f"The record is saved in {self.path}.")
        self.show_parts(table_lines(view, self.labels, self.width),
                        [*score_pad(view, self.labels), end], saved)
        self.save()
        return 0

    def bot_move(self, player: int) -> None:
        state = self.session.state
        legal = state.legal_actions(player)
        action = self.bot.choose(state.view(player), legal, self.rng)
        self.play(action, player)

    def human_move(self) -> bool:
        """One decision of the human; False to quit."""
        message: Text | None = None
        while True:
            state = self.session.state
            view = as_trambahn_view(state.view(self.human))
            actions = sorted(state.legal_actions(self.human), key=choice_order)
            self.screen(view, actions, message)
            message = None
            try:
                answer = self.ask(PROMPT).strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return False
            if not answer:
                continue
            low = answer.lower()
            if low in ("q", "quit", "exit"):
                return False
            if low in ("h", "help", "?"):
                self.help_screen()
                continue
            if low in ("u", "undo"):
                refused = self.undo()
                if refused is None:
                    return True
                message = Text(f"Cannot take that back: {refused}.", style="yellow")
                continue
            action, problem = self.parse(answer, actions)
            if action is None:
                message = Text(problem, style="red")
                continue
            try:
                self.play(action, self.human)
            except IllegalAction as exc:
                message = Text(f"Not allowed ({exc.rule}): {exc.message}", style="red")
                continue
            if isinstance(action, Passenger):
                row = as_trambahn_view(self.session.state.view(self.human)).rows[action.row]
                if len(row) == ROW_SIZE - 1:
                    self.warn_row(action.row)
            return True

    def warn_row(self, row: str) -> None:
        """The row now waits for one more passenger: the other player may score it."""
        view = as_trambahn_view(self.session.state.view(self.human))
        now = [sum(column_score(c) for c in cols if c.colour == row)
               for cols in view.columns]
        other = self.labels[1 - self.human]
        self.note(None, [f"Warning: the {COLOUR_NAMES[row]} row has 3 of 4 passengers: "
                         f"{other} may fill it and score it (now: you {now[self.human]}, "
                         f"{other} {now[1 - self.human]}). u takes it back."])

    def parse(self, answer: str, actions: list[Action]) -> tuple[Action | None, str]:
        if answer.isdigit():
            n = int(answer)
            if 1 <= n <= len(actions):
                return actions[n - 1], ""
            return None, f"Choose a number from 1 to {len(actions)}."
        text = answer if answer[:1] in "Pp" and answer[1:2].isdigit() else (
            f"P{self.human + 1} {answer}")
        try:
            action = self.session.game.parse_action(text)
        except NotationError as exc:
            return None, f"I do not understand that: {exc} (h for help)"
        if action.player != self.human:
            return None, "You can only move for yourself."
        return action, ""


def duel_seats(record: GameRecord, path: Path, seat: int | None, bot: str | None) -> tuple[int, str]:
    """The person's seat (0-based) and the bot of a resumed record (its ``meta["duel"]``).

    A record that names them refuses a different ``--seat``/``--bot`` with one line; a record
    without them (``tramways new trambahn``) takes the options (default seat 1, bot rule),
    and remembers them.
    """
    duel = record.meta.setdefault("duel", {})
    if "human" in duel:
        human = int(duel["human"])
        if seat is not None and seat - 1 != human:
            raise TramwaysError(f"{path}: you play seat {human + 1} in this duel, not seat "
                                f"{seat}: resume without --seat")
    else:
        human = (seat or 1) - 1
        duel["human"] = human
    if "bot" in duel:
        bot_name = str(duel["bot"])
        if bot is not None and bot != bot_name:
            raise TramwaysError(f"{path}: this duel is against bot {bot_name!r}, not {bot!r}: "
                                f"resume without --bot")
    else:
        bot_name = bot or "rule"
        duel["bot"] = bot_name
    return human, bot_name


def cmd_duel(args: argparse.Namespace) -> int:
    if args.game == "1840":
        from tramways.cli.duel1840 import cmd_duel_1840

        if args.seat is None:
            args.seat = 1
        return cmd_duel_1840(args)
    if args.game != "trambahn":
        raise TramwaysError(f"duel: only trambahn can be played in the terminal, not {args.game}")
    if args.seat is not None and args.seat not in (1, 2):
        raise TramwaysError("--seat must be 1 or 2 in Trambahn")
    if args.bot is not None and args.bot not in bot_names("trambahn"):
        raise TramwaysError(f"no bot {args.bot!r} (bots: {', '.join(bot_names('trambahn'))})")
    console = Console(highlight=False)
    path = Path(args.record) if args.record else None
    if path is None and args.seed is not None:
        path = Path(f"trambahn-duel-{args.seed}.json")
    if path is not None and path.exists():
        record = GameRecord.load(path)
        if record.game != "trambahn":
            raise TramwaysError(f"{path}: not a Trambahn record")
        if args.seed is not None and args.seed != record.seed:
            raise TramwaysError(f"{path}: this duel has seed {record.seed}, not {args.seed}: "
                                f"resume without --seed")
        human, bot_name = duel_seats(record, path, args.seat, args.bot)
        if bot_name not in bot_names("trambahn"):
            raise TramwaysError(f"{path}: no bot {bot_name!r} (bots: "
                                f"{', '.join(bot_names('trambahn'))})")
        session = Session.from_record(record)
        opening = (f"Resuming {path} ({len(record.actions)} actions played); "
                   f"the game is saved there after every move.")
    else:
        seed = args.seed if args.seed is not None else draw_seed()
        human = (args.seat or 1) - 1
        bot_name = args.bot or "rule"
        names = ["You", f"Bot ({bot_name})"] if human == 0 else [f"Bot ({bot_name})", "You"]
        session = Session.new("trambahn", {"names": names}, seed,
                              meta={"duel": {"human": human, "bot": bot_name}})
        if path is None:
            path = Path(f"trambahn-duel-{seed}.json")
        opening = (f"New duel (seed {seed}) against bot {bot_name}; the game is saved to "
                   f"{path} after every move.")
    console.print(opening, soft_wrap=True)
    duel = Duel(session, human, bot_name, console, path)
    duel.recall()
    duel.note(None, [opening, "h explains the game; u takes back your last move; q quits."])
    duel.save()
    return duel.run()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("duel", help="play Trambahn or 1840 against bots in the terminal")
    p.add_argument("game", choices=["trambahn", "1840"])
    p.add_argument("--bot", help="Trambahn: random, rule or search (default: rule; a resumed "
                                 "duel keeps its bot)")
    p.add_argument("--bots", metavar="NAMES",
                   help="1840: the other seats' bots, e.g. rule,rule,search (default "
                        "rule,rule,rule)")
    p.add_argument("--seed", type=int)
    p.add_argument("--seat", type=int,
                   help="Trambahn: 1 (you start, with 12 money cards) or 2 (default 1; a "
                        "resumed duel keeps its seat); 1840: your seat")
    p.add_argument("--record", metavar="FILE",
                   help="where the game is saved after every move (resumed if it exists; "
                        "default trambahn-duel-SEED.json / 1840-duel-SEED.json)")
    p.set_defaults(func=cmd_duel)
