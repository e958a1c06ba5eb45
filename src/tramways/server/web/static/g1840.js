// The 1840 map: pan and zoom over the SVG's viewBox (mouse, wheel, touch), and tile lays by
// clicking a hex: only that hex's legal tiles and rotations (from the seat's legal notations),
// each shown on the map (the server draws the board after the lay) before it is confirmed,
// with what it costs (the Danube's 40, a Stadtbahn tile's 20).  The station circles of the
// seat's legal station markers and marker removals are clickable; while the line may run, its
// route may be claimed by clicking stops (the server checks and values it, IX.2/IX.7/IX.8; a
// worse route than the best is refused by the engine when it is played).  The drawn route
// shows what each stop earns.

let box = null;      // the viewBox the player chose, kept across table refreshes
let full = null;     // the whole map's viewBox
const pointers = new Map();
let drag = null;
let moved = false;

const mapEl = () => document.getElementById("map");
const svgEl = () => mapEl()?.querySelector("svg");

function apply() {
  const svg = svgEl();
  if (!svg || !box) return;
  svg.setAttribute("viewBox", box.join(" "));
  legible(svg);
}

// A phone's map: the map's text is printed for a large sheet (hex ids
// 5.6 units, names, revenues 6 units), which at the whole map on a phone is 2 px high.  On a
// narrow map the page starts zoomed in far enough for that text to be read (MIN_TEXT_PX on
// screen), and at any zoom a label smaller than that is hidden rather than shown as a speck:
// zooming in brings it back.  A wide map (a desktop) is drawn as it always was.
const MIN_TEXT_PX = 9;
const NARROW_MAP_PX = 600;
const PHONE_TEXT_UNITS = 5.4;  // the smallest label the starting view makes legible (hex ids, names, revenues)

function narrow() { return (mapEl()?.clientWidth || 1e9) < NARROW_MAP_PX; }

function pixelsPerUnit(svg) {
  const r = svg.getBoundingClientRect();
  return box ? Math.min(r.width / box[2], r.height / box[3]) : 1;
}

function legible(svg) {
  const on = narrow();
  const scale = on ? pixelsPerUnit(svg) : 0;
  if (svg.dataset.legibleAt === String(scale)) return;
  svg.dataset.legibleAt = String(scale);
  for (const t of svg.querySelectorAll("text")) {
    const size = Number.parseFloat(t.getAttribute("font-size"));
    t.classList.toggle("lod-hidden", on && size > 0 && size * scale < MIN_TEXT_PX);
  }
}

// a phone turned on its side: the labels' sizes on the screen change with the map's width
window.addEventListener("resize", () => { const svg = svgEl(); if (svg) legible(svg); });

// The view a narrow map starts with: its middle, zoomed so that PHONE_TEXT_UNITS reads at
// MIN_TEXT_PX (the whole map is a click on ⤢ away).
function startBox(vb) {
  const map = mapEl();
  if (!narrow() || !map.clientHeight) return vb.slice();
  const scale = MIN_TEXT_PX / PHONE_TEXT_UNITS;
  const w = Math.min(vb[2], map.clientWidth / scale);
  const h = Math.min(vb[3], map.clientHeight / scale);
  return [vb[0] + (vb[2] - w) / 2, vb[1] + (vb[3] - h) / 2, w, h];
}

function setup() {
  const map = mapEl();
  const svg = svgEl();
  if (!map || !svg || svg.dataset.ready) return;
  svg.dataset.ready = "1";
  translateSvg(svg);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const vb = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  full = vb;
  if (!box) box = startBox(vb);
  apply();
  let lays = {};
  let places = {};
  try { lays = JSON.parse(map.dataset.lays || "{}"); } catch { lays = {}; }
  try { places = JSON.parse(map.dataset.places || "{}"); } catch { places = {}; }
  for (const hex of svg.querySelectorAll("polygon.hex")) {
    const c = hex.dataset.coord;
    if (lays[c]) hex.classList.add("legal-lay");
    if (lays[c] && lays[c].some((o) => o.cost)) hex.classList.add("costly-lay");
    if (lays[c] && lays[c].some((o) => !["normal", "stadtbahn"].includes(o.kind))) {
      hex.classList.add("bonus-lay");
    }
    if (places[c]) hex.classList.add("legal-place");
  }
  map.lays = lays;
  map.places = places;
  for (const stop of svg.querySelectorAll("g.stop")) {
    const [c, loc] = stop.dataset.stop.split(".");
    const here = (places[c] || []).filter((o) => String(o.location) === loc);
    if (here.length) {
      stop.classList.add(here.some((o) => o.kind === "removal") ? "legal-removal" : "legal-station");
    }
    if (map.dataset.line) stop.classList.add("claimable");
    if (claim.includes(stop.dataset.stop)) stop.classList.add("claimed");
  }
  let run = null;
  try { run = JSON.parse(map.dataset.run || "null"); } catch { run = null; }
  if (claimRun) run = claimRun;
  if (run) labelRun(run);
}

