"""Transcribe ``reference/1840/{map,tiles}.json`` into the project's compact data files.

Run once (``python tools/transcribe_1840_reference.py``); the output goes to
``src/tramways/g1840/data/`` and is what the package reads at runtime (the reference directory
is never needed at runtime). The format is documented in ``tramways.g1840.data``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REF = REPO.parent / "shared" / "reference" / "1840"
OUT = REPO / "src" / "tramways" / "g1840" / "data"

LAYOUT_NAMES = {"full": "full", "three_player_small": "small3", "two_player": "two_player"}

# The rules' Track Tile Chart (1840-rules-en.md, last page), transcribed by hand.
RULES_CHART = {
    "3": 7, "58": 12, "4": 10, "5": 5, "6": 5, "57": 5, "235": 3,
    "8858": 1, "8859": 1, "8860": 1, "8863": 1, "8864": 1, "8865": 1, "14": 5, "15": 5,
    "619": 5, "142": 6, "141": 6, "143": 4, "144": 4, "L20": 1, "L21": 1, "L22": 1, "L23": 1,
    "767": 3, "768": 3, "769": 3, "611": 11, "L17": 3, "455": 2, "L18": 1, "L19": 1,
    "L24": 1, "L25": 1, "L26": 1, "L27": 1, "L28": 1, "L29": 1, "L30": 1, "L31": 1,
    "L1": 10, "L2": 11, "L3": 2, "L4": 5, "L5": 2, "L6": 2, "L7": 2, "L8": 2, "L9": 2,
    "L10": 2, "L11": 2, "L12": 2, "L13": 1, "L14": 1, "L15": 1, "L16": 2,
}


def end_text(end: dict) -> str:
    if "edge" in end:
        text = f"e{end['edge']}"
        if "lane" in end:
            text += f":{end['lane']['index']}/{end['lane']['of']}"
        return text
    return f"l{end['location']}"


def path_text(path: dict) -> str:
    words = [end_text(path["a"]), end_text(path["b"]), path["track"]]
    if path.get("terminal"):
        words.append("terminal")
    if path.get("lanes"):
        words.append(f"x{path['lanes']}")
    return " ".join(words)


def loc_list(loc: dict) -> list:
    kind = loc["type"]
    revenue = loc.get("revenue", 0)
    tracks = loc.get("served_by_track", ["tram"])
    return [loc["id"], kind, revenue, loc.get("slots") or 0, sorted(tracks)]


def first_tiles(h: dict, tiles: list[dict], upgrades: dict) -> list[str]:
    area = h["area"]
    if not h["tile_laying"].get("allowed"):
        return []
    by_type = upgrades["from_map_hex_type"]
    if area in ("plain", "danube", "interchange", "interchange_OO"):
        return by_type[area]
    if area == "stadtbahn":
        return list(h["stadtbahn"]["yellow_tile_options"])
    if area == "inner_city":
        return list(h["tile_laying"]["red_tile_rotations"])
    if area == "railway_station":
        special = [t["id"] for t in tiles if t.get("only_on_hex") == h["coord"]]
        if special:
            return special
        return [t["id"] for t in tiles if t["colour"] == "purple" and not t.get("only_on_hex")]
    raise ValueError(f"{h['coord']}: tiles allowed on unknown area {area}")


def hex_entry(h: dict, tiles: list[dict], upgrades: dict) -> dict:
    lay = h["tile_laying"]
    out: dict = {"area": h["area"]}
    if h.get("name"):
        out["name"] = h["name"]
    out["engine_colour"] = h["engine_colour"]
    if "printed_colour" in h:
        out["colour"] = h["printed_colour"]
    else:
        out["colour"] = h["printed_colour_guess"]
        out["colour_guess"] = True
    out["lay"] = {"allowed": bool(lay.get("allowed")), "cost": lay.get("cost", 0)}
    first = first_tiles(h, tiles, upgrades)
    if first:
        out["lay"]["first"] = first
    if "red_tile_rotations" in lay:
        out["lay"]["red_rotations"] = lay["red_tile_rotations"]
    if h.get("revenue_locations"):
        out["locs"] = [loc_list(loc) for loc in h["revenue_locations"]]
    if h.get("paths"):
        out["paths"] = [path_text(p) for p in h["paths"]]
    out["nb"] = {str(k): v for k, v in sorted(h["neighbours"].items(), key=lambda kv: int(kv[0]))}
    for src, dst in (
        ("tram_exits", "tram_exits"),
        ("stadtbahn_exits", "sb_exits"),
        ("impassable_edges", "impassable"),
        ("home_base_of_lines", "home"),
        ("on_stadtbahn_routes", "sb_routes"),
    ):
        if h.get(src):
            out[dst] = h[src]
    if h.get("same_area_as"):
        out["same_area"] = [s["edge"] for s in h["same_area_as"]]
    if h.get("label"):
        out["label"] = h["label"]
    if h.get("landmark"):
        out["landmark"] = h["landmark"]["private_company"]
        out["landmark_bonus"] = h["landmark"]["route_bonus"]
    if h.get("stadtbahn"):
        s = h["stadtbahn"]
        out["stadtbahn"] = {
            "company": s["company"],
            "index": s["sequence_index"],
            "exits": s["required_exits"],
            "bonus": s["bonus_action"],
            "interchange": s["has_interchange"],
            "options": s["yellow_tile_options"],
        }
    if h.get("stadtbahn_station_markers"):
        out["sb_markers"] = [
            [m["company"], m["revenue_location"]] for m in h["stadtbahn_station_markers"]
        ]
    if h.get("notes"):
        notes = h["notes"]
        out["notes"] = notes if isinstance(notes, str) else " ".join(notes)
    return out


def where(item: dict) -> str:
    return f"{item['hex']}.{item['revenue_location']}"


def layout_entry(name: str, L: dict, tiles: list[dict], upgrades: dict, privates: list[str]):
    sb_all = ["W", "V", "G", "D"]
    out = {
        "layout": name,
        "description": L["description"],
        "player_counts": L["player_counts"],
        "lines_in_game": L["lines_in_game"],
        "lines_removed": L["lines_removed"],
        "stadtbahn_companies": [c for c in sb_all if c not in L["stadtbahn_companies_removed"]],
        "stadtbahn_removed": L["stadtbahn_companies_removed"],
        "privates_in_game": [p for p in privates if p not in L["private_companies_removed"]],
        "privates_removed": L["private_companies_removed"],
        "home_bases": L["home_bases"],
        "landmarks": L["landmarks"],
        "areas": [{"name": a["name"], "hexes": a["hexes"]} for a in
                  L["areas_spanning_several_hexes"]],
        "stadtbahn_lines": {
            company: {
                "termini": [where(t) for t in line["termini"]],
                "route": [step["hex"] for step in line["route"]],
                "buildable": line["buildable_hexes_in_order"],
                "markers": [where(m) for m in line["station_markers_at_start"]],
                "revenue_before_any_tile": line["revenue_before_any_tile"],
            }
            for company, line in L["stadtbahn_lines"].items()
        },
        "hexes": {h["coord"]: hex_entry(h, tiles, upgrades) for h in L["hexes"]},
    }
    return out


def tile_entry(t: dict, upgrades: dict) -> dict:
    out: dict = {"colour": t["colour"]}
    if t["orange_edged"]:
        out["orange"] = True
    if t["rules_chart_id"] != t["id"]:
        out["chart"] = t["rules_chart_id"]
    if t.get("label"):
        out["label"] = t["label"]
    if t.get("fixed_rotation") is not None:
        out["fixed_rotation"] = t["fixed_rotation"]
    if t.get("only_on_hex"):
        out["only_on_hex"] = t["only_on_hex"]
    out["qty_18xx"] = t["quantity"]
    out["locs"] = [loc_list(loc) for loc in t["revenue_locations"]]
    paths = []
    for p in t["paths"]:
        text = path_text(p)
        if text not in paths:  # L31a repeats one path in the source (a glitch)
            paths.append(text)
    out["paths"] = paths
    out["upgrades"] = upgrades["from_tile"].get(t["id"], [])
    return out


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def dump(path: Path, data: dict) -> None:
    """Write one top-level key per line, and one line per hex / tile / Stadtbahn line."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key in ("hexes", "tiles", "stadtbahn_lines") and isinstance(value, dict):
            lines.append(f" {compact(key)}: {{")
            inner = list(value.items())
            for j, (k, v) in enumerate(inner):
                c = "," if j < len(inner) - 1 else ""
                lines.append(f"  {compact(k)}: {compact(v)}{c}")
            lines.append(f" }}{comma}")
        else:
            lines.append(f" {compact(key)}: {compact(value)}{comma}")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    ref_map = json.loads((REF / "map.json").read_text(encoding="utf-8"))
    ref_tiles = json.loads((REF / "tiles.json").read_text(encoding="utf-8"))
    ref_ent = json.loads((REF / "entities.json").read_text(encoding="utf-8"))
    privates = [p["name"] for p in ref_ent["private_companies"]]
    tiles = ref_tiles["tiles"]
    upgrades = ref_tiles["upgrades"]
    dump(OUT / "tiles.json", {
        "about": "1840 track tiles, transcribed from reference/1840/tiles.json; chart = the "
                 "rules' Track Tile Chart (R-LR-11); qty_18xx = 18xx.games quantities (X-7).",
        "chart": RULES_CHART,
        "colour_availability": {
            "yellow": "LR1a", "green": "LR2a", "brown": "LR4a", "grey": "LR5a",
            "red": "LR1a", "purple": "LR1a",
        },
        "colour_availability_notes": ref_tiles["colour_availability"],
        "tiles": {t["id"]: tile_entry(t, upgrades) for t in tiles},
    })
    for ref_name, name in LAYOUT_NAMES.items():
        L = ref_map["layouts"][ref_name]
        dump(OUT / f"map_{name}.json", layout_entry(name, L, tiles, upgrades, privates))
    return 0


if __name__ == "__main__":
    sys.exit(main())
