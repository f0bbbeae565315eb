// The review of a hand (cherki.server.review): "Review my hand" in the result dialog of a
// seated person, and "Review" of a seat in the replay of a finished match. The server works
// the review off its event loop and this page polls its progress; a review refused or cut
// short says so in words. Each decision shows the action played, the better action found,
// both values with their 95% intervals, the loss and its mark; clicking one shows the
// reviewed seat's own cards at that decision (never another seat's).
import { api, el, fill, miniCards, t as tr } from "/static/common.js";

const STYLE = `
dialog.review { border: 0; border-radius: 14px; padding: 0; width: min(760px, 96vw); max-height: 92vh; box-shadow: 0 10px 40px rgb(0 0 0 / 40%); }
dialog.review[open] { display: flex; flex-direction: column; }
dialog.review::backdrop { background: rgb(0 0 0 / 45%); }
.review-body { padding: 1rem 1.1rem; overflow-y: auto; flex: 1 1 auto; min-height: 0; }
.review-body h2 { margin: 0 0 0.5rem; font-size: 1.2rem; }
.review-progress { width: 100%; height: 0.8rem; }
.review-list { list-style: none; padding: 0; margin: 0.5rem 0; display: grid; gap: 0.35rem; }
.review-item { border: 1px solid var(--line, #ccc); border-radius: 8px; padding: 0.45rem 0.6rem; cursor: pointer; display: grid; grid-template-columns: 2.2rem 1fr auto; gap: 0.2rem 0.6rem; align-items: baseline; background: var(--panel, #fff); }
.review-item:focus-within, .review-item.open { outline: 2px solid var(--gold, #c9a227); }
.review-item button.n { all: unset; cursor: pointer; color: #555; font-variant-numeric: tabular-nums; text-decoration: underline; }
.review-item button.n:focus-visible { outline: 2px solid #1a5fb4; outline-offset: 2px; }
.review-item .n { color: #666; font-variant-numeric: tabular-nums; }
.review-item .acts { display: flex; flex-wrap: wrap; gap: 0.15rem 0.8rem; }
.review-item .val { font-variant-numeric: tabular-nums; color: #555; font-size: 0.9rem; }
.review-item .mark { font-weight: 700; border-radius: 999px; padding: 0.05rem 0.5rem; font-size: 0.85rem; }
.review-item .mark.blunder { background: #b3261e; color: #fff; }
.review-item .mark.mistake { background: #a84f00; color: #fff; }
.review-item .mark.inaccuracy { background: #f6d365; color: #3a2a00; }
.review-item .position { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 0.2rem; align-items: center; }
.review-item .position .card.mini { --mini-w: 26px; }
.review-body .why { color: #b3261e; font-weight: 600; }
.review-actions { display: flex; justify-content: flex-end; gap: 0.5rem; padding: 0.7rem 1.1rem; border-top: 1px solid var(--line, #ddd); }
@media (max-width: 520px) { .review-item { grid-template-columns: 1.8rem 1fr; } .review-item .mark { grid-column: 2; justify-self: start; } }
`;

function ensureStyle() {
  if (document.getElementById("review-style")) return;
  document.head.append(el("style", { id: "review-style" }, STYLE));
}

function dialog() {
  ensureStyle();
  let box = document.getElementById("review");
  if (!box) {
    box = el("dialog", { class: "review", id: "review", "aria-labelledby": "review-title" },
      el("div", { class: "review-body" }, el("h2", { id: "review-title" }, tr("review.heading")), el("div", { id: "review-content" })),
      el("div", { class: "review-actions" }, el("button", { class: "btn primary", type: "button", id: "review-close" }, tr("review.close"))));
    document.body.append(box);
    box.querySelector("#review-close").addEventListener("click", () => box.close());
  }
  return box;
}

const num = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(1);
const value = (v) => `${num(v.mean)} [${num(v.low)}, ${num(v.high)}]`;

function decisionItem(d) {
  const same = d.best.action === d.taken.action;
  // a list item (as a list holds), its number a button that shows the position (the
  // keyboard reaches it; a click anywhere on the item does the same)
  const opener = el("button", { class: "n", type: "button", "aria-expanded": "false",
    "aria-label": tr("review.position", { number: d.number }) }, `${d.number}`);
  const item = el("li", { class: "review-item", dataset: { number: String(d.number), mark: d.mark || "" } },
    opener,
    el("span", { class: "acts" },
      el("span", {}, el("strong", {}, `${tr("review.col.taken")}: `, d.taken.action), " ", el("span", { class: "val" }, value(d.taken))),
      same ? el("span", { class: "val" }, `(${tr("review.same")})`)
        : el("span", {}, el("strong", {}, `${tr("review.col.best")}: `, d.best.action), " ", el("span", { class: "val" }, value(d.best))),
      same ? null : el("span", { class: "val" }, `${tr("review.col.loss")}: ${d.loss.mean.toFixed(1)}`)),
    d.mark ? el("span", { class: `mark ${d.mark}` }, tr(`review.mark.${d.mark}`)) : el("span", {}));
  const toggle = () => {
    const open = item.classList.toggle("open");
    opener.setAttribute("aria-expanded", String(open));
    const shown = item.querySelector(".position");
    if (shown) shown.remove();
    if (open) {
      item.append(el("div", { class: "position" }, el("span", { class: "small" }, `${tr("review.position", { number: d.number })}: `),
        miniCards(d.cards.split(" ").filter(Boolean))));
    }
  };
  item.addEventListener("click", toggle); // the button's click (Enter, Space) comes here too
  return item;
}