// What each stop of the drawn route earns, written beside the stop on the map.
function labelRun(run) {
  const svg = svgEl();
  if (!svg || !run) return;
  svg.querySelector("g.stop-values")?.remove();
  const ns = "http://www.w3.org/2000/svg";
  const layer = document.createElementNS(ns, "g");
  layer.setAttribute("class", "stop-values");
  svg.append(layer);
  const hex = svg.querySelector("polygon.hex");
  const size = hex ? hex.getBBox().width : 100;
  const toRoot = (el) => svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
  run.stops.forEach((place, i) => {
    const stop = svg.querySelector(`g.stop[data-stop="${place}"]`);
    if (!stop) return;
    const b = stop.getBBox();
    const m = toRoot(stop);
    const p = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(m);
    const g = document.createElementNS(ns, "g");
    g.setAttribute("class", "stop-value");
    g.dataset.stop = place;
    const w = size * 0.32;
    const h = size * 0.2;
    const x = p.x + size * 0.12;
    const y = p.y - size * 0.3;
    const rect = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({ x, y, width: w, height: h, rx: h / 4 })) rect.setAttribute(k, v);
    const text = document.createElementNS(ns, "text");
    for (const [k, v] of Object.entries({ x: x + w / 2, y: y + h / 2, "font-size": h * 0.8,
      "text-anchor": "middle", "dominant-baseline": "central" })) text.setAttribute(k, v);
    text.textContent = String(run.parts[i]);
    g.append(rect, text);
    layer.append(g);
  });
}

function zoom(factor, cx, cy) {
  if (!box) return;
  if (factor === 0) { box = full.slice(); apply(); return; }
  const [x, y, w, h] = box;
  const nw = Math.min(full[2] * 1.5, Math.max(full[2] / 12, w / factor));
  const nh = nw * h / w;
  const px = cx ?? x + w / 2;
  const py = cy ?? y + h / 2;
  box = [px - (px - x) * nw / w, py - (py - y) * nh / h, nw, nh];
  apply();
}

function toSvg(clientX, clientY) {
  const svg = svgEl();
  const r = svg.getBoundingClientRect();
  const [x, y, w, h] = box;
  const scale = Math.max(w / r.width, h / r.height);
  const ox = x + (w - r.width * scale) / 2;
  const oy = y + (h - r.height * scale) / 2;
  return [ox + (clientX - r.left) * scale, oy + (clientY - r.top) * scale, scale];
}

document.addEventListener("pointerdown", (e) => {
  const svg = e.target.closest?.("#map svg");
  if (!svg) return;
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  drag = { x: e.clientX, y: e.clientY, box: box.slice() };
  moved = false;
});

document.addEventListener("pointermove", (e) => {
  if (!pointers.has(e.pointerId) || !box) return;
  const prev = pointers.get(e.pointerId);
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (pointers.size === 2) {  // pinch
    const [a, b] = [...pointers.values()];
    const other = [...pointers.entries()].find(([id]) => id !== e.pointerId)[1];
    const before = Math.hypot(prev[0] - other[0], prev[1] - other[1]);
    const after = Math.hypot(a[0] - b[0], a[1] - b[1]);
    if (before > 0) {
      const [cx, cy] = toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoom(after / before, cx, cy);
    }
    moved = true;
    return;
  }
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 6) moved = true;
  if (!moved) return;
  const [, , scale] = toSvg(e.clientX, e.clientY);
  box = [drag.box[0] - dx * scale, drag.box[1] - dy * scale, drag.box[2], drag.box[3]];
  apply();
});

