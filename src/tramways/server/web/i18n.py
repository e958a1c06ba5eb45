"""Languages of the pages: gettext catalogs (Babel) and one Jinja2 environment per language.

Every string a page shows goes through ``_()`` / ``ngettext()`` in the templates.  The
catalogs live in ``locale/<lang>/LC_MESSAGES/messages.po`` with the compiled ``.mo`` beside
them (committed, so ``pip install`` needs no build step); English is the source language.
A request's language is ``?lang=xx`` (remembered in a cookie), else the cookie, else the
browser's ``Accept-Language``, else English.  How to add a language: CONTRIBUTING.md,
"Adding a language to the pages".
"""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations
from jinja2 import BytecodeCache, Environment, FileSystemLoader, select_autoescape
from jinja2.bccache import Bucket

HERE = Path(__file__).parent
LOCALE_DIR = HERE / "locale"
TEMPLATE_DIR = HERE / "templates"
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "ru": "Русский", "es": "Español"}
"""Every language of the site, by its own name; a new catalog is listed here."""


def languages() -> list[str]:
    return list(LANGUAGE_NAMES)


@cache
def translations(lang: str) -> NullTranslations:
    if lang == DEFAULT_LANGUAGE:
        return NullTranslations()
    loaded = Translations.load(str(LOCALE_DIR), [lang])
    if not isinstance(loaded, Translations):
        raise LookupError(f"no compiled catalog for language {lang!r} in {LOCALE_DIR}")
    return loaded


class SharedCode(BytecodeCache):
    """The compiled templates, shared by the environments of every language of this process:
    their options are the same (only the translations and filters differ, looked up when a
    page renders), so a template is compiled once, not once per language (compiling the
    1840 table is some 0.3 s of the interpreter, held by one thread)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        code = bucket.bytecode_to_string()
        with self._lock:
            self._code[bucket.key] = code


_SHARED_CODE = SharedCode()


@cache
def environment(lang: str) -> Environment:
    """The Jinja2 environment of one language (gettext installed, autoescaping on)."""
    env = Environment(
        bytecode_cache=_SHARED_CODE,
        loader=FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    from tramways.server.web.g1840_log import log_line

    gettext = translations(lang).gettext
    env.filters["g1840_log"] = lambda line: log_line(str(line), gettext)
    env.filters["g1840_say"] = lambda words: words.say(gettext) if words is not None else ""
    env.globals["lang"] = lang
    env.globals["language_names"] = LANGUAGE_NAMES
    from tramways.bots import bot_names

    env.globals["stand_ins"] = bot_names("1840")  # who may stand in for a late seat (both games)
    return env


def negotiate(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language of a request: ``?lang``, then the cookie, then ``Accept-Language``."""
    for choice in (query, cookie):
        if choice in LANGUAGE_NAMES:
            return choice
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGUAGE_NAMES and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE
