"""Languages of the pages: every string has a translation in every catalog, compiled."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

pytest.importorskip("babel")
pytest.importorskip("fastapi")

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import read_mo, write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from tramways.server.web.i18n import (  # noqa: E402
    DEFAULT_LANGUAGE,
    LANGUAGE_NAMES,
    LOCALE_DIR,
    environment,
    negotiate,
)

WEB = LOCALE_DIR.parent
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2)}
METHODS = [("**.py", "python"), ("templates/**.html", "jinja2.ext:babel_extract")]


def _extracted() -> dict[str | tuple[str, str], str]:
    """Every message of the templates and Python files, as ``pybabel extract`` finds them."""
    out: dict[str | tuple[str, str], str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(WEB), METHODS, keywords=KEYWORDS
    ):
        out[message] = filename
    return out


def _catalog(lang: str) -> Catalog:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGE_NAMES if lang != DEFAULT_LANGUAGE])
def test_every_string_of_the_pages_is_translated(lang: str) -> None:
    messages = _extracted()
    assert len(messages) > 100
    catalog = _catalog(lang)
    missing = []
    for msgid, filename in messages.items():
        key = msgid[0] if isinstance(msgid, tuple) else msgid
        entry = catalog.get(key)
        strings = entry.string if entry is not None else None
        if isinstance(strings, str):
            strings = (strings,)
        if entry is None or "fuzzy" in entry.flags or not strings or not all(strings):
            missing.append((filename, msgid))
    assert missing == []
    # The placeholders of every translation are the original's (Babel's own checks).
    problems = [(m.id, errors) for m, errors in catalog.check() if errors]
    assert problems == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGE_NAMES if lang != DEFAULT_LANGUAGE])
def test_compiled_catalog_is_current(lang: str) -> None:
    """The committed .mo holds exactly the .po's translations (run ``pybabel compile``)."""
    catalog = _catalog(lang)
    folder = Path(LOCALE_DIR / lang / "LC_MESSAGES")
    def messages(f: io.BufferedIOBase) -> dict[str, str]:
        return {_key(m.id): _key(m.string) for m in read_mo(f) if m.id}

    with open(folder / "messages.mo", "rb") as f:
        committed = messages(f)
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    fresh.seek(0)
    assert committed == messages(fresh)
    assert len(committed) > 100


def _key(value: object) -> str:
    return "\x00".join(value) if isinstance(value, list | tuple) else str(value)


def test_pages_speak_german_with_german_plurals() -> None:
    env = environment("de")
    text = env.from_string(
        "{{ _('Your hand') }} / {{ ngettext('%(num)d point', '%(num)d points', 1) }}"
        " / {{ ngettext('%(num)d point', '%(num)d points', 3) }}"
    ).render()
    assert text == "Deine Hand / 1 Punkt / 3 Punkte"
    assert environment("en").from_string("{{ _('Your hand') }}").render() == "Your hand"


def test_language_choice_query_then_cookie_then_accept_language() -> None:
    assert negotiate("de", "en", "en-GB") == "de"
    assert negotiate(None, "de", "en-GB") == "de"
    assert negotiate("xx", None, "fr-FR, de-AT;q=0.8, en;q=0.5") == "de"
    assert negotiate(None, None, "de;q=0.2, en;q=0.9") == "en"
    assert negotiate(None, None, "fr, it") == "en"
    assert negotiate(None, None, None) == "en"
