"""Computer opponents behind one small interface shared by every game.

``make_bot(name, game)`` returns a :class:`~tramways.bots.base.Bot`; ``bot_names(game_name)``
lists them.  Trambahn has ``random``, ``rule`` (rule of thumb) and ``search`` (flat Monte
Carlo over determinizations of the hidden cards, with rule-of-thumb play-outs).
"""

from tramways.bots.base import Bot, Determinizer, bot_names, make_bot, register_bot

__all__ = ["Bot", "Determinizer", "bot_names", "make_bot", "register_bot"]
