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
  // One fetch at a time: a change announced while one is on its way is caught up by one more
  // fetch after it, so an older page never lands over a newer one.
  let fetching = false;
  let again = false;
  const refresh = async () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    try {
      do {
        again = false;
        const typing = document.activeElement && document.activeElement.closest("form#open-form");
        if (typing) return;
        const reply = await fetch(location.href, { credentials: "same-origin" });
        if (!reply.ok) return;
        const page = new DOMParser().parseFromString(await reply.text(), "text/html");
        const fresh = page.getElementById(here.id);
        if (fresh) {
          here.replaceChildren(...fresh.childNodes);
          here.dataset.status = fresh.dataset.status || "";
          here.dataset.mark = fresh.dataset.mark || "";
        }
        paced();
      } while (again);
    } catch (err) {
      // a lost connection: the socket's reconnect asks again with the page's mark
    } finally {
      fetching = false;
    }
  };
  let delay = 1000;
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // since: the mark this page was read with; the server answers "changed" at once when the
    // lobby moved on meanwhile (before this socket looked, or while it was away)
    const since = encodeURIComponent(here.dataset.mark || "");
    const socket = new WebSocket(`${proto}//${location.host}/api/lobby/live?since=${since}`);
    socket.onmessage = () => {
      delay = 1000;
      refresh();
    };
    socket.onclose = () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  };
  connect();
}
