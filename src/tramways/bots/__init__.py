"""Computer opponents behind one small interface shared by every game."""
