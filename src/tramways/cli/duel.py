"""``tramways duel trambahn``: play a whole game against a bot in the terminal.

The table is drawn with ``rich`` from the human player's view only (the bot's hand stays
hidden).  Choices are numbered; the notation (``passenger 7r``) is accepted too.  ``u`` takes
back your last move (and the bot's moves after it), ``q`` quits and saves the record, ``h``
shows help.  End of input quits cleanly.  ``--record FILE`` names the record; an existing
record of a duel is resumed.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tramways.bots import bot_names, make_bot
from tramways.core import Action, GameRecord, IllegalAction, NotationError, Session, TramwaysError
from tramways.core.rng import derive_rng, draw_seed
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import COLOUR_NAMES, COLOURS, ROW_SIZE, TRAMS

STYLE = {"b": "bold blue", "r": "bold red", "g": "bold green", "y": "bold yellow"}
CONDUCTOR_STYLE = "bold magenta"
HELP = (
    "Type the number of a choice, or its notation (e.g. 'passenger 7r', 'station 3g new', "
    "'buy horse 1', 'end').  u = undo your last move, q = quit (the record is saved), "
    "h = this help."
)


def card_text(face: str) -> Text:
    if face == "C":
        return Text("C", style=CONDUCTOR_STYLE)
    return Text(face, style=STYLE[face[-1]])


def cards_text(faces: list[str], sep: str = " ") -> Text:
    out = Text()
    for i, f in enumerate(faces):
        if i:
            out.append(sep)
        out.append_text(card_text(f))
    return out


# -- the picture of the table ------------------------------------------------------------------


def _column_row(index: int, col: dict[str, Any]) -> list[Any]:
    colour = col["colour"]
    stations = Text("-".join(s[:-1] for s in col["stations"]), style=STYLE[colour])
    if col["conductors"]:
        stations.append(f" +{len(col['conductors'])}C", style=CONDUCTOR_STYLE)
    tram = f"{col['tram']} x{col['multiplier']}" if col["tram"] else Text("none!", style="red")
    size = len(col["stations"]) + len(col["conductors"])
    tour = "done" if col["extra_tour"] else f"{size}/8"
    return [str(index + 1), Text(COLOUR_NAMES[colour], style=STYLE[colour]), stations, tram,
            str(col["points"]), str(col["points"] * col["multiplier"]), tour]


def columns_table(view: dict[str, Any], player: int, title: str) -> Table:
    table = Table(title=title, title_justify="left", expand=False, show_edge=True,
                  header_style="bold")
    for name in ("#", "colour", "stations", "tram", "pts", "scores", "extra"):
        table.add_column(name)
    for i, col in enumerate(view["columns"][player]):
        table.add_row(*_column_row(i, col))
    if not view["columns"][player]:
        table.add_row("", "(no columns)", "", "", "", "", "")
    return table


def table_picture(view: dict[str, Any], labels: list[str]) -> Group:
    """The whole table as the human player sees it."""
    me = view["you"]
    head = Text()
    if view["over"]:
        head.append("Game over", style="bold")
    else:
        head.append(f"Turn {view['turn_number']}: ", style="bold")
        head.append(f"{labels[view['turn']]} to play", style="bold cyan")
        head.append(f"   step {view['step']}, passengers placed {view['passengers_placed']}")
    head.append(
        f"   scorings {view['regular_scorings']}/10   draw pile {view['deck_size']}   "
        f"discard {view['discard_size']}"
    )
    scores = Table.grid(padding=(0, 3))
    for _ in range(4):
        scores.add_column()
    for p in (0, 1):
        scores.add_row(
            Text(labels[p], style="bold cyan" if p == me else "bold"),
            f"score {view['scores'][p]}",
            f"money {view['money_sizes'][p]}",
            f"hand {view['hand_sizes'][p]}",
        )
    rows = Table.grid(padding=(0, 2))
    rows.add_column()
    rows.add_column()
    rows.add_column()
    for c in COLOURS:
        row = view["rows"][c]
        bar = Text("#" * len(row) + "." * (ROW_SIZE - len(row)), style=STYLE[c])
        rows.add_row(Text(f"{COLOUR_NAMES[c]:<6}", style=STYLE[c]), bar, cards_text(row))
    display = Text("Trams on display: ")
    for i, kind in enumerate(view["display"]):
        value, cost, _ = TRAMS[kind]
        display.append(("  " if i else "") + f"{kind} x{value} (cost {cost})", style="bold")
    if not view["display"]:
        display.append("none")
    display.append(f"   stack {len(view['stack'])}")
    parts: list[Any] = [
        head,
        scores,
        Panel(rows, title="passengers (4th scores the colour)", expand=False),
        display,
        columns_table(view, 1 - me, f"{labels[1 - me]}: columns"),
        columns_table(view, me, "Your columns"),
    ]
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        hand.append_text(cards_text(view["hand"], "  "))
        parts.append(hand)
    return Group(*parts)


def score_pad(view: dict[str, Any], labels: list[str]) -> Table:
    """The final scores laid out like the scoring pad (10 scorings, Extra Tours, total)."""
    table = Table(title="Final scores", header_style="bold")
    table.add_column("player")
    regular = [h for h in view["history"] if h["kind"] == "regular"]
    for h in regular:
        table.add_column(Text(f"{h['number']}{h['colour']}", style=STYLE[h["colour"]]),
                         justify="right")
    table.add_column("extra", justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("money", justify="right")
    extra = [sum(h["points"][p] for h in view["history"] if h["kind"] == "extra")
             for p in (0, 1)]
    for p in (0, 1):
        table.add_row(labels[p], *[str(h["points"][p]) for h in regular], str(extra[p]),
                      str(view["scores"][p]), str(view["money_sizes"][p]))
    return table


# -- choices -----------------------------------------------------------------------------------


def describe(action: Action, view: dict[str, Any]) -> Text:
    """A choice in words, with what it will do."""
    me = view["you"]
    cols = view["columns"][me]
    out = Text()
    if isinstance(action, Passenger):
        row = view["rows"][action.row]
        out.append("passenger ")
        out.append_text(card_text(action.card))
        out.append(f" -> {COLOUR_NAMES[action.row]} row ({len(row) + 1}/4)")
        if len(row) + 1 == ROW_SIZE:
            gain = [sum(c["points"] * c["multiplier"] for c in view["columns"][p]
                        if c["colour"] == action.row) for p in (0, 1)]
            out.append(f"  SCORES {COLOUR_NAMES[action.row]}: you +{gain[me]}, "
                       f"opponent +{gain[1 - me]}", style="bold")
    elif isinstance(action, Station):
        out.append("station ")
        out.append_text(card_text(action.card))
        if action.column is None:
            out.append(f" -> new {COLOUR_NAMES[action.card[-1]]} column")
        else:
            col = cols[action.column]
            shown = "-".join(s[:-1] for s in col["stations"])
            size = len(col["stations"]) + len(col["conductors"]) + 1
            out.append(f" -> column {action.column + 1} ({col['colour']} {shown})")
            if size == 8 and not col["extra_tour"]:
                out.append("  EXTRA TOUR", style="bold")
    elif isinstance(action, Income):
        out.append("income ")
        out.append_text(card_text(action.card))
        out.append(f" -> money ({view['money_sizes'][me] + 1})")
    elif isinstance(action, Buy):
        value, cost, _ = TRAMS[action.kind]
        col = cols[action.column]
        shown = "-".join(s[:-1] for s in col["stations"])
        out.append(f"buy {action.kind} x{value} for {cost} -> column {action.column + 1} "
                   f"({col['colour']} {shown})")
    elif isinstance(action, EndTurn):
        out.append("end turn")
        bare = sum(1 for c in cols if c["tram"] is None)
        if bare:
            out.append(f"  ({bare} column(s) without a tram go to money)", style="red")
    return out


_KIND_ORDER = {Passenger: 0, Station: 1, Income: 2, Buy: 3, EndTurn: 4}


def choice_order(action: Action) -> tuple[Any, ...]:
    """Choices by step, then colour and value of the card, then column."""
    card = getattr(action, "card", "")
    if card == "C" or not card:
        card_key: tuple[int, int] = (9, 0)
    else:
        card_key = (COLOURS.index(card[-1]), int(card[:-1]))
    column = getattr(action, "column", None)
    return (_KIND_ORDER[type(action)], getattr(action, "kind", ""), card_key,
            getattr(action, "row", ""), -1 if column is None else column)


def choices_table(actions: list[Action], view: dict[str, Any]) -> Table:
    ncols = 1 if len(actions) <= 12 else 2
    grid = Table.grid(padding=(0, 4))
    for _ in range(ncols):
        grid.add_column()
    per = -(-len(actions) // ncols)
    cells = []
    for i, a in enumerate(actions):
        cell = Text(f"{i + 1:>2}. ", style="bold cyan")
        cell.append_text(describe(a, view))
        cells.append(cell)
    for r in range(per):
        grid.add_row(*[cells[c * per + r] if c * per + r < len(cells) else ""
                       for c in range(ncols)])
    return grid


# -- the game loop -----------------------------------------------------------------------------


class Duel:
    """A human against a bot, on one :class:`Session`."""

    def __init__(self, session: Session, human: int, bot_name: str, console: Console,
                 record_path: Path) -> None:
        self.session = session
        self.human = human
        self.bot_name = bot_name
        self.bot = make_bot(bot_name, session.game)
        self.rng = derive_rng(session.record.seed, "duel", bot_name, len(session.record.actions))
        self.console = console
        self.path = record_path
        names = list(session.game.player_names(session.record.settings))
        self.labels = names
        self.recent: list[str] = []

    def save(self) -> None:
        self.session.record.save(self.path)

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
        self.console.print(table_picture(state.view(self.human), self.labels))
        self.show_recent()
        view = state.view(self.human)
        self.console.print(score_pad(view, self.labels))
        res = view["result"]
        w = res["winner"]
        verdict = "a draw" if w is None else ("you win!" if w == self.human else
                                             f"{self.labels[w]} wins")
        tie = res["scores"][0] == res["scores"][1] and w is not None
        self.console.print(Text(f"Game over: {verdict}" + (" (tie broken by money)" if tie
                                                           else ""), style="bold"))
        self.save()
        self.console.print(f"Saved the record to {self.path}.", soft_wrap=True)
        return 0

    def bot_move(self, player: int) -> None:
        state = self.session.state
        legal = state.legal_actions(player)
        action = self.bot.choose(state.view(player), legal, self.rng)
        lines = self.session.play(action)
        self.recent.extend(self.named(line) for line in lines)

    def named(self, line: str) -> str:
        """A log line with ``P1`` / ``P2`` replaced by the players' names ("You start...")."""
        you = f"P{self.human + 1}"
        line = re.sub(rf"^{you} (\w+?)s\b", r"You \1", line)
        if line.startswith("You "):
            line = line.replace(" and assigns ", " and assign ")
        line = re.sub(rf"\b{you} wins\b", "You win", line)
        return re.sub(r"\bP([12])\b", lambda m: self.labels[int(m.group(1)) - 1], line)

    def show_recent(self) -> None:
        if self.recent:
            shown = self.recent[-14:]
            self.console.print(Panel("\n".join(shown), title="last moves", expand=False))
            self.recent = []

    def human_move(self) -> bool:
        """One decision of the human; False to quit."""
        state = self.session.state
        view = state.view(self.human)
        self.console.clear()
        self.console.print(table_picture(view, self.labels))
        self.show_recent()
        actions = sorted(state.legal_actions(self.human), key=choice_order)
        self.console.print(choices_table(actions, view))
        while True:
            try:
                answer = self.console.input(
                    "[bold]choice[/] (number, notation, u=undo, q=quit, h=help): "
                ).strip()
            except EOFError:
                self.console.print()
                return False
            except KeyboardInterrupt:
                self.console.print()
                return False
            if not answer:
                continue
            low = answer.lower()
            if low in ("q", "quit", "exit"):
                return False
            if low in ("h", "help", "?"):
                self.console.print(HELP)
                continue
            if low in ("u", "undo"):
                if self.undo():
                    return True
                self.console.print("Nothing of yours to undo yet.", style="yellow")
                continue
            action = self.parse(answer, actions)
            if action is None:
                continue
            try:
                lines = self.session.play(action)
            except IllegalAction as exc:
                self.console.print(f"Not allowed ({exc.rule}): {exc.message}", style="red")
                continue
            self.recent.extend(self.named(line) for line in lines)
            return True

    def parse(self, answer: str, actions: list[Action]) -> Action | None:
        if answer.isdigit():
            n = int(answer)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            self.console.print(f"Choose a number from 1 to {len(actions)}.", style="red")
            return None
        text = answer if answer[:1] in "Pp" and answer[1:2].isdigit() else (
            f"P{self.human + 1} {answer}")
        try:
            action = self.session.game.parse_action(text)
        except NotationError as exc:
            self.console.print(f"I do not understand that: {exc}", style="red")
            return None
        if action.player != self.human:
            self.console.print("You can only move for yourself.", style="red")
            return None
        return action

    def undo(self) -> bool:
        """Take back the human's last action and every bot action after it."""
        actions = self.session.record.actions
        prefix = f"P{self.human + 1} "
        n = 0
        for text in reversed(actions):
            n += 1
            if text.startswith(prefix):
                break
        else:
            return False
        self.session.undo(n)
        self.recent = [f"(took back {n} action{'s' if n > 1 else ''})"]
        return True


