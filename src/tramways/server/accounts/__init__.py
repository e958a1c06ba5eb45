"""Accounts, the lobby of open games, chat per game and ratings.

- :mod:`.schema`: the tables (migration ``0005``); :mod:`.tables`: :class:`~.tables.AccountStore`;
- :mod:`.auth`: passwords (argon2), signed session cookies, CSRF tokens, the
  ``current_account`` dependency and the seat links of accounts;
- :mod:`.pages`: sign up, log in, log out (everywhere), claiming a seat link, profiles;
- :mod:`.lobby`: open games (create, list, join, leave, start when full) and "my games";
- :mod:`.chat`: the chat of a game (players and spectators), live across processes;
- :mod:`.ratings`: OpenSkill for 1840, Elo for Trambahn, bots included.

Playing without an account stays as it was: seat links, no cookie needed.
"""