function release(e) {
  pointers.delete(e.pointerId);
  if (pointers.size === 0) drag = null;
}
document.addEventListener("pointerup", release);
document.addEventListener("pointercancel", release);

document.addEventListener("wheel", (e) => {
  if (!e.target.closest?.("#map svg")) return;
  e.preventDefault();
  const [cx, cy] = toSvg(e.clientX, e.clientY);
  zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, cx, cy);
}, { passive: false });

// Bring a hex to the middle of the map, zoomed in, so that a previewed tile can be read.
function focusHex(coord) {
  const hex = svgEl()?.querySelector(`polygon.hex[data-coord="${coord}"]`);
  if (!hex || !full) return;
  const b = hex.getBBox();
  const m = hex.parentElement.transform.baseVal.consolidate()?.matrix;
  const cx = (m ? m.e : 0) + b.x + b.width / 2;
  const cy = (m ? m.f : 0) + b.y + b.height / 2;
  let w = Math.min(box[2], full[2] / 3);
  let h = w * box[3] / box[2];
  if (narrow()) {  // close enough for its labels to be read (see legible)
    const start = startBox(full);
    if (start[2] < w) { w = start[2]; h = start[3]; }
  }
  box = [cx - w / 2, cy - h / 2, w, h];
  apply();
}

let original = null;  // the map before a previewed lay or a claimed route
let openedHex = null; // the hex whose tile options the panel shows (null: closed, or a station's)
let claim = [];       // the stops clicked for a claimed route, in running order
let claimRun = null;  // the claimed route as the server valued it

// The map's heading and legend in the page's language (the renderer writes them in English).
function translateSvg(svg) {
  let words = {};
  try { words = JSON.parse(mapEl().dataset.words || "{}"); } catch { words = {}; }
  for (const t of svg.querySelectorAll("text")) {
    const said = words[t.textContent];
    if (said) t.textContent = said;
  }
}

function showSvg(html) {
  const map = mapEl();
  if (original === null) original = map.querySelector("svg").outerHTML;
  map.querySelector("svg").outerHTML = html;
  const svg = svgEl();
  translateSvg(svg);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.dataset.ready = "1";
  apply();
}

async function preview(option) {
  const t = document.getElementById("table");
  // The picture is only a preview: the lay is one of the engine's legal moves, so a preview
  // that fails (a lost connection, a busy server) still leaves the lay to be confirmed.
  const reply = await fetch(`/g/${t.dataset.gid}/board?lay=${encodeURIComponent(option.notation)}`)
    .catch(() => null);
  // a failed preview shows the board as it is, never the tile of an earlier preview
  if (reply && reply.ok) {
    showSvg(await reply.text());
    svgEl().dataset.preview = option.notation;
  } else restore();
  const confirm = document.getElementById("hex-confirm");
  confirm.hidden = false;
  confirm.querySelector("button[name=action]").value = option.notation;
  confirm.querySelector("button[name=action]").dataset.notation = option.notation;
  confirm.querySelector(".lay-cost")?.remove();
  if (option.cost) {
    const cost = document.createElement("span");
    cost.className = "lay-cost";
    cost.textContent = costText(option.cost);
    confirm.querySelector("button[name=action]").append(cost);
  }
  for (const b of document.querySelectorAll("#hex-options button")) {
    b.classList.toggle("chosen", b.dataset.notation === option.notation);
  }
  // the tile about to be laid, beside "Lay this tile" (on a phone the map may be out of sight)
  confirm.querySelector("img.lay-pic")?.remove();
  const pic = [...document.querySelectorAll("#hex-options button.rotation")]
    .find((b) => b.dataset.notation === option.notation)?.querySelector("img.tile-pic");
  if (pic) {
    const copy = pic.cloneNode();
    copy.classList.add("lay-pic");
    confirm.prepend(copy);
  }
}

function costText(cost) {
  const panel = document.getElementById("hex-panel");
  return ` · ${(panel?.dataset.cost || "987654").replace("987654", String(cost))}`;
}

