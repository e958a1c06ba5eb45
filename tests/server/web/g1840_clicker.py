"""A person playing their 1840 seat by clicking only (issue 23, the whole-game done-when).

The clicker reads the page as a person does: the controls in sight and their words, the
prices they show (``data-price``), the hexes the page highlights.  It never reads or types a
move's notation: it chooses among the offered controls by a simple policy and clicks them.

The policy, in the order it is tried (the first that applies is clicked):

- an offer for the person's private: decline it (IV.2);
- a line's bonus action: skip it (R-LR-1);
- a line's turn: lay a tile on the first hex offered, with its first rotation that costs
  nothing (IX.5), then place the first station marker offered (IX.6), then run the best route
  (IX.8), then end the turn;
- a dividend: pay out everything (VIII.5.1);
- a company's trams: the cheapest once per company and Company Round (VIII.3), else no more;
- a line auction: a company opens one a Company Round at the lowest bid (VIII.6) and passes
  in the bidding;
- the Share Rounds: start one company at the cheapest par (VII.5), buy the cheapest share twice
  a Share Round (VII.6), never sell;
- otherwise: the first pass / done / playing-order button, else the first control offered.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from tests.server.web.g1840_controls_check import is_notation

WAIT = 60_000

COLLECT = """() => {
  const t = document.getElementById("table");
  const text = (e) => (e.innerText || e.textContent || "").trim();
  const choices = [...t.querySelectorAll(".actions .choice")].map((c) => ({
    kind: [...c.classList].find((k) => k.startsWith("choice-")).slice(7),
    title: text(c.querySelector(".group-label, form.pick label") || c),
    buttons: [...c.querySelectorAll("button[name=action]")].map((b) => ({
      label: text(b), price: b.dataset.price ?? null, gets: b.dataset.gets ?? null,
      confirm: b.dataset.confirm ?? null})),
    options: [...c.querySelectorAll("select[name=action] option")].map((o) => ({
      label: text(o), price: o.dataset.price ?? null, selected: o.selected})),
  }));
  const labels = [...t.querySelectorAll(
    ".actions button, .actions option, .actions label, .actions .group-label, .actions summary")]
    .map(text);
  return {
    n: Number(t.dataset.n), over: t.classList.contains("over"),
    mine: t.classList.contains("my-turn"), round: text(document.getElementById("round")),
    error: t.querySelector(":scope > .error") ? text(t.querySelector(":scope > .error")) : null,
    lineTurn: t.querySelector(".line-turn") ? text(t.querySelector(".line-turn")) : null,
    choices, labels,
    lays: [...t.querySelectorAll(".lay-hint button.hex-link")].map((b) => b.dataset.hex),
    stations: [...t.querySelectorAll(".places > form button.place")].map(text),
  };
}"""


@dataclass
class Clicker:
    """The person's seat on ``page``; what it clicked, by kind, in ``clicks``."""

    page: Any
    clicks: dict[str, int] = field(default_factory=dict)
    bought: set[str] = field(default_factory=set)
    """(round, title) of the tram purchases and line auctions already made."""
    shares: dict[str, int] = field(default_factory=dict)
    parred: bool = False
    labels: set[str] = field(default_factory=set)
    """Every control label seen (none may read as notation)."""
    no_lay: set[int] = field(default_factory=set)
    """Positions where no free lay was found on the first hex (the turn goes on without)."""
    waited: float = 0.0
    """Seconds spent waiting for the turn (the bots' moves and the page's refreshes)."""
    acting: float = 0.0
    """Seconds spent reading the page, clicking and waiting for the move's answer."""
    seconds: dict[str, float] = field(default_factory=dict)
    """``acting`` by what was done."""

    def wait_for_turn(self, deadline: float) -> dict[str, Any]:
        """The page once it is the person's turn or the game is over."""
        start = time.monotonic()
        remaining = max(1_000, int((deadline - start) * 1000))
        self.page.wait_for_selector("#table.my-turn:not(.busy), #table.over",
                                    timeout=min(WAIT, remaining))
        self.waited += time.monotonic() - start
        return dict(self.page.evaluate(COLLECT))

    def play(self, state: dict[str, Any]) -> str:
        """Choose and click one control on the page read as ``state``; what was done."""
        start = time.monotonic()
        done = self._play(state)
        took = time.monotonic() - start
        self.acting += took
        self.seconds[done] = self.seconds.get(done, 0.0) + took
        return done

    def _play(self, state: dict[str, Any]) -> str:
        for text in state["labels"]:
            assert not is_notation(text), text
            self.labels.add(text)
        assert state["error"] is None, state["error"]
        kinds: dict[str, Any] = {}
        for choice in state["choices"]:
            kinds.setdefault(choice["kind"], choice)
        n = state["n"]
        for step in (self._offer, self._bonus, self._line_turn, self._dividend, self._tram,
                     self._auction, self._share_round, self._simple):
            done = step(state, kinds)
            if done:
                self._wait_moved(n)
                self.clicks[done] = self.clicks.get(done, 0) + 1
                return done
        first = state["choices"][0]
        self._click_choice(first, 0)
        self._wait_moved(n)
        self.clicks["other"] = self.clicks.get("other", 0) + 1
        return f"other {first['kind']}"

    # -- clicking ----------------------------------------------------------------------------

    def _click_choice(self, choice: dict[str, Any], index: int) -> None:
        box = self.page.locator(f"#table .actions .choice-{choice['kind']}").first
        if choice["buttons"] and not choice["options"]:
            box.locator("button[name=action]").nth(index).click()
            return
        box.locator("select[name=action]").select_option(index=index)
        box.locator("form.pick button.primary").click()

    def _wait_moved(self, n: int) -> None:
        self.page.wait_for_selector(f'#table:not([data-n="{n}"]), #table > .error',
                                    timeout=WAIT)
        error = self.page.locator("#table > .error")
        assert error.count() == 0, error.first.inner_text()

    # -- the policy --------------------------------------------------------------------------

    def _offer(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        offer = kinds.get("offer")
        if offer is None:
            return None
        decline = next(i for i, b in enumerate(offer["buttons"]) if b["gets"] is None)
        self._click_choice(offer, decline)
        return "decline"

    def _bonus(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        if "bonus" not in kinds:
            return None
        self._click_choice(kinds["bonus"], 0)
        return "skip bonus"

    def _line_turn(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        if state["lays"] and state["n"] not in self.no_lay and self._lay(state["lays"][0]):
            return "lay"
        if state["stations"]:
            self.page.locator("#table .places > form button.place").first.click()
            return "station"
        if "run" in kinds:
            self.page.locator("#table .choice-run button.run").first.click()
            return "run"
        if state["lineTurn"] is not None and "simple" in kinds:
            self._click_choice(kinds["simple"], 0)
            return "end turn"
        return None

    def _lay(self, coord: str) -> bool:
        """The first hex offered, its first rotation that costs nothing, shown and confirmed."""
        page = self.page
        page.locator(f'#table .lay-hint button.hex-link[data-hex="{coord}"]').click()
        page.wait_for_selector("#hex-panel:not([hidden]) #hex-options button.rotation")
        rotations = page.locator("#hex-options button.rotation")
        costs = rotations.evaluate_all("bs => bs.map(b => b.dataset.cost ?? null)")
        labels = rotations.evaluate_all("bs => bs.map(b => b.textContent)")
        for label in labels:
            assert not is_notation(label), label
        free = [i for i, cost in enumerate(costs) if cost is None]
        if not free:
            page.click("#hex-close")
            self.no_lay.add(int(page.locator("#table").get_attribute("data-n") or -1))
            return False
        rotations.nth(free[0]).click()
        page.wait_for_selector("#hex-confirm:not([hidden])")
        confirm = page.locator("#hex-confirm button[name=action]")
        assert not is_notation(confirm.inner_text())
        confirm.click()
        return True

    def _dividend(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        """VIII.5.1: the full payout (the list's default, or the button paying most)."""
        dividend = kinds.get("dividend")
        if dividend is None:
            return None
        if dividend["options"]:
            chosen = next(i for i, o in enumerate(dividend["options"]) if o["selected"])
            amounts = [_first_number(o["label"]) for o in dividend["options"]]
        else:
            amounts = [_first_number(b["label"]) for b in dividend["buttons"]]
            chosen = max(range(len(amounts)), key=lambda i: amounts[i])
        assert amounts[chosen] == max(amounts), amounts  # the default is the full payout
        self._click_choice(dividend, chosen)
        return "dividend"

    def _tram(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        tram = kinds.get("tram")
        if tram is None:
            return None
        key = f"{state['round']} {tram['title']}"
        if key in self.bought and "simple" in kinds:
            self._click_choice(kinds["simple"], 0)
            return "no more trams"
        self.bought.add(key)
        prices = [int(b["price"]) for b in tram["buttons"]]
        self._click_choice(tram, min(range(len(prices)), key=lambda i: prices[i]))
        return "tram"

    def _auction(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        opening = kinds.get("auction")
        if opening is not None:
            key = f"{state['round']} {opening['title']}"
            if key not in self.bought:
                self.bought.add(key)
                self._click_choice(opening, 0)
                return "open a line auction"
        if "bid" in kinds and "simple" in kinds:
            self._click_choice(kinds["simple"], 0)
            return "pass"
        return None

    def _share_round(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        if "par" in kinds and not self.parred:
            par = kinds["par"]
            prices = [int(o["price"]) for o in par["options"]]
            self.parred = True
            self._click_choice(par, min(range(len(prices)), key=lambda i: prices[i]))
            return "par"
        share = kinds.get("buy_share")
        if share is not None and self.shares.get(state["round"], 0) < 2:
            self.shares[state["round"]] = self.shares.get(state["round"], 0) + 1
            prices = [int(b["price"]) for b in share["buttons"]]
            self._click_choice(share, min(range(len(prices)), key=lambda i: prices[i]))
            return "buy a share"
        return None

    def _simple(self, state: dict[str, Any], kinds: dict[str, Any]) -> str | None:
        if "simple" not in kinds:
            return None
        self._click_choice(kinds["simple"], 0)
        return "pass or done"


def _first_number(label: str) -> int:
    found = re.search(r"\d+", label)
    return int(found.group()) if found else 0
