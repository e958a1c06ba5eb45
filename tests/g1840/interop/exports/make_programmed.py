"""How the programmed-action exports beside this file were made (issue 22, item 1).

18xx.games lets a player program actions (``program_buy_shares``, ``program_share_pass``) and
disable a program (``program_disable``); what a program does is recorded as ``auto_actions``
of the action after which it acted, often another player's, several on one parent.  These files
take the 2-player record of ../shared/reference/1840/oracle through SR5 (its actions 0-333) and
write Player 2006's own buys of W there as the work of a program, exactly as the site records
one:

* ``programmed_buy_shares.json``: at action 322 Player 2006 programs "buy W until 40%"
  (``program_buy_shares``: ``corporation``, ``until_condition``, ``from_market``,
  ``auto_pass_after``); its four buys (W_2..W_5) become ``buy_shares`` auto actions of
  Player 621's buys before them; the last parent also carries the site's ``program_disable``
  (the program is done); later ``program_share_pass`` passes for 2006 as in the record;
* ``programmed_pass_after.json``: the same program with ``auto_pass_after``: at 2006's next
  turn after its last buy it passes (an auto ``pass`` and the ``program_disable``: two auto
  actions of two kinds on one parent), and Player 2006 disables a program by hand once
  (``program_disable`` as an action of its own).

Ids stay as the site wrote them (removed actions leave gaps).  Run from the repository root:

    .venv/bin/python tests/g1840/interop/exports/make_programmed.py
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ORACLE = HERE.parents[3] / ".." / "shared" / "reference" / "1840" / "oracle"
CUT = 334  # through SR5, before LR5a
PROGRAMMER = 2006
BUYS_OF_W = (323, 325, 327, 329)  # Player 2006's buys W_2..W_5, each after one of 621's

Json = dict[str, Any]


def _program(ident: int, auto_pass_after: bool) -> Json:
    return {"type": "program_buy_shares", "entity": PROGRAMMER, "entity_type": "player",
            "id": ident, "created_at": 0, "corporation": "W", "until_condition": 4,
            "from_market": False, "auto_pass_after": auto_pass_after}


def _disable(entity: int = PROGRAMMER, ident: int | None = None) -> Json:
    out: Json = {"type": "program_disable", "entity": entity, "entity_type": "player",
                 "reason": "Shares bought"}
    if ident is not None:
        out["id"] = ident
    return out


def _auto(action: Json) -> Json:
    return {k: v for k, v in action.items() if k not in ("id", "auto_actions")}


def build(auto_pass_after: bool) -> Json:
    data: Json = json.loads((ORACLE / "2player.json").read_text("utf-8"))
    actions = copy.deepcopy(data["actions"][:CUT])
    out: list[Json] = []
    for index, action in enumerate(actions):
        if index in BUYS_OF_W:
            parent = out[-1]
            parent.setdefault("auto_actions", []).append(_auto(action))
            if index == BUYS_OF_W[-1] and not auto_pass_after:
                parent["auto_actions"].append(_disable())
            continue
        if index == 322:  # the program is set in 621's turn, before 621's buy of G_9
            out.append(_program(10_000, auto_pass_after))
        if auto_pass_after and index == 330:
            # 2006's next turn comes after 621's buy of D_6: the program, done buying,
            # passes (auto_pass_after) and is disabled; the share-pass program set next
            # then passes only from 621's buy of W_6 on, as before
            action = copy.deepcopy(action)
            action["auto_actions"] = [
                {"type": "pass", "entity": PROGRAMMER, "entity_type": "player"}, _disable()]
        if auto_pass_after and index == 331:
            action = {k: v for k, v in action.items() if k != "auto_actions"}
        if index == 333 and auto_pass_after:  # a program disabled by hand: no game effect
            out.append(_disable(ident=10_001))
        out.append(action)
    data["actions"] = out
    data["description"] = ("2player.json through SR5 with Player 2006's buys of W made by a "
                           "program_buy_shares" + (" with auto_pass_after" if auto_pass_after
                                                   else "") + " (tests, issue 22)")
    data["status"] = "active"
    data.pop("result", None)
    return data


def main() -> None:
    for name, flag in (("programmed_buy_shares", False), ("programmed_pass_after", True)):
        (HERE / f"{name}.json").write_text(json.dumps(build(flag), indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
