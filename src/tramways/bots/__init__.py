"""Computer opponents behind one small interface shared by every game.

``make_bot(name, game)`` returns a :class:`~tramways.bots.base.Bot`; ``bot_names(game_name)``
lists them.  Trambahn has ``random``, ``rule`` (rule of thumb) and ``search`` (whole turns
planned from its view, the race for the last scorings checked by play-outs to the end of the
game over samples of the hidden cards).
"""

from tramways.bots.base import Bot, Determinizer, bot_names, make_bot, register_bot

__all__ = ["Bot", "Determinizer", "bot_names", "make_bot", "register_bot"]
