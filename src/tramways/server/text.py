"""Text that people give the site: every check in one place.

A seat's name (the lobby's form, the API's ``names``, and ``settings.names`` alike) is the
only free text today; chat messages will come through here too.  A name is at most
:data:`NAME_LENGTH` characters after Unicode NFC normalisation and trimming, and every
character is printable: no control characters, no bidirectional overrides or isolates (which
turn the text around it), no zero-width or other format characters, no line breaks.
"""

from __future__ import annotations

import unicodedata

NAME_LENGTH = 40
"""The longest name, in characters."""


class TextRefused(ValueError):
    """A text that breaks one of the rules above; the message says which."""


def clean_name(value: object) -> str | None:
    """The name as it will be stored (normalised, trimmed), ``None`` for no name (``None`` or
    only spaces); :class:`TextRefused` for anything else that is not a printable text of at
    most :data:`NAME_LENGTH` characters."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TextRefused("a name is a text")
    if len(value) > 4 * NAME_LENGTH:  # before normalising: never work on a huge text
        raise TextRefused(f"a name is at most {NAME_LENGTH} characters")
    text = unicodedata.normalize("NFC", value).strip()
    if len(text) > NAME_LENGTH:
        raise TextRefused(f"a name is at most {NAME_LENGTH} characters")
    if not text.isprintable():
        raise TextRefused("a name holds only printable characters (no control, direction or "
                          "invisible characters)")
    return text or None


MESSAGE_LENGTH = 500
"""The longest chat message, in characters."""


def clean_message(value: object) -> str:
    """A chat message as it will be stored: NFC, trimmed, 1-:data:`MESSAGE_LENGTH` printable
    characters (no control, direction or invisible characters; no line breaks)."""
    if not isinstance(value, str):
        raise TextRefused("a message is a text")
    if len(value) > 4 * MESSAGE_LENGTH:
        raise TextRefused(f"a message is at most {MESSAGE_LENGTH} characters")
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise TextRefused("the message is empty")
    if len(text) > MESSAGE_LENGTH:
        raise TextRefused(f"a message is at most {MESSAGE_LENGTH} characters")
    if not text.isprintable():
        raise TextRefused("a message holds only printable characters (no control, direction "
                          "or invisible characters, no line breaks)")
    return text
