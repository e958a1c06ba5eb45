// The lobby of open games: reload the list when a table opens, fills, starts or closes
// (announced over /api/lobby/live by any server process). A table page reloads itself too.

// The form's pace: the minutes for a live pace, the hours for one over days, what the
// deadline does for either (the fields of the other kinds are hidden and not sent).
const paced = () => {
  const choice = document.getElementById("o-pace");
  if (!choice) return;
  const show = (cls, on) => document.querySelectorAll(`#open-form .${cls}`).forEach((el) => {
    el.hidden = !on;
    if ("disabled" in el) el.disabled = !on;
  });
  show("pace-live", choice.value === "live");
  show("pace-async", choice.value === "async");
  show("pace-any", choice.value !== "none");
};
document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "o-pace") paced();
});
paced();

const here = document.getElementById("open-lobby") || document.getElementById("open-table");
if (here) {
  let delay = 1000;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${proto}//${location.host}/api/lobby/live`);
    socket.onmessage = async () => {
      delay = 1000;
      const typing = document.activeElement && document.activeElement.closest("form#open-form");
      if (typing) return;
      const reply = await fetch(location.href, { credentials: "same-origin" });
      if (!reply.ok) return;
      const page = new DOMParser().parseFromString(await reply.text(), "text/html");
      const fresh = page.getElementById(here.id);
      if (fresh) here.replaceChildren(...fresh.childNodes);
      if (fresh) here.dataset.status = fresh.dataset.status || "";
      paced();
    };
    socket.onclose = () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  };
  connect();
}
