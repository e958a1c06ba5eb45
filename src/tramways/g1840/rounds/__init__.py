"""The rounds of the Round Bar (V), one module per round type, each behind the
:class:`~tramways.g1840.rounds.base.Round` protocol: :mod:`.pre_share` (VI), :mod:`.share`
(VII), :mod:`.company` (VIII), :mod:`.line` (IX).  The engine walks the bar."""
