"""The documentation: the README's two commands, and every relative link of the pages.

Every link of ``README.md``, ``CONTRIBUTING.md`` and ``docs/*.md`` that is not a web address
must name a file of the repository, and its ``#anchor`` (if any) a heading of that file, by
GitHub's rule for heading anchors.  Links inside code (fenced blocks, backticks) are text, not
links, and are left alone.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])

INSTALL_AND_SERVE = (
    "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/tramways serve"
)
TEST_COMMAND = ".venv/bin/python -m pytest -n 2"

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text with fenced code blocks and code spans blanked out."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, ``-``
    and ``_`` kept, of any script), each space a ``-``."""
    text = heading.strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of ``path``; a repeated heading gets ``-1``, ``-2``, ... as on
    GitHub."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = anchor(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(path: Path) -> list[str]:
    """The link targets of ``path`` that are not web or mail addresses."""
    return [target for target in _LINK.findall(_prose(path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", target)]


def test_anchor_follows_github():
    assert anchor("The core: records, actions, replay") == "the-core-records-actions-replay"
    assert anchor('Notifications ("your turn")') == "notifications-your-turn"
    assert (anchor("Playing in the browser (the pages, `tramways.server.web`)")
            == "playing-in-the-browser-the-pages-tramwaysserverweb")
    assert anchor("Языки и 1840") == "языки-и-1840"


def test_links_skip_code_and_web_addresses(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("[a](a.md) ![b](img/b.png) [c](https://x.org) `[d](d.md)`\n"
                    "```\n[e](e.md)\n```\n[f](#top)\n", encoding="utf-8")
    assert links(page) == ["a.md", "img/b.png", "#top"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    broken = []
    for target in links(page):
        file_part, _, fragment = target.partition("#")
        resolved = (page.parent / file_part).resolve() if file_part else page
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved}")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no heading #{fragment} in {resolved.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_readme_opens_with_the_two_commands():
    """The README's first block is the install-and-serve line and the test command, exactly;
    CI runs the same test command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert first is not None
    assert first.group(1).splitlines() == [INSTALL_AND_SERVE, TEST_COMMAND]
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_is_a_short_page():
    """The README stays a short page (what it is, the two commands, a tour, links); the rest
    lives in docs/."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 220
