// The Trambahn table: moves without page reloads, live updates over the WebSocket.
// Everything shown comes from the server as HTML (/g/{id}/table); this file only swaps it in.

const conn = document.getElementById("connection");
let busy = false;
let socket = null;
let delay = 1000;
let lost = false;
const root = () => document.getElementById("table");
let latest = null;  // the newest game revision the WebSocket announced

// Only a newer revision than the table's (revisions only grow): a late message about an
// older one, arriving after the table has already caught up, must not swap the table under
// the player's hands (it closed an open map panel in the 1840 browser test).
function stale() {
  const now = root();
  return now && latest !== null && latest > Number(now.dataset.rev);
}

const main = document.querySelector("main.game");

// The tab's title says when it is your turn (for games played over days in a background tab).
function title() {
  const t = root();
  const mine = t && t.classList.contains("my-turn");
  document.title = (mine ? `● ${main.dataset.yourTurn} · ` : "") + main.dataset.title;
}

// ``onlyNewer``: a refresh swaps the table only for a newer revision than the one shown
// (two refreshes in flight must not swap the same table twice: the second closed an open
// map panel in the 1840 browser test); a move's answer always swaps (it may carry an error).
// The new table says which swap brought it (``data-swap``): "refresh" for a newer revision the
// server announced while the person was not moving (another's move, a seat, a clock), "answer"
// for the answer to the person's own move or link.  A game's script that only sees the table
// replaced reads it to keep what the person had open across a refresh (g1840.js: the map's
// hex panel).
function swap(html, onlyNewer = false) {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  const fresh = holder.querySelector("#table");
  const now = root();
  if (fresh && onlyNewer && now && fresh.dataset.rev && now.dataset.rev &&
      Number(fresh.dataset.rev) <= Number(now.dataset.rev) &&
      fresh.className === now.className) return;
  if (fresh) {
    fresh.dataset.swap = onlyNewer && !busy ? "refresh" : "answer";
    now.replaceWith(fresh);
  }
  title();
}

async function refresh(query) {
  const t = root();
  if (!t || !t.dataset.gid) return;
  const q = query ?? t.dataset.q;
  const reply = await fetch(`/g/${t.dataset.gid}/table?${q}`);
  swap(await reply.text(), query === undefined);
  if (query !== undefined) history.replaceState(null, "", `/g/${t.dataset.gid}?${q}`);
}

// One refresh at a time: while one is on its way, the newer revisions announced meanwhile
// wait for it, and one more refresh then fetches the newest table (a bot playing ten moves
// in a row cost ten whole tables fetched at once, each rendered by the server for nothing).
let refreshing = false;
async function catchUp() {
  if (refreshing) return;
  refreshing = true;
  try {
    let before = null;
    while (!busy && stale() && root()?.dataset.rev !== before) {
      before = root()?.dataset.rev;
      await refresh();
    }
  } catch {
    // the connection's loss is handled by the socket (it refreshes when it is back)
  } finally {
    refreshing = false;
  }
}

document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.classList.contains("move")) return;
  event.preventDefault();
  if (busy) return;
  busy = true;
  const data = new URLSearchParams(new FormData(form));
  if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
  data.set("fragment", "1");
  root().classList.add("busy");
  try {
    // (form.action would be the button named "action": read the attribute)
    const reply = await fetch(form.getAttribute("action"), { method: "POST", body: data });
    swap(await reply.text());
  } catch {
    await refresh();
  } finally {
    busy = false;
  }
  // A move of the other side (a bot) may have arrived while this one was on its way.
  if (stale()) await catchUp();
});

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-refresh]");
  if (!link) return;
  event.preventDefault();
  refresh(link.dataset.refresh);
});

function connect() {
  const t = root();
  if (!t || !t.dataset.gid || t.dataset.history) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const token = t.dataset.wsToken;
  const url = `${proto}//${location.host}/api/games/${t.dataset.gid}/live` +
    (token ? `?token=${encodeURIComponent(token)}` : "");
  socket = new WebSocket(url);
  socket.onopen = () => {
    delay = 1000;
    if (conn) conn.hidden = true;
    if (lost) refresh();  // catch up with whatever happened while away
    lost = false;
  };
  socket.onmessage = (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch { return; }
    if (data.chat) {  // the game's chat, on the same socket (chat.js shows it)
      document.dispatchEvent(new CustomEvent("tramways:chat", { detail: data.chat }));
      return;
    }
    const rev = typeof data.rev === "number" ? data.rev : data.n;
    if (typeof rev === "number") latest = Math.max(latest ?? rev, rev);
    if (!busy && stale()) catchUp();
  };
  socket.onclose = () => {
    lost = true;
    if (conn) { conn.textContent = conn.dataset.offline; conn.hidden = false; }
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 15000);
  };
}

// A seat opened by its link joins the lobby's "Your games" (kept in this browser only).
function remember() {
  const t = root();
  if (!t || !t.dataset.gid || t.dataset.history) return;
  const tokens = new URLSearchParams(t.dataset.q).getAll("token");
  if (!tokens.length) return;
  const key = "tramways.games";
  let games = [];
  try { games = JSON.parse(localStorage.getItem(key) || "[]"); } catch { games = []; }
  if (games.some((g) => g.id === t.dataset.gid)) return;
  games.unshift({ id: t.dataset.gid, hotseat: tokens.length > 1, created: Date.now(),
    seats: tokens.map((token) => ({ token })) });
  localStorage.setItem(key, JSON.stringify(games));
}

remember();
title();
connect();