function restore() {
  if (original === null) return;
  svgEl().outerHTML = original;
  original = null;
  const svg = svgEl();
  delete svg.dataset.ready;
  setup();
}

// A turn with many lays has no previews in the page: ask for this hex's only.
async function fetchPreviews(coord) {
  const t = document.getElementById("table");
  const token = new URLSearchParams(t.dataset.q).get("token") || "";
  const reply = await fetch(`/g/${t.dataset.gid}/previews?hex=${encodeURIComponent(coord)}` +
    `&token=${encodeURIComponent(token)}`);
  if (!reply.ok) return;
  const found = await reply.json();
  for (const b of document.querySelectorAll("#hex-options button.rotation")) {
    const d = found[b.dataset.notation];
    if (d === null || d === undefined || b.dataset.delta !== undefined) continue;
    b.dataset.delta = d;
    b.querySelector(".delta").textContent = ` (${d > 0 ? "+" : ""}${d})`;
  }
}

// ``quiet``: the panel reopened after a refresh (see keptHex) stays where the person left it:
// the map is not recentred on the hex and the page does not scroll to the panel.
function openHex(coord, quiet = false) {
  const map = mapEl();
  const panel = document.getElementById("hex-panel");
  if (!panel) return;
  restore();
  openedHex = coord;
  const options = (map.lays || {})[coord] || [];
  if (!quiet) focusHex(coord);
  panel.hidden = false;
  document.getElementById("hex-title").textContent = coord;
  const holder = document.getElementById("hex-options");
  holder.replaceChildren();
  document.getElementById("hex-confirm").hidden = true;
  if (!options.length) {
    holder.textContent = panel.dataset.none;
    stopButtons(coord, holder);
    return;
  }
  const byTile = new Map();
  for (const o of options) {
    if (!byTile.has(o.tile)) byTile.set(o.tile, []);
    byTile.get(o.tile).push(o);
  }
  if (options.some((o) => o.delta === null || o.delta === undefined)) fetchPreviews(coord);
  const phase = map.dataset.phase || "yellow";
  for (const [tile, list] of byTile) {
    const row = document.createElement("div");
    row.className = "tile-row";
    row.dataset.tile = tile;
    const label = document.createElement("strong");
    label.textContent = tile;
    row.append(label);
    for (const o of list) {
      // each legal rotation as the tile's picture (drawn by the project's renderer), with the
      // change of the line's best run and the cost under it
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rotation";
      b.dataset.notation = o.notation;
      b.dataset.tile = o.tile;
      b.dataset.rotation = o.rotation;
      const delta = o.delta === null || o.delta === undefined ? "" :
        ` (${o.delta > 0 ? "+" : ""}${o.delta})`;
      const pic = document.createElement("img");
      pic.className = "tile-pic";
      pic.src = `/tiles/1840/${encodeURIComponent(o.tile)}.svg?rotation=${o.rotation}&phase=${phase}`;
      pic.alt = (panel.dataset.tileAlt || "%t %r").replace("%t", o.tile).replace("%r", o.rotation);
      pic.width = 64;
      pic.height = 74;
      const caption = document.createElement("span");
      caption.className = "caption";
      const turn = document.createElement("span");
      turn.textContent = `↻${o.rotation}`;
      const change = document.createElement("span");
      change.className = "delta";
      change.textContent = delta;
      caption.append(turn, change);
      if (o.cost) caption.append(costText(o.cost));
      b.append(pic, caption);
      if (o.delta !== null && o.delta !== undefined) b.dataset.delta = o.delta;
      b.dataset.kind = o.kind || "normal";
      if (o.cost) b.dataset.cost = o.cost;
      if (o.delta !== null && o.delta !== undefined) b.title = `${panel.dataset.change}: ${delta.trim()}`;
      b.addEventListener("click", () => preview(o));
      row.append(b);
    }
    holder.append(row);
  }
  stopButtons(coord, holder);
  if (!quiet) panel.scrollIntoView({ block: "nearest" });
}

