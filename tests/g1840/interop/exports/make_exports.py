"""How the hand-built 18xx.games exports beside this file were made (issue 10, item 12).

Each is a real export of ../shared/reference/1840/oracle cut at a point, with actions written by
hand in the site's format after (or between) the recorded ones; ids are renumbered so that they
stay sequential, as the site writes them.  Run once from the repository root:

    .venv/bin/python tests/g1840/interop/exports/make_exports.py

The tests read only the JSON files written here (they need nothing from ../shared).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ORACLE = HERE.parents[3] / ".." / "shared" / "reference" / "1840" / "oracle"

Json = dict[str, Any]


def _load(name: str) -> Json:
    data: Json = json.loads((ORACLE / name).read_text("utf-8"))
    return data


def _cut(data: Json, n: int, extra: list[Json], *, status: str = "active",
         description: str) -> Json:
    """The first ``n`` actions, then ``extra``; ids renumbered 1.. in order."""
    out = copy.deepcopy(data)
    actions = [*out["actions"][:n], *copy.deepcopy(extra)]
    renumber = {}
    for new, act in enumerate(actions, start=1):
        if "id" in act:
            renumber[act["id"]] = new
        act["id"] = new
    for act in actions:
        if act.get("action_id") in renumber:
            act["action_id"] = renumber[act["action_id"]]
    out["actions"] = actions
    out["status"] = status
    out["description"] = description
    for key in ("result", "game_end_reason", "finished_at", "turn", "round", "acting"):
        out.pop(key, None)
    return out


def _player(ident: int, type_: str, **fields: Any) -> Json:
    return {"type": type_, "entity": ident, "entity_type": "player", "id": 0, **fields}


def _line(line: str, type_: str, **fields: Any) -> Json:
    return {"type": type_, "entity": line, "entity_type": "corporation", "id": 0, **fields}


def exports() -> dict[str, Json]:
    two = _load("2player.json")
    p1, p2 = 2006, 621
    made: dict[str, Json] = {}
    # Chat between actions (the site stores them as `message` actions of a player).
    chat = copy.deepcopy(two)
    acts = chat["actions"][:33]
    acts.insert(0, _player(p1, "message", message="hi, good luck"))
    acts.insert(12, _player(p2, "message", message="I take SD then"))
    acts.insert(31, _player(p1, "message", message="line 4 first"))
    chat["actions"] = acts
    made["chat_messages_ignored"] = _cut(chat, len(acts), [], description=(
        "2player.json actions 0-32 with three chat messages inserted (before 0, 11, 29)"))
    # A game still in progress: cut in the first Line Round, in line 5's turn.
    made["game_in_progress"] = _cut(two, 36, [], description=(
        "2player.json actions 0-35: LR1a, line 5 has laid three tiles and not run"))
    # A game ended by hand in the first Line Round; result = the site's values then.
    made["game_ended_by_hand"] = _cut(
        two, 39, [_player(p2, "end_game")], status="finished",
        description="2player.json actions 0-38, then Player 2 ends the game by hand")
    made["game_ended_by_hand"]["game_end_reason"] = "manually_ended"
    # the players' values after action 38 in 2player.trace.jsonl
    made["game_ended_by_hand"]["result"] = {str(p1): 690, str(p2): 705}
    # A line's company (WT, directed by Player 1) buys Player 2's private HB after its run.
    made["company_buys_private_from_another_player"] = _cut(
        two, 88, [_line("4", "buy_company", company="HB", price=40), _line("4", "pass")],
        description=("2player.json actions 0-87, then line 4 (WT, Player 1's) buys HB from "
                     "Player 2 for 40 and ends its turn"))
    # A mandatory tram purchase with player loans: WKB (100 in its treasury, CR1) scraps both
    # its oranges; it must buy one at once for 300, its director Player 1 (cash 0) taking two
    # loans of 100 for the 200 it lacks (R-CR-5, VIII.5.3; X-18).  As the site played it in
    # fz2027_10_5p actions 81-84, written here after action 80.
    five = _load("site-engine-games/fz2027_10_5p.json")
    wkb = {"entity": "WKB", "entity_type": "corporation", "id": 0}
    made["mandatory_tram_purchase_with_loans"] = _cut(
        five, 81, [{"type": "scrap_train", **wkb, "train": "O1-3"},
                   {"type": "scrap_train", **wkb, "train": "O1-2"},
                   {"type": "buy_train", **wkb, "train": "O1-4", "price": 300, "variant": "O1"},
                   {"type": "pass", "entity": "WT", "entity_type": "corporation", "id": 0}],
        description=("fz2027_10_5p.json actions 0-80, then WKB scraps both oranges, buys one "
                     "for 300 with its director's loans, and WT passes"))
    # Negative income: in LR5b line 3 (GW, a yellow tram; pink trams bought, so its
    # maintenance is -200, Table 7) runs F14-E15 for 50 instead of its recorded 220: 150 of
    # loss, taken from GW's treasury (445) while the revenue space (20) stays.  The site's
    # run_routes records the revenue before maintenance (220 for the recorded run, whose
    # income is 20).
    four = _load("site-engine-games/fz2027_4_5p.json")
    made["negative_income"] = _cut(
        four, 691, [_line("3", "run_routes", routes=[{
            "train": "Y1-6", "connections": [["F14", "E15"]], "hexes": ["F14", "E15"],
            "revenue": 50, "revenue_str": "F14-E15", "nodes": ["F14-0", "E15-0"]}],
            extra_revenue=0, subsidy=0), _line("3", "pass")],
        description=("fz2027_4_5p.json actions 0-690, then line 3 runs F14-E15 for 50 with "
                     "a yellow tram whose maintenance is 200, and ends its turn"))
    # Negative income beyond the treasury: in LR4a line 16 (DT, an orange tram with 100
    # maintenance once pink trams are bought) runs E27-D26 for 40 instead of its recorded 110:
    # 60 of loss, 5 from DT's treasury, 55 from its director Player 3 (cash 109).
    twenty_two = _load("site-engine-games/fz2027_22_5p.json")
    made["negative_income_director_pays"] = _cut(
        twenty_two, 513, [_line("16", "run_routes", routes=[{
            "train": "O1-2", "connections": [["E27", "D26"]], "hexes": ["E27", "D26"],
            "revenue": 40, "revenue_str": "E27-D26", "nodes": ["E27-0", "D26-0"]}],
            extra_revenue=0, subsidy=0), _line("16", "pass")],
        description=("fz2027_22_5p.json actions 0-512, then line 16 runs E27-D26 for 40 with "
                     "an orange tram whose maintenance is 100, and ends its turn"))
    return made


def main() -> None:
    for name, data in exports().items():
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        print(name, len(data["actions"]))


if __name__ == "__main__":
    main()
