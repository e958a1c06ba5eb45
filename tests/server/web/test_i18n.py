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


def test_the_pages_speak_the_four_languages_of_the_rulebook() -> None:
    """English, German, Russian and Spanish: the editions of the 1840 rulebook (issue 12)."""
    assert set(LANGUAGE_NAMES) >= {"en", "de", "ru", "es"}
    for lang in ("de", "ru", "es"):
        assert (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").is_file()
        assert (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.mo").is_file()


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


def _ids(catalog: Catalog) -> list[str | tuple[str, str]]:
    return [m.id for m in catalog if m.id]


def test_the_template_holds_exactly_the_strings_marked_in_the_pages() -> None:
    """``messages.pot`` is what ``pybabel extract`` finds today (CONTRIBUTING.md), sorted: a
    string marked for translation and missing from it, or one left over, fails here."""
    with open(WEB / "messages.pot", "rb") as f:
        template = read_po(f)
    ids = _ids(template)
    assert set(ids) == set(_extracted())
    assert ids == sorted(ids, key=_key)
    assert len(ids) > 500


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGE_NAMES if lang != DEFAULT_LANGUAGE])
def test_catalog_is_the_template_updated(lang: str) -> None:
    """Each catalog holds the template's strings in its order (``pybabel update``), none
    obsolete, none appended by hand out of order, none fuzzy."""
    with open(WEB / "messages.pot", "rb") as f:
        template = read_po(f)
    catalog = _catalog(lang)
    assert _ids(catalog) == _ids(template)
    assert not catalog.obsolete
    assert [m.id for m in catalog if m.id and "fuzzy" in m.flags] == []


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


def test_russian_plurals_and_spanish_words_of_the_rulebook() -> None:
    ru = environment("ru")
    text = ru.from_string(
        "{% for n in (1, 3, 5, 21) %}{{ ngettext('%(num)d point', '%(num)d points', n) }}"
        "{{ ', ' if not loop.last }}{% endfor %}").render()
    assert text == "1 очко, 3 очка, 5 очков, 21 очко"
    assert ru.from_string("{{ _('Round Bar') }} / {{ _('Treasury') }}").render() == (
        "Трек раундов / Казна")  # the Russian rulebook's words (III.4, IV.1)
    es = environment("es")
    assert es.from_string("{{ _('Round Bar') }} / {{ _('Privates') }}").render() == (
        "Barra de rondas / Compañías privadas")  # the Spanish rulebook's words
    assert es.from_string("{{ ngettext('%(num)d point', '%(num)d points', 1) }}").render() == (
        "1 punto")


def test_browser_language_chooses_russian_and_spanish() -> None:
    assert negotiate(None, None, "ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    assert negotiate(None, None, "es-AR, en;q=0.5") == "es"
    assert negotiate("es", "ru", "de") == "es"


def test_pages_switch_language_and_keep_rule_ids_in_refusals(sqlite_client) -> None:
    """Every page links the four languages; ``?lang=ru`` is remembered; a refused move is
    told in Russian with the rule id and the engine's message as they are (IX.6 stays IX.6,
    to be looked up in one's own rulebook)."""
    import html
    import re
    from urllib.parse import urlencode

    lobby = sqlite_client.get("/", headers={"accept-language": "es-ES,es;q=0.9"}).text
    assert '<html lang="es">' in lobby and "Nueva partida" in lobby
    for code in ("en", "de", "ru"):
        assert f'hreflang="{code}"' in lobby
    page = sqlite_client.get("/?lang=ru")
    assert "Новая игра" in page.text and page.cookies.get("lang") == "ru"
    created = sqlite_client.post("/new1840?lang=ru", content=urlencode(
        {"players": "2", "map": "two", "seat1": "human", "seat2": "human", "seed": "3"}),
        headers={"content-type": "application/x-www-form-urlencoded"}).text
    links = [html.unescape(x).removeprefix("http://testserver")
             for x in re.findall(r'value="(http://testserver/g/[^"]+token=[^"]+)"', created)]
    gid = links[0].split("/g/")[1].split("?")[0]
    state = sqlite_client.get(f"/api/games/{gid}").json()
    seat = state["to_act"][0]
    token = links[seat - 1].split("token=")[1]
    wrong = f"P{seat} par WT 90"  # not a move of the private auction
    api = sqlite_client.post(f"/api/games/{gid}/moves?token={token}",
                             json={"n": state["n"], "action": wrong}).json()
    reply = sqlite_client.post(f"/g/{gid}/move", content=urlencode(
        {"n": state["n"], "action": wrong, "act_token": token, "token": token}),
        headers={"content-type": "application/x-www-form-urlencoded"})
    assert "Этот ход не разрешён:" in reply.text
    assert f"<code>{html.escape(api['rule'] + ': ' + api['message'], quote=True)}</code>" in (
        reply.text)
    assert re.fullmatch(r"[IVX]+(\.\d+)*|R-[A-Z]+-\d+", api["rule"])  # a rulebook or RULINGS id


def test_your_turn_messages_in_russian_and_spanish() -> None:
    from tramways.server.notify import TurnEvent
    from tramways.server.web.notify_text import turn_message

    event = TurnEvent("g1", "1840", 4, ((2, "Боря"),))
    ru = turn_message("ru", event, "https://t.example/g/g1")
    assert ru.subject == "1840: Венские трамваи: ваш ход"
    assert ru.body.startswith("Боря, ваш ход в игре «1840: Венские трамваи» (ход 5):\n\n"
                              "https://t.example/g/g1\n")
    es = turn_message("es", event, "https://t.example/g/g1")
    assert es.chat == "1840: Tranvías de Viena: Боря, es tu turno (jugada 5). https://t.example/g/g1"
    assert turn_message("xx", event, "/g/g1").subject == "1840 Vienna Tramways: your turn"


def test_the_1840_log_in_russian_and_spanish() -> None:
    from tramways.server.web.g1840_log import log_line
    from tramways.server.web.i18n import translations

    ru, es = translations("ru").gettext, translations("es").gettext
    assert log_line("Player 2 bids 45 for KK", ru) == "Player 2 ставит 45 на KK"
    assert log_line("WT buys a orange tram for 180", ru) == (
        "WT покупает трамвай (оранжевый) за 180")
    assert log_line("Line 7 lays tile 57 on E17 (rotation 2)", es) == (
        "La línea 7 coloca la loseta 57 en E17 (rotación 2)")
