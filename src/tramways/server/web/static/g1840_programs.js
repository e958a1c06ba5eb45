// The 1840 programs panel (docs/async.md): the buy form's choices written into its one
// notation ("P1 program buy WT 4 pool then-pass"), which the move path then judges.
// Delegated from the document: the table (and this panel in it) is swapped on every update.

function compose(form) {
  const company = form.querySelector(".program-company");
  const until = form.querySelector(".program-until");
  const option = company.selectedOptions[0];
  if (option) {
    until.min = option.dataset.least;
    until.max = option.dataset.most;
    const n = Number(until.value);
    if (n < Number(until.min)) until.value = until.min;
    if (n > Number(until.max)) until.value = until.max;
  }
  const words = [form.dataset.actor, "program", "buy", company.value, until.value];
  if (form.querySelector(".program-pool").checked) words.push("pool");
  if (form.querySelector(".program-then-pass").checked) words.push("then-pass");
  form.querySelector("input[name=action]").value = words.join(" ");
}

for (const kind of ["change", "input"]) {
  document.addEventListener(kind, (event) => {
    const form = event.target.closest && event.target.closest("form.program-buy");
    if (form) compose(form);
  });
}
// A submit is seen here first (capture): the notation is complete before table.js posts it.
document.addEventListener("submit", (event) => {
  if (event.target.classList && event.target.classList.contains("program-buy")) compose(event.target);
}, true);
