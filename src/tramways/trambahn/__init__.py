"""Trambahn (Helmut Ohley): the 2-player card game with hidden hands and a hidden deck."""
