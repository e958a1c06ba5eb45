// The lobby: remember created games in localStorage, list them (your turn first), copy links.

const KEY = "tramways.games";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch { return []; }
}

function save(games) { localStorage.setItem(KEY, JSON.stringify(games)); }

function link(game) {
  const q = new URLSearchParams();
  for (const s of game.seats) q.append("token", s.token);
  return `/g/${game.id}?${q}`;
}

// The page that shows a new game's links stores it.
const created = document.getElementById("created");
if (created) {
  const game = JSON.parse(created.dataset.saved);
  if (game.seats.length) {
    game.created = Date.now();
    save([game, ...load().filter((g) => g.id !== game.id)]);
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = button.dataset.copied;
  setTimeout(() => { button.textContent = label; }, 1500);
});

async function status(game) {
  try {
    const reply = await fetch(`/api/games/${game.id}`, {
      headers: { Authorization: `Bearer ${game.seats[0].token}` },
    });
    if (!reply.ok) return { rank: 3, state: "gone" };
    const data = await reply.json();
    // Any game: the payload's status, seats (kind and name) and the seats to act.
    const mine = game.hotseat || (data.to_act || []).includes(data.seat);
    if (data.status === "over") return { rank: 2, state: "over", data };
    return { rank: mine ? 0 : 1, state: mine ? "your-turn" : "waiting", data };
  } catch {
    return { rank: 3, state: "gone" };
  }
}

// A seat's name, and which computer plays it (bot:random / bot:rule / bot:search).
function seatLabel(seat, dataset) {
  const span = document.createElement("span");
  span.className = "seat";
  span.append(seat.name || "");
  const bot = seat.kind && seat.kind.startsWith("bot:") ? seat.kind.slice(4) : null;
  if (bot) {
    const badge = document.createElement("span");
    badge.className = "bot";
    badge.dataset.bot = seat.kind;
    badge.textContent = dataset[`bot${bot[0].toUpperCase()}${bot.slice(1)}`] || seat.kind;
    span.append(" ", badge);
  }
  return span;
}

const list = document.getElementById("my-games");
if (list) {
  const ul = list.querySelector("ul");
  const games = load();
  if (!games.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = list.dataset.empty;
    ul.append(li);
  }
  const rows = await Promise.all(games.map(async (g) => ({ game: g, ...(await status(g)) })));
  rows.sort((a, b) => a.rank - b.rank || (b.game.created || 0) - (a.game.created || 0));
  const labels = { "your-turn": list.dataset.yourTurn, waiting: list.dataset.waiting,
    over: list.dataset.over, gone: list.dataset.gone };
  for (const row of rows) {
    const li = document.createElement("li");
    li.className = row.state;
    const a = document.createElement("a");
    a.href = link(row.game);
    a.className = "button";
    a.textContent = list.dataset.open;
    const title = document.createElement("span");
    title.className = "title";
    const seats = row.data ? row.data.seats : row.game.seats.map((s) => ({ name: s.name }));
    seats.forEach((seat, i) => {
      if (i) title.append(seats.length === 2 ? ` ${list.dataset.vs} ` : ", ");
      title.append(seatLabel(seat, list.dataset));
    });
    if (row.data && row.data.game === "1840") title.prepend("1840 · ");
    const scores = row.data && row.data.view && row.data.view.scores;
    if (Array.isArray(scores)) title.append(` · ${scores.join(" : ")}`);
    const badge = document.createElement("span");
    badge.className = `badge ${row.state}`;
    badge.textContent = labels[row.state] + (row.game.hotseat ? ` · ${list.dataset.hotseat}` : "");
    const forget = document.createElement("button");
    forget.type = "button";
    forget.className = "link";
    forget.textContent = list.dataset.forget;
    forget.addEventListener("click", () => {
      save(load().filter((g) => g.id !== row.game.id));
      li.remove();
    });
    li.append(title, badge, a, forget);
    ul.append(li);
  }
}

// The 1840 form: as many seats as players; the 2-player map goes with 2 players.
const players = document.getElementById("players");
const map = document.getElementById("map");
if (players && map) {
  const show = () => {
    for (const f of document.querySelectorAll(".seat-1840")) {
      f.hidden = Number(f.dataset.seat) > Number(players.value);
    }
  };
  players.addEventListener("change", () => {
    if (players.value === "2") map.value = "two";
    else if (map.value === "two" || (map.value === "small" && players.value !== "3")) map.value = "full";
    show();
  });
  map.addEventListener("change", () => {
    if (map.value === "two") players.value = "2";
    if (map.value === "small") players.value = "3";
    show();
  });
  show();
}
