// The scoring list a tap away at every table (issue 37): what each score item pays under
// the rules in force at this table, in the reader's language (GET /api/tables/ID/scoring,
// worded by the game's view), and the link to the game's rules page (/rules/GAME).
import { $, el, fill, language, t } from "/static/common.js";

let shown = null; // the table whose list was fetched, and the list

async function scoring(table) {
  if (shown && shown.table === table) return shown.data;
  const response = await fetch(`/api/tables/${encodeURIComponent(table)}/scoring?lang=${language()}`);
  if (!response.ok) throw new Error(t("rules.scoring.failed"));
  shown = { table, data: await response.json() };
  return shown.data;
}

async function open() {
  const table = document.body.dataset.table;
  const dialog = $("#scoring");
  if (!table || !dialog) return;
  const list = $("#scoring-list");
  try {
    const data = await scoring(table);
    $("#scoring-game").textContent = data.title;
    fill(list, el("tbody", {}, data.lines.length
      ? data.lines.map((line) => el("tr", {}, el("td", {}, line.label), el("td", { class: "pays" }, line.points)))
      : el("tr", {}, el("td", {}, t("rules.scoring.none")))));
  } catch (err) {
    fill(list, el("tbody", {}, el("tr", {}, el("td", {}, String(err.message || err)))));
  }
  if (!dialog.open) dialog.showModal();
}

async function linkRules(table) {
  try {
    const data = await scoring(table);
    const link = $("#rules-link");
    if (link) link.href = `/rules/${encodeURIComponent(data.game)}`;
  } catch {
    // the link stays as it is: the list says why when opened
  }
}

function start() {
  const button = $("#scoring-btn");
  if (button) button.addEventListener("click", open);
  const close = $("#scoring-close");
  if (close) close.addEventListener("click", () => $("#scoring").close());
  const watch = new MutationObserver(() => {
    const table = document.body.dataset.table;
    if (table && (!shown || shown.table !== table)) linkRules(table);
  });
  watch.observe(document.body, { attributes: true, attributeFilter: ["data-table"] });
}

start();
