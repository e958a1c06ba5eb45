"""The new-game forms in a real browser (Playwright driving Debian's chromium): the Trambahn
and 1840 forms of ``/``, the 1840 form refused and shown again by ``/new1840``, and the form
of the lobby of open games (``/lobby``, pace over days: every field shown), in the four
languages at 1280 px and on a phone (390 px).  Every choice of every select fits the select's
text box, whichever is chosen (a chosen choice wider than the box is shown cut: the German
"When a player resigns" once showed "der Computer spielt den Platz bis zum End"), and no
select or fieldset reaches beyond the page.  With ``TRAMWAYS_SCREENSHOT_DIR`` set, the forms
are kept as PNGs (``forms-LANG-WIDTH.png``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from tests.server.web.chromium import needs_chromium  # noqa: E402

pytestmark = needs_chromium

ARROW = 20
"""The pixels of a select's box its drop-down arrow takes (chromium draws it in about 16)."""

FAULTS = """([root, arrow]) => {
  const pen = document.createElement("canvas").getContext("2d");
  const page = document.documentElement.clientWidth;
  const faults = [];
  for (const select of document.querySelectorAll(root + " select")) {
    if (select.offsetParent === null) continue;  // a hidden field (another pace's)
    const style = getComputedStyle(select);
    pen.font = style.font;
    const box = select.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - arrow;
    for (const option of select.options) {
      const width = pen.measureText(option.text).width;
      if (width > box) faults.push(`${select.id}: "${option.text}" ${Math.round(width)} > ${Math.round(box)} px`);
    }
    if (select.getBoundingClientRect().right > page + 0.5) faults.push(`${select.id}: beyond the page`);
  }
  for (const fieldset of document.querySelectorAll(root + " fieldset")) {
    if (fieldset.getBoundingClientRect().right > page + 0.5) faults.push("a fieldset beyond the page");
  }
  return faults;
}"""


@pytest.mark.parametrize("lang", ["en", "de", "ru", "es"])
def test_new_game_forms_every_choice_fits_its_select(browser, fast_server: str, shots: Path,
                                                    lang: str) -> None:
    base = fast_server
    faults: list[str] = []
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=lang)
        page = context.new_page()
        page.goto(f"{base}/?lang={lang}")
        faults += [f"{width} /: {f}" for f in page.evaluate(FAULTS, ["main", ARROW])]
        page.locator("main").screenshot(path=str(shots / f"forms-{lang}-{width}.png"))
        # 4 players on the small map (3 only): the server refuses and shows the form again
        page.evaluate("document.getElementById('map').value = 'small'")
        page.click("#create-1840 button[type=submit]")
        page.wait_for_url(f"{base}/new1840*")
        assert page.locator("p.error").count() == 1
        faults += [f"{width} /new1840: {f}" for f in page.evaluate(FAULTS, ["main", ARROW])]
        page.goto(f"{base}/account/signup?lang={lang}")
        page.fill("#name", f"Forms{lang}{width}")
        page.fill("#password", "a good password")
        page.click("#account-form button[type=submit]")
        page.wait_for_url(f"{base}/lobby*")
        page.select_option("#o-pace", "async")
        faults += [f"{width} /lobby: {f}" for f in page.evaluate(FAULTS, ["#open-form", ARROW])]
        page.locator("#open-new").screenshot(path=str(shots / f"forms-lobby-{lang}-{width}.png"))
        context.close()
    assert faults == []
