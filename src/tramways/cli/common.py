"""Generic commands: new, show, moves, play, undo, selfplay (every game)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from tramways.core.errors import IllegalAction, NotationError, RecordError, TramwaysError
from tramways.core.game import view_json
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.core.rng import draw_seed
from tramways.core.selfplay import SelfplaySummary, play_game
from tramways.games import game_names, get_game


def _settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if getattr(args, "players", None) is not None:
        settings["players"] = args.players
    if getattr(args, "small_map", False):
        settings["small_map"] = True
    if getattr(args, "names", None):
        settings["names"] = [n.strip() for n in args.names.split(",")]
    return settings


def load_session(path: str) -> Session:
    return Session.from_record(GameRecord.load(path))


def resolve_player(session: Session, who: str | None) -> int | None:
    """``--as`` accepts a 1-based seat number or a player name; ``None`` is the spectator."""
    if who is None:
        return None
    names = list(session.game.player_names(session.record.settings))
    if who.isdigit() and 1 <= int(who) <= len(names):
        return int(who) - 1
    for index, name in enumerate(names):
        if name.lower() == who.lower():
            return index
    raise RecordError(f"--as {who!r}: no such player (players: {', '.join(names)})")


def cmd_new(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else draw_seed()
    session = Session.new(args.game, _settings_from_args(args), seed)
    session.record.save(args.output)
    print(f"wrote {args.output} ({args.game}, seed {seed})")
    return 0


def _print_view(session: Session, player: int | None, as_json: bool) -> None:
    view = session.state.view(player)
    if as_json:
        print(json.dumps(view_json(view), indent=1, ensure_ascii=False))
        return
    print(session.game.text_view(view))


def cmd_show(args: argparse.Namespace) -> int:
    session = load_session(args.record)
    _print_view(session, resolve_player(session, args.as_player), args.json)
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    session = load_session(args.record)
    player = resolve_player(session, args.as_player)
    if player is None and session.game.info.hidden_information:
        # the acting player's moves name the cards in their hand: never shown to whoever
        # happens to run the command (core.visibility)
        raise RecordError(f"{session.game.name} has hidden information: name the player "
                          "with --as (moves lists only what that player may do)")
    moves = session.legal_notation(player)
    if args.json:
        print(json.dumps({"players": session.state.current_players(), "moves": moves}))
    else:
        for text in moves:
            print(text)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    session = load_session(args.record)
    seat = resolve_player(session, args.as_player)
    for text in args.actions:
        try:
            lines = session.play(text, seat)
        except IllegalAction as exc:
            print(f"illegal: {exc.rule}: {exc.message}", file=sys.stderr)
            return 2
        except NotationError as exc:
            print(f"illegal: notation: {exc}", file=sys.stderr)
            return 2
        for line in lines:
            print(line)
    session.record.save(args.record)
    return 0


def cmd_log(args: argparse.Namespace) -> int:
    """The game log as text: each action (numbered from 1, in public notation) and the lines it
    logged, up to the first ``--as-of`` actions."""
    from tramways.core.visibility import public_notation

    record = GameRecord.load(args.record)
    total = len(record.actions)
    upto = total if args.as_of is None else args.as_of
    if not 0 <= upto <= total:
        raise RecordError(f"--as-of {upto}: the record has {total} actions (0 to {total})")
    session = Session.from_record(record, upto=0)
    game, state = session.game, session.state
    for line in game.opening_log(state):  # what the set-up logged (1840: the first round)
        print(f"     {line}")
    for index, text in enumerate(record.actions[:upto]):
        try:
            action = game.parse_action(text)
            lines = state.apply(action)
        except NotationError as exc:
            raise RecordError(f"action {index} {text!r}: {exc}") from None
        except IllegalAction as exc:
            raise RecordError(f"action {index} {text!r} is illegal: {exc}") from None
        print(f"{index + 1:>4} {public_notation(game, action, None)}")
        for line in lines:
            print(f"     {line}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    session = load_session(args.record)
    session.undo(args.n)
    session.record.save(args.record)
    print(f"{len(session.record.actions)} actions remain")
    return 0


def _bots_policy(game: Any, args: argparse.Namespace, settings: dict[str, Any], seed: int
                 ) -> Any:
    """``--bots a,b,...``: seat i played by bot i (``tramways.bots``); ``--explain`` prints
    each decision with its reason on stderr."""
    from tramways.bots import make_bot
    from tramways.bots.match import bot_policy

    bots = [make_bot(name.strip(), game) for name in args.bots.split(",")]
    if args.players is not None and args.players != len(bots):
        raise TramwaysError(f"--bots names {len(bots)} bots for {args.players} players")
    settings["players"] = len(bots)

    def explain(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return bot_policy(game, bots, seed, explain if args.explain else None)


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    master = random.Random(args.seed)
    failures = 0
    for _ in range(args.games):
        seed = master.randrange(2**53)
        settings = _settings_from_args(args)
        if args.players is None and getattr(args, "small_map", False):
            settings["players"] = 3  # the small map is a 3-player map (XII)
        elif args.players is None:
            settings["players"] = master.choice(game.info.players)
        check = game.check_invariants if args.check else None
        policy = None
        if args.bots:
            policy = _bots_policy(game, args, settings, seed)
        try:
            outcome = play_game(args.game, settings, seed, policy=policy, check=check)
            summary: SelfplaySummary = outcome.summary()
        except (TramwaysError, AssertionError) as exc:  # AssertionError: a broken invariant
            summary = {"game": args.game, "seed": seed, "settings": settings,
                       "finished": False, "error": str(exc)}
        if not summary.get("finished"):
            failures += 1
        if args.json:
            print(json.dumps(summary, ensure_ascii=False), flush=True)
        else:
            status = "finished" if summary.get("finished") else summary.get("error", "unfinished")
            print(f"seed {seed}: {status}, {summary.get('actions', '?')} actions, "
                  f"result {json.dumps(summary.get('result'), ensure_ascii=False)}")
    return 1 if failures else 0


def register(sub: argparse._SubParsersAction) -> None:
    games = game_names()

    p = sub.add_parser("new", help="write a new game record")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int)
    p.add_argument("--seed", type=int)
    p.add_argument("--small-map", action="store_true", help="1840: 3-player small map (XII)")
    p.add_argument("--names", help="comma-separated player names")
    p.add_argument("-o", "--output", required=True, metavar="RECORD")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("show", help="show the position of a record")
    p.add_argument("record")
    p.add_argument("--as", dest="as_player", metavar="PLAYER", help="seat number or name")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "moves", help="list every legal action in notation",
        description="List every legal action in notation: with --as, what that player may do "
                    "now (turn or not); without it, the acting player's actions.  Games with "
                    "hidden information (Trambahn: the actions name the cards in the hand) "
                    "require --as.")
    p.add_argument("record")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="seat number or name (required for games with hidden information)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("play", help="apply actions and append them to the record")
    p.add_argument("record")
    p.add_argument("actions", nargs="+", metavar="ACTION")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="the seat (number or name) playing the actions; without it, the one "
                        "seat that may play each action (a company's: its director)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("log", help="the game log as text, for any past point",
                       description="Print the game log: every action in (public) notation, "
                                   "numbered from 1, with the lines it logged.")
    p.add_argument("record")
    p.add_argument("--as-of", type=int, metavar="N",
                   help="the log after the first N actions only (default: all)")
    p.set_defaults(func=cmd_log)

    p = sub.add_parser("undo", help="take back the last N actions")
    p.add_argument("record")
    p.add_argument("n", nargs="?", type=int, default=1)
    p.set_defaults(func=cmd_undo)

    p = sub.add_parser("selfplay", help="play whole games with random legal actions")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int)
    p.add_argument("--small-map", action="store_true")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--check", action="store_true",
                   help="check the game's invariants after every action")
    p.add_argument("--bots", metavar="NAMES",
                   help="comma-separated bots, one per seat (e.g. rule,rule,search,random); "
                        "default: the game's random self-play policy")
    p.add_argument("--explain", action="store_true",
                   help="with --bots: print every decision and its reason (stderr)")
    p.set_defaults(func=cmd_selfplay)
