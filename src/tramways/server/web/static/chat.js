// The chat of a game: messages arrive on the game's live socket (table.js hands them over as
// "tramways:chat" events); a past position's page, which has no live socket, uses
// /api/games/{id}/chat/live. A seat writes with its token, a spectator with the session
// cookie and the CSRF token. Text is shown as text only.

const box = document.getElementById("chat");
if (box) {
  const list = box.querySelector(".messages");
  const form = document.getElementById("chat-form");
  const error = document.getElementById("chat-error");
  const game = box.dataset.game;
  const token = box.dataset.token;
  let last = 0;
  let delay = 1000;
  let csrf = null;

  function show(m) {
    if (m.id <= last) return;
    last = m.id;
    const li = document.createElement("li");
    li.dataset.id = m.id;
    if (m.seat) li.classList.add("seat");
    const who = document.createElement("strong");
    who.textContent = m.name;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = m.text;
    li.append(who, ": ", text);
    if (!m.seat && token) {
      const mute = document.createElement("button");
      mute.type = "button";
      mute.className = "mute link";
      mute.textContent = box.dataset.mute;
      mute.addEventListener("click", () => send(`/api/games/${game}/chat/mute`, { message: m.id }));
      li.append(" ", mute);
    }
    list.append(li);
    list.scrollTop = list.scrollHeight;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${proto}//${location.host}/api/games/${game}/chat/live?after=${last}`);
    socket.onmessage = (event) => {
      delay = 1000;
      for (const m of JSON.parse(event.data).chat || []) show(m);
    };
    socket.onclose = () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }

  async function headers() {
    const h = { "Content-Type": "application/json" };
    if (token) {
      h.Authorization = `Bearer ${token}`;
      return h;
    }
    if (csrf === null) {
      const reply = await fetch("/api/account/csrf", { credentials: "same-origin" });
      if (!reply.ok) return null;
      csrf = (await reply.json()).csrf;
    }
    h["X-CSRF-Token"] = csrf;
    return h;
  }

  async function send(url, body) {
    const h = await headers();
    if (h === null) {
      error.textContent = box.dataset.login;
      error.hidden = false;
      return false;
    }
    const reply = await fetch(url, { method: "POST", headers: h, body: JSON.stringify(body),
                                     credentials: "same-origin" });
    if (!reply.ok) {
      const data = await reply.json().catch(() => ({}));
      error.textContent = `${box.dataset.refused} ${data.message || reply.status}`;
      error.hidden = false;
      return false;
    }
    error.hidden = true;
    return true;
  }

  document.addEventListener("tramways:chat", (event) => {
    for (const m of event.detail) show(m);
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = form.querySelector("input[name=text]");
    if (!input.value.trim()) return;
    if (await send(`/api/games/${game}/chat`, { text: input.value })) input.value = "";
  });
  const table = document.getElementById("table");
  if (!table || !table.dataset.gid || table.dataset.history) connect();
}