// While the line may run, a hex's panel also adds (or takes back) its stops to the claimed
// route: a click on such a hex opens its tiles or stations rather than taking the stop.
function stopButtons(coord, holder) {
  if (!mapEl().dataset.line || !claimBox()) return;
  const row = document.createElement("div");
  row.className = "stop-row";
  for (const stop of svgEl().querySelectorAll(`g.stop[data-stop^="${coord}."]`)) {
    const place = stop.dataset.stop;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "route-stop";
    b.dataset.stop = place;
    b.textContent = `${claim.includes(place) ? "−" : "+"} ${place}`;
    b.addEventListener("click", () => {
      toggleStop(place);
      b.textContent = `${claim.includes(place) ? "−" : "+"} ${place}`;
    });
    row.append(b);
  }
  if (row.childElementCount) holder.append(row);
}

// A station circle (or a removable marker) clicked on the map: the hex's legal station and
// removal moves, the clicked one first (its form, as rendered beside the map, confirms it).
function openPlace(coord, place) {
  const panel = document.getElementById("hex-panel");
  if (!panel) return;
  restore();
  openedHex = null;
  focusHex(coord);
  panel.hidden = false;
  document.getElementById("hex-title").textContent = place;
  document.getElementById("hex-confirm").hidden = true;
  const holder = document.getElementById("hex-options");
  holder.replaceChildren();
  const forms = [...document.querySelectorAll(".places form")].filter((f) => {
    const n = f.querySelector("button[name=action]")?.value || "";
    return n.split(" ")[2]?.startsWith(`${coord}.`);
  });
  forms.sort((a, b) => Number(!a.querySelector(`button[value$=" ${place}"]`)) -
    Number(!b.querySelector(`button[value$=" ${place}"]`)));
  for (const f of forms) {
    const copy = f.cloneNode(true);
    const b = copy.querySelector("button[name=action]");
    if (b.value.endsWith(` ${place}`)) b.classList.add("chosen", "primary");
    holder.append(copy);
  }
  stopButtons(coord, holder);
  panel.scrollIntoView({ block: "nearest" });
}

function claimBox() { return document.getElementById("claim"); }

async function updateClaim() {
  const box = claimBox();
  if (!box) return;
  const t = document.getElementById("table");
  const line = box.dataset.line;
  const route = claim.join("-");
  box.hidden = claim.length === 0;
  box.dataset.state = "checking";
  document.getElementById("claim-route").textContent = route;
  const button = box.querySelector("button[name=action]");
  if (!button.dataset.base) button.dataset.base = button.textContent.trim();
  button.value = `L${line} run ${route}`;
  button.dataset.notation = button.value;
  button.textContent = `${button.dataset.base} ${route}`;
  button.disabled = true;
  const refusal = document.getElementById("claim-refusal");
  const table = document.getElementById("claim-table");
  table.querySelector("tbody").replaceChildren();
  claimRun = null;
  if (!claim.length) {
    restore();
    return;
  }
  if (claim.length < 2) {  // a route joins two stops at least (IX.7): nothing to ask yet
    restore();
    markStops();
    box.dataset.state = "incomplete";
    return;
  }
  const asked = route;
  const reply = await fetch(`/g/${t.dataset.gid}/route?line=${line}&route=${encodeURIComponent(route)}`);
  if (claim.join("-") !== asked) return;  // another stop was clicked meanwhile
  const found = await reply.json();
  if (!reply.ok) {
    restore();
    markStops();
    refusal.hidden = false;
    refusal.textContent = found.rule ? `${found.rule}: ${found.message}` : found.message;
    box.dataset.state = "refused";
    return;
  }
  refusal.hidden = true;
  box.dataset.state = "valid";
  claimRun = found.run;
  showSvg(found.svg);
  markStops();
  labelRun(claimRun);
  fillRunTable(table, claimRun);
  button.disabled = false;
}

function markStops() {
  const map = mapEl();
  for (const stop of svgEl().querySelectorAll("g.stop")) {
    if (map.dataset.line) stop.classList.add("claimable");
    stop.classList.toggle("claimed", claim.includes(stop.dataset.stop));
  }
}

