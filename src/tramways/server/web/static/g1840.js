// The 1840 map: pan and zoom over the SVG's viewBox (mouse, wheel, touch), and tile lays by
// clicking a hex: only that hex's legal tiles and rotations (from the seat's legal notations),
// each shown on the map (the server draws the board after the lay) before it is confirmed.

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
}

function setup() {
  const map = mapEl();
  const svg = svgEl();
  if (!map || !svg || svg.dataset.ready) return;
  svg.dataset.ready = "1";
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const vb = svg.getAttribute("viewBox").split(/\s+/).map(Number);
  full = vb;
  if (!box) box = vb.slice();
  apply();
  let lays = {};
  let places = {};
  try { lays = JSON.parse(map.dataset.lays || "{}"); } catch { lays = {}; }
  try { places = JSON.parse(map.dataset.places || "{}"); } catch { places = {}; }
  for (const hex of svg.querySelectorAll("polygon.hex")) {
    const c = hex.dataset.coord;
    if (lays[c]) hex.classList.add("legal-lay");
    if (places[c]) hex.classList.add("legal-place");
  }
  map.lays = lays;
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
  const w = Math.min(box[2], full[2] / 3);
  const h = w * box[3] / box[2];
  box = [cx - w / 2, cy - h / 2, w, h];
  apply();
}

let original = null;  // the map before a previewed lay

async function preview(option) {
  const t = document.getElementById("table");
  const reply = await fetch(`/g/${t.dataset.gid}/board?lay=${encodeURIComponent(option.notation)}`);
  if (!reply.ok) return;
  const map = mapEl();
  if (original === null) original = map.querySelector("svg").outerHTML;
  map.querySelector("svg").outerHTML = await reply.text();
  const svg = svgEl();
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.dataset.ready = "1";
  apply();
  const confirm = document.getElementById("hex-confirm");
  confirm.hidden = false;
  confirm.querySelector("button[name=action]").value = option.notation;
  confirm.querySelector("button[name=action]").dataset.notation = option.notation;
  for (const b of document.querySelectorAll("#hex-options button")) {
    b.classList.toggle("chosen", b.dataset.notation === option.notation);
  }
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
    if (d === null || d === undefined) continue;
    b.textContent += ` (${d > 0 ? "+" : ""}${d})`;
  }
}

function openHex(coord) {
  const map = mapEl();
  const panel = document.getElementById("hex-panel");
  if (!panel) return;
  restore();
  const options = (map.lays || {})[coord] || [];
  focusHex(coord);
  panel.hidden = false;
  document.getElementById("hex-title").textContent = coord;
  const holder = document.getElementById("hex-options");
  holder.replaceChildren();
  document.getElementById("hex-confirm").hidden = true;
  if (!options.length) {
    holder.textContent = panel.dataset.none;
    return;
  }
  const byTile = new Map();
  for (const o of options) {
    if (!byTile.has(o.tile)) byTile.set(o.tile, []);
    byTile.get(o.tile).push(o);
  }
  if (options.some((o) => o.delta === null || o.delta === undefined)) fetchPreviews(coord);
  for (const [tile, list] of byTile) {
    const row = document.createElement("div");
    row.className = "tile-row";
    const label = document.createElement("strong");
    label.textContent = tile;
    row.append(label);
    for (const o of list) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "rotation";
      b.dataset.notation = o.notation;
      const delta = o.delta === null || o.delta === undefined ? "" :
        ` (${o.delta > 0 ? "+" : ""}${o.delta})`;
      b.textContent = `↻${o.rotation}${delta}`;
      if (o.delta !== null && o.delta !== undefined) b.title = `${panel.dataset.change}: ${delta.trim()}`;
      b.addEventListener("click", () => preview(o));
      row.append(b);
    }
    holder.append(row);
  }
  panel.scrollIntoView({ block: "nearest" });
}

document.addEventListener("click", (e) => {
  if (e.target.id === "hex-cancel") {
    restore();
    document.getElementById("hex-panel").hidden = true;
    return;
  }
  const link = e.target.closest?.("button[data-hex]");
  if (link) { openHex(link.dataset.hex); return; }
  const b = e.target.closest?.("button[data-zoom]");
  if (b) { zoom(Number(b.dataset.zoom)); return; }
  const hex = e.target.closest?.("#map svg") ? e.target : null;
  if (!hex || moved) return;
  // the hex under the pointer (track and labels lie on top of the hex polygon)
  const under = document.elementsFromPoint(e.clientX, e.clientY)
    .find((el) => el.matches?.("polygon.hex"));
  if (under && (mapEl().lays || {})[under.dataset.coord]) openHex(under.dataset.coord);
});

// table.js swaps the table in after every move: set the new map up again
new MutationObserver(() => { original = null; setup(); })
  .observe(document.querySelector("main.game"), { childList: true, subtree: false });
setup();
