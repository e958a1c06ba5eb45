""""Your turn" messages in the language of the page where the e-mail address or the webhook
was set (the pages' catalogs; English when none was known)."""

from __future__ import annotations

from tramways.server.notify import Message, TurnEvent
from tramways.server.web.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, translations


def turn_message(lang: str | None, event: TurnEvent, link: str) -> Message:
    _ = translations(lang if lang in LANGUAGE_NAMES else DEFAULT_LANGUAGE).gettext
    if event.game == "1840":
        game = _("1840 Vienna Tramways")
    elif event.game == "trambahn":
        game = _("Trambahn")
    else:
        game = event.game
    names = ", ".join(name for _seat, name in event.seats)
    values = {"game": game, "names": names, "n": event.n + 1}
    if event.reminder:
        return Message(
            _("%(game)s: reminder, your move is awaited") % values,
            _("%(names)s, %(game)s is waiting for your move (move %(n)d); when its deadline "
              "passes, the game goes on without you:") % values + f"\n\n{link}\n",
            _("%(game)s: reminder, %(names)s, your move is awaited (move %(n)d).") % values
            + f" {link}",
        )
    return Message(
        _("%(game)s: your turn") % values,
        _("%(names)s, it is your turn in %(game)s (move %(n)d):") % values
        + f"\n\n{link}\n\n"
        + _("Open the game with your own seat link (the lobby of the browser you play in lists it).")
        + "\n",
        _("%(game)s: %(names)s, your turn (move %(n)d).") % values + f" {link}",
    )
