// Every seat's clock (docs/async.md): GET /api/games/ID/clocks, drawn in the page's words
// (the data-t-* of #clocks), again every 20 s and whenever the table is redrawn (a move, a
// live update); the controls post to the same API with the seat's token: the seat's
// vacation (until a time; back now) and the game's pace (any person's seat may set it).

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
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) {
    error.textContent = data.message || reply.statusText;
    error.hidden = false;
  } else error.hidden = true;
  await draw();
  return reply.ok ? data : null;
}

// A one-use link for a late or handed-over seat (POST .../substitute): shown to copy.
async function inviteSubstitute(seat) {
  const made = await ask("substitute", { seat });
  if (!made) return;
  const shown = box.querySelector(".invitation");
  shown.querySelector("span").textContent = say("substitute-link");
  const link = shown.querySelector(".invite-link");
  link.href = made.link;
  link.textContent = new URL(made.link, location.href).href;
  shown.hidden = false;
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
  if (data.on_resign === "end") pace.textContent += " " + say("resign-ends");
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
    if (token() && !data.over) {
      const mine = s.seat === me;
      if (mine && s.handed && !s.resigned) li.append(" ", button(say("take-back"), () => ask("take-back")));
      if (mine && s.kind === "human") li.append(" ", button(say("resign"), () => {
        // the game's choice (on_resign): the computer plays on, or the game ends at once
        if (confirm(say(data.on_resign === "end" ? "resign-end-confirm" : "resign-confirm"))) ask("resign");
      }));
      if (!mine && s.kind === "human" && s.late) li.append(" ", button(say("takeover"), () => ask("takeover", { seat: s.seat })));
      if (!mine && s.kind === "human" && !s.late && me) li.append(" ", button(say("vote"), () => ask("vote", { seat: s.seat })));
      if (!mine && me && (s.late || (s.handed && s.kind !== "human"))) li.append(" ", button(say("substitute"), () => inviteSubstitute(s.seat)));
    }
    list.append(li);
  }
  forms(data, data.seats.find((s) => s.seat === me));
  box.hidden = false;
}

let paceShown = false;

// The seat's own forms: its vacation and the game's pace (a person's seat only).
function forms(data, mine) {
  const person = Boolean(token() && mine && !data.over && (mine.kind === "human" || mine.handed));
  const vacation = box.querySelector("#vacation-form");
  const pace = box.querySelector("#pace-form");
  vacation.hidden = !person;
  pace.hidden = !person;
  if (!person) return;
  const away = vacation.querySelector(".vacation-now");
  away.hidden = !mine.vacation_until;
  vacation.querySelector(".vacation-cancel").hidden = !mine.vacation_until;
  if (mine.vacation_until) away.textContent = say("vacation-until", { when: new Date(mine.vacation_until).toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" }) });
  if (data.pace && !paceShown) {
    const hours = data.pace.seconds % 3600 === 0;
    pace.querySelector("#pace-kind").value = hours ? "async" : "live";
    pace.querySelector(hours ? "#pace-hours" : "#pace-minutes").value = data.pace.seconds / (hours ? 3600 : 60);
    pace.querySelector("#pace-deadline").value = data.pace.on_deadline;
    pace.querySelector("#pace-bot").value = data.pace.bot;
  }
  paceShown = paceShown || Boolean(data.pace);
  paceFields();
}

function paceFields() {
  const kind = box.querySelector("#pace-kind").value;
  for (const el of box.querySelectorAll("#pace-form .pace-live")) el.hidden = kind !== "live";
  for (const el of box.querySelectorAll("#pace-form .pace-async")) el.hidden = kind !== "async";
}

function wireForms() {
  const vacation = box.querySelector("#vacation-form");
  vacation.addEventListener("submit", (event) => {
    event.preventDefault();
    const until = vacation.querySelector("#vacation-until").value;
    if (until) ask("vacation", { until: new Date(until).toISOString() });
  });
  vacation.querySelector(".vacation-cancel").addEventListener("click", () => ask("vacation", { until: null }));
  const pace = box.querySelector("#pace-form");
  pace.querySelector("#pace-kind").addEventListener("change", paceFields);
  pace.addEventListener("submit", (event) => {
    event.preventDefault();
    const live = pace.querySelector("#pace-kind").value === "live";
    const body = { on_deadline: pace.querySelector("#pace-deadline").value, bot: pace.querySelector("#pace-bot").value };
    if (live) body.minutes = Number(pace.querySelector("#pace-minutes").value);
    else body.hours = Number(pace.querySelector("#pace-hours").value);
    ask("pace", body);
  });
}

if (box) {
  wireForms();
  draw();
  setInterval(draw, 20000);
  const main = document.querySelector("main.game");
  if (main) new MutationObserver(() => draw()).observe(main, { childList: true });
}
