"""tramways: exact engines for 1840 Vienna Tramways and Trambahn.

The public entry points:

* :mod:`tramways.core` - the game-agnostic contract (actions, records, replay, errors).
* :func:`tramways.games.get_game` - a game by name (``"1840"``, ``"trambahn"``).
"""

__version__ = "0.1.0"
