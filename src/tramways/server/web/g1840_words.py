"""Sentences of the 1840 page, in the page's language.

A control of the 1840 table never shows engine notation (``P1 pass``, ``WT scrap yellow``,
``L4 buy SB 1``): it shows a :class:`Words`, a catalog message with its values, which the
template turns into the page's language through the ``g1840_say`` filter.  The messages are
marked here with ``_`` (a no-op that ``pybabel extract`` finds) and translated when shown; a
value that is itself a :class:`Words` (a tram colour) is translated first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

Value = Union[str, int, "Words"]


def _(message: str) -> str:
    """Marks a message for the catalogs (``pybabel extract``); translated when shown."""
    return message


@dataclass(frozen=True)
class Words:
    """One sentence: a catalog message (``msgid``) and the values of its placeholders."""

    msgid: str
    values: Mapping[str, Value] = field(default_factory=dict)

    def say(self, gettext: Callable[[str], str]) -> str:
        """The sentence in the language of ``gettext``."""
        values = {k: (v.say(gettext) if isinstance(v, Words) else v)
                  for k, v in self.values.items()}
        text = gettext(self.msgid)
        return text % values if values else text

    def english(self) -> str:
        return self.say(lambda s: s)


def words(msgid: str, **values: Value) -> Words:
    return Words(msgid, values)


COLOURS: dict[str, str] = {
    "yellow": _("yellow"), "orange": _("orange"), "red": _("red"), "pink": _("pink"),
    "purple": _("purple"), "none": _("none"),
}
"""Tram colours (III.5) as words."""


def colour(name: str) -> Words:
    """A tram colour in the page's language (an unknown one as it is)."""
    return Words(COLOURS.get(name, name))


def line_name(line: int | str) -> Words:
    return words(_("line %(n)s"), n=str(line).removeprefix("L"))
