"""Game-agnostic core: actions, game records, errors, randomness and replay.

Nothing here knows about a particular game.  A game plugs in by implementing
:class:`tramways.core.game.Game` (and a state type implementing
:class:`tramways.core.game.GameState`) and registering itself in
:mod:`tramways.games`.
"""

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction, NotationError, RecordError, TramwaysError
from tramways.core.game import Game, GameState, Outcome, View, view_json
from tramways.core.record import GameRecord
from tramways.core.replay import Session, replay
from tramways.core.rng import derive_rng, draw_seed

__all__ = [
    "Action",
    "Game",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "NotationError",
    "Outcome",
    "RecordError",
    "Session",
    "TramwaysError",
    "View",
    "derive_rng",
    "draw_seed",
    "replay",
    "view_json",
]