function fillRunTable(table, run) {
  const body = table.querySelector("tbody");
  const row = (label, value, cls) => {
    const tr = document.createElement("tr");
    tr.className = cls;
    const th = document.createElement("th");
    th.textContent = label;
    const td = document.createElement("td");
    td.textContent = value;
    tr.append(th, td);
    body.append(tr);
    return tr;
  };
  run.stops.forEach((stop, i) => { row(stop, String(run.parts[i]), "stop-row").dataset.stop = stop; });
  if (run.landmark_bonus) row(table.dataset.bonus, `+${run.landmark_bonus}`, "bonus-row");
  if (run.maintenance) {
    row(table.dataset.tram, `${run.maintenance > 0 ? "+" : ""}${run.maintenance}`, "maintenance-row");
  }
  row(table.dataset.total, String(run.total), "total-row");
}

function toggleStop(place) {
  const at = claim.indexOf(place);
  if (at >= 0) claim.splice(at, 1);
  else claim.push(place);
  markStops();
  updateClaim();
}

document.addEventListener("click", (e) => {
  if (e.target.id === "claim-cancel") {
    claim = [];
    updateClaim();
    return;
  }
  if (e.target.id === "hex-cancel" || e.target.id === "hex-close") {
    restore();
    document.getElementById("hex-panel").hidden = true;
    openedHex = null;
    return;
  }
  const link = e.target.closest?.("button[data-hex]");
  if (link) { openHex(link.dataset.hex); return; }
  const b = e.target.closest?.("button[data-zoom]");
  if (b) { zoom(Number(b.dataset.zoom)); return; }
  const hex = e.target.closest?.("#map svg") ? e.target : null;
  if (!hex || moved) return;
  // the stop and the hex under the pointer (track and labels lie on top of them)
  const stack = document.elementsFromPoint(e.clientX, e.clientY);
  const stop = stack.map((el) => el.closest?.("g.stop")).find(Boolean);
  const under = stack.find((el) => el.matches?.("polygon.hex"));
  const map = mapEl();
  if (stop && (stop.classList.contains("legal-station") || stop.classList.contains("legal-removal"))) {
    openPlace(stop.dataset.stop.split(".")[0], stop.dataset.stop);
    return;
  }
  if (under && (map.lays || {})[under.dataset.coord]) { openHex(under.dataset.coord); return; }
  if (stop && map.dataset.line) toggleStop(stop.dataset.stop);
});

// table.js swaps the table in after every move: set the new map up again
let lastLine;  // the line whose turn the page showed last (undefined: none shown yet)
new MutationObserver((records) => {
  const old = records.flatMap((r) => [...r.removedNodes]).find((n) => n.id === "table");
  original = null; claim = []; claimRun = null;
  setup();
  const kept = old ? keptHex(old) : null;
  turnChanged();
  if (old) openedHex = null;  // the panel went with the table it was in
  if (kept) {
    openHex(kept.coord, true);
    const again = ((mapEl().lays || {})[kept.coord] || []).find((o) => o.notation === kept.notation);
    if (again) preview(again);
  }
}).observe(document.querySelector("main.game"), { childList: true, subtree: false });
setup();
turnChanged();

// The hex whose panel a refresh must not close: a newer revision announced by the server (a
// seat's change, a clock, a move elsewhere) replaces the whole table, panel included, while the
// person may be choosing a tile.  When the swap was such a refresh (table.js marks it
// ``data-swap="refresh"``; the answer to the person's own move closes the panel as before),
// the panel was open for a hex's tiles, and the new table still offers lays there to the same
// line, its panel is opened again for that hex.  A rotation the person had picked (``notation``,
// the one the confirm button would lay) is picked again when the new table still offers it:
// its preview on the new board and the confirm button come back; otherwise the options alone.
function keptHex(old) {
  const fresh = document.getElementById("table");
  if (!openedHex || fresh?.dataset.swap !== "refresh") return null;
  const panel = old.querySelector("#hex-panel");
  if (!panel || panel.hidden) return null;
  const line = old.querySelector("#map")?.dataset.turnLine;
  const map = mapEl();
  if (!line || map?.dataset.turnLine !== line || !(map.lays || {})[openedHex]) return null;
  const picked = old.querySelector("#hex-confirm:not([hidden]) button[name=action]");
  return { coord: openedHex, notation: picked?.dataset.notation };
}

