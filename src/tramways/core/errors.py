"""The errors every game raises.

``IllegalAction`` is the one refusal type: it names the rule it enforces (a rulebook section
such as ``"IX.6"`` or a ruling id such as ``"R-LR-5"``) and a human message.  A refused action
leaves the state exactly as it was.
"""

from __future__ import annotations


class TramwaysError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(TramwaysError):
    """An action the rules do not allow now.

    ``rule`` is the rulebook section (``"VII.6"``) or ruling id (``"R-SR-1"``) that forbids it.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, str]]:
        # pickled as its two fields (the server's read workers send it back to the server)
        return (type(self), (self.rule, self.message))


class NotationError(TramwaysError):
    """A text that is not the notation of any action of the game."""


class RecordError(TramwaysError):
    """A malformed game record (bad JSON, missing or ill-typed field, unknown game...)."""