function render(box, data) {
  const content = box.querySelector("#review-content");
  const parts = [];
  if (data.state === "waiting" || data.state === "working") {
    const total = data.total || 0;
    parts.push(el("p", {}, data.total == null ? tr("review.waiting") : tr("review.working", { done: data.done, total })));
    parts.push(el("progress", { class: "review-progress", max: String(Math.max(total, 1)), value: String(data.done || 0) }));
  }
  if (data.state === "refused") parts.push(el("p", { class: "why", role: "alert" }, tr("review.refused", { why: data.why })));
  if (data.state === "cut") parts.push(el("p", { class: "why", role: "alert" }, tr("review.cut", { why: data.why })));
  if (data.state === "done" || data.state === "cut") {
    const marks = (m) => data.decisions.filter((d) => d.mark === m).length;
    parts.push(el("p", { class: "summary", id: "review-summary" }, tr("review.summary", {
      loss: data.total_loss.toFixed(1), decisions: data.decisions.length,
      blunders: marks("blunder"), mistakes: marks("mistake"), inaccuracies: marks("inaccuracy"),
    })));
    if (data.thresholds) {
      parts.push(el("p", { class: "small muted" }, tr("review.thresholds", data.thresholds)));
    }
    // which evaluator judged, in words: the search's rollouts, or the learned bot's
    const by = `review.by.${data.evaluator}`;
    const evaluator = tr(by) === by ? data.evaluator : tr(by);
    parts.push(el("p", { class: "small muted", id: "review-evaluator" }, tr("review.evaluator", { evaluator, budget: data.budget, seed: 0 })));
  }
  if (data.decisions && data.decisions.length) {
    parts.push(el("ol", { class: "review-list", id: "review-list" }, data.decisions.map(decisionItem)));
  }
  if (data.state === "done" && !data.decisions.length) parts.push(el("p", {}, tr("review.none")));
  fill(content, ...parts);
}

/** Start a review (the query of POST /api/tables/TABLE/review) and show it as it comes. */
export async function openReview(table, query) {
  const box = dialog();
  if (!box.open) box.showModal();
  render(box, { state: "waiting", decisions: [] });
  let key;
  try {
    const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v != null));
    key = (await api(`/api/tables/${encodeURIComponent(table)}/review?${params}`, { method: "POST" })).id;
  } catch (err) {
    render(box, { state: "refused", why: err.message, decisions: [] });
    return;
  }
  for (;;) {
    let data;
    try {
      data = await api(`/api/reviews/${encodeURIComponent(key)}`);
    } catch (err) {
      render(box, { state: "refused", why: err.message, decisions: [] });
      return;
    }
    render(box, data);
    if (data.state !== "waiting" && data.state !== "working") return;
    if (!box.open) return; // closed: stop asking (the server finishes and forgets it)
    await new Promise((done) => setTimeout(done, 700));
  }
}

/** The result dialog's "Review my hand" (a seated person; ``who`` null for a spectator). */
export function offerReview(resultDialog, who) {
  let button = resultDialog.querySelector("#result-review");
  if (!who) {
    if (button) button.classList.add("hidden");
    return;
  }
  if (!button) {
    button = el("button", { class: "btn", type: "button", id: "result-review" }, tr("review.button"));
    const actions = resultDialog.querySelector(".result-actions");
    actions.insertBefore(button, actions.firstChild);
  }
  button.classList.remove("hidden");
  button.textContent = tr("review.button");
  button.onclick = () => openReview(who.table, { token: who.token, hand: who.hand, lang: who.lang });
}

/** The replay of a finished table: a seat picker and "Review" beside the controls. */
export function offerReplayReview(controls, { table, match, players, hand, lang }) {
  if (controls.querySelector("#review-seat")) return;
  const pick = el("select", { id: "review-seat", "aria-label": tr("review.seat_for") },
    players.map((name, i) => el("option", { value: String(i) }, name)));
  const go = el("button", { class: "btn", type: "button", id: "replay-review" }, tr("review.seat_for"));
  go.addEventListener("click", () => openReview(table, { seat: pick.value, match, hand: hand(), lang }));
  controls.append(pick, go);
}