// When the turn passes to another of the player's lines, the map centres on that line's home
// and the moves come into view; a refusal of the engine is brought into view too (it is
// printed at the top of the table, often above the fold).
function turnChanged() {
  const refusal = document.querySelector("#table > .error");
  if (refusal) refusal.scrollIntoView({ block: "nearest" });
  const map = mapEl();
  const line = map?.dataset.turnLine || null;
  if (line && line !== lastLine && map.dataset.home) {
    focusHex(map.dataset.home);
    // the page as loaded keeps its scroll; a turn passing to this line brings the moves
    if (lastLine !== undefined) {
      document.querySelector(".side-1840 .actions")?.scrollIntoView({ block: "nearest" });
    }
  }
  lastLine = line;
}

// Buying a private for a line's company (IV.2) is one control: the private and a price
// between 1 and its face value; the move it sends is composed here as they change.
function composePrivate(form) {
  const pick = form.querySelector(".private-pick");
  const price = form.querySelector(".private-price");
  const chosen = pick.selectedOptions[0];
  if (!chosen) return;
  price.min = chosen.dataset.low;
  price.max = chosen.dataset.high;
  const value = Math.min(Math.max(Number(price.value) || Number(chosen.dataset.high),
    Number(chosen.dataset.low)), Number(chosen.dataset.high));
  form.querySelector("input[name=action]").value = `${form.dataset.actor} buy ${pick.value} ${value}`;
}
document.addEventListener("change", (e) => {
  const form = e.target.closest?.("form.buy-private");
  if (!form) return;
  if (e.target.classList.contains("private-pick")) {
    form.querySelector(".private-price").value = e.target.selectedOptions[0].dataset.high;
  }
  composePrivate(form);
});
document.addEventListener("input", (e) => {
  const form = e.target.closest?.("form.buy-private");
  if (form) composePrivate(form);
});

// The tram reassignment (VIII.5.3) is a small editor: a colour per line; the move is the
// legal arrangement giving the lines those colours (spares after them, in the engine's
// order), and it is sent only when there is one.
function composeArrangement(form) {
  const picks = [...form.querySelectorAll(".arrange-pick")];
  const chosen = picks.map((p) => p.value);
  const same = picks.every((p) => p.value === p.dataset.current);
  const legal = JSON.parse(form.dataset.notations || "[]");
  const found = legal.find((n) => {
    const colours = (n.split(" ")[2] || "").split(",");
    return chosen.every((c, i) => colours[i] === c);
  });
  const note = form.querySelector(".arrange-note");
  note.textContent = found ? "" : (same ? note.dataset.same : note.dataset.bad);
  note.hidden = Boolean(found);
  form.querySelector("input[name=action]").value = found || "";
  form.querySelector("button.primary").disabled = !found;
}
document.addEventListener("change", (e) => {
  const form = e.target.closest?.("form.arrange-editor");
  if (form) composeArrangement(form);
});

// Moves that cannot be taken back in effect (scrapping a tram, VIII.5.3) ask first.
document.addEventListener("click", (e) => {
  const button = e.target.closest?.("button[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}, true);

// A private's or a line's card (or chip) names a hex: hovering or focusing it highlights
// that hex on the map (the landmark, the line's home).
function hoverHex(el, on) {
  const coord = el.dataset.hexHover;
  const hex = document.querySelector(`#map polygon.hex[data-coord="${coord}"]`);
  if (hex) hex.classList.toggle("hover-hex", on);
}
for (const [type, on] of [["mouseover", true], ["mouseout", false], ["focusin", true],
  ["focusout", false]]) {
  document.addEventListener(type, (e) => {
    const el = e.target.closest?.("[data-hex-hover]");
    if (el) hoverHex(el, on);
  });
}

// The log's filter: only the lines containing the text, in every round
// (rounds with a match open, the others hidden).
document.addEventListener("input", (e) => {
  if (e.target.id !== "log-filter") return;
  const needle = e.target.value.trim().toLowerCase();
  for (const round of document.querySelectorAll("#log-rounds details.log-round")) {
    let shown = 0;
    for (const li of round.querySelectorAll("li")) {
      const hit = !needle || li.textContent.toLowerCase().includes(needle);
      li.hidden = !hit;
      shown += hit ? 1 : 0;
    }
    round.hidden = needle !== "" && shown === 0;
    if (needle) round.open = shown > 0;
  }
});
