// Every seat's clock (docs/async.md): GET /api/games/ID/clocks, drawn in the page's words
// (the data-t-* of #clocks), again every 20 s and whenever the table is redrawn (a move, a
// live update); the controls post to the same API with the seat's token.

const box = document.getElementById("clocks");
const say = (key, values = {}) => {
  let text = box.dataset["t" + key.replace(/(^|[-_])(\w)/g, (_m, _s, c) => c.toUpperCase())] || key;
  for (const [k, v] of Object.entries(values)) text = text.replace(`%(${k})s`, v);
  return text;
};
const token = () => (document.getElementById("table") || {}).dataset?.wsToken || "";
const since = (seconds) => seconds >= 3600 ? say("hours", { n: Math.floor(seconds / 3600) })
  : say("minutes", { n: Math.floor(seconds / 60) });

async function ask(path, body) {
  const reply = await fetch(`/api/games/${box.dataset.gid}/${path}`, {
    method: "POST", body: JSON.stringify(body || {}),
    headers: { "content-type": "application/json", authorization: `Bearer ${token()}` },
  });
  const error = box.querySelector(".error");
  if (!reply.ok) {
    const data = await reply.json().catch(() => ({}));
    error.textContent = data.message || reply.statusText;
    error.hidden = false;
  } else error.hidden = true;
  await draw();
}

function button(label, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

async function draw() {
  const headers = token() ? { authorization: `Bearer ${token()}` } : {};
  const reply = await fetch(`/api/games/${box.dataset.gid}/clocks`, { headers });
  if (!reply.ok) return;
  const data = await reply.json();
  const me = data.you || 0;
  const pace = box.querySelector(".pace");
  pace.textContent = data.pace
    ? say("pace", { pace: since(data.pace.seconds), what: say(data.pace.on_deadline) })
    : say("no-pace");
  const list = box.querySelector(".seat-clocks");
  list.replaceChildren();
  for (const s of data.seats) {
    const li = document.createElement("li");
    li.dataset.seat = s.seat;
    const words = [s.name];
    if (s.to_act && s.waiting_seconds !== null) words.splice(0, 1, say("waiting", { name: s.name, time: since(s.waiting_seconds) }));
    if (s.late) { words.push(`· ${say("late")}`); li.classList.add("late"); }
    if (s.vacation_until) words.push(`· ${say("vacation")}`);
    if (s.handed) words.push(`· ${say("computer")}`);
    li.append(words.join(" "));
    if (token()) {
      const mine = s.seat === me;
      if (mine && s.handed && !s.resigned) li.append(" ", button(say("take-back"), () => ask("take-back")));
      if (mine && s.kind === "human") li.append(" ", button(say("resign"), () => {
        if (confirm(say("resign-confirm"))) ask("resign");
      }));
      if (!mine && s.kind === "human" && s.late) li.append(" ", button(say("takeover"), () => ask("takeover", { seat: s.seat })));
      if (!mine && s.kind === "human" && !s.late && me) li.append(" ", button(say("vote"), () => ask("vote", { seat: s.seat })));
    }
    list.append(li);
  }
  box.hidden = false;
}

if (box) {
  draw();
  setInterval(draw, 20000);
  const main = document.querySelector("main.game");
  if (main) new MutationObserver(() => draw()).observe(main, { childList: true });
}
