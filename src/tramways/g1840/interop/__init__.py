"""Interop with other 1840 implementations: 18xx.games records and traces.

* :mod:`.lcg` - the site's random generator; :mod:`.setup18xx` - its set-up draws (X-1).
* :mod:`.actions18xx` - the catalogue of its action types; :mod:`.log18xx` - reading an export,
  undo/redo, auto actions; :mod:`.errors` - :class:`ImportError18xx`.
* :mod:`.pieces18xx` - hexes of station actions; :mod:`.routes18xx` - recorded runs in our
  route notation; :mod:`.trace_positions` (board helper) - trace states as boards.
* :mod:`.trace` - figures and the comparator; :mod:`.ruleset` - the switches X-1..X-24.
* :mod:`.translate` - the translator and probe; :mod:`.importer` - the import itself.
* :mod:`.export18xx` - a game of ours in the site's format; :mod:`.roundtrip` - the round
  trip and the site's engine run as a separate program.

docs/interop.md says what is done and what is left.
"""