def cmd_duel(args: argparse.Namespace) -> int:
    if args.game == "1840":
        from tramways.cli.duel1840 import cmd_duel_1840

        return cmd_duel_1840(args)
    if args.game != "trambahn":
        raise TramwaysError(f"duel: only trambahn can be played in the terminal, not {args.game}")
    if args.seat not in (1, 2):
        raise TramwaysError("--seat must be 1 or 2 in Trambahn")
    console = Console(highlight=False)
    path = Path(args.record) if args.record else None
    if path is not None and path.exists():
        session = Session.from_record(GameRecord.load(path))
        meta = session.record.meta
        if session.game.name != "trambahn" or "duel" not in meta:
            raise TramwaysError(f"{path}: not a Trambahn duel record")
        human, bot_name = int(meta["duel"]["human"]), str(meta["duel"]["bot"])
        console.print(f"Resuming {path} ({len(session.record.actions)} actions played).",
                      soft_wrap=True)
    else:
        seed = args.seed if args.seed is not None else draw_seed()
        human = args.seat - 1
        bot_name = args.bot
        names = ["You", f"Bot ({bot_name})"] if human == 0 else [f"Bot ({bot_name})", "You"]
        session = Session.new("trambahn", {"names": names}, seed,
                              meta={"duel": {"human": human, "bot": bot_name}})
        if path is None:
            path = Path(f"trambahn-duel-{seed}.json")
    if bot_name not in bot_names("trambahn"):
        raise TramwaysError(f"no bot {bot_name!r} (bots: {', '.join(bot_names('trambahn'))})")
    return Duel(session, human, bot_name, console, path).run()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("duel", help="play Trambahn or 1840 against bots in the terminal")
    p.add_argument("game", choices=["trambahn", "1840"])
    p.add_argument("--bot", default="rule", help="random, rule or search (default: rule)")
    p.add_argument("--bots", metavar="NAMES",
                   help="1840: the other seats' bots, e.g. rule,rule,search (default "
                        "rule,rule,rule)")
    p.add_argument("--seed", type=int)
    p.add_argument("--seat", type=int, default=1,
                   help="Trambahn: 1 (you start with 12 money cards) or 2; 1840: your seat")
    p.add_argument("--record", metavar="FILE",
                   help="where to save the record (resumed if it exists; default "
                        "trambahn-duel-SEED.json / 1840-duel-SEED.json)")
    p.set_defaults(func=cmd_duel)


