// The learn pages (issue 37): /learn lists the games with a course, /learn/GAME plays the
// course. Each lesson's position is the table's own view for the learner's seat, sent by the
// server (GET /api/learn/GAME) and drawn as the table draws it (the same cards, seats, zones,
// hand and action buttons); an answer is an action the server judges through the engine
// (POST /api/learn/GAME/LESSON/answer). Progress is kept in this browser (localStorage).
import { $, api, card, el, fill, loadWords, miniCards, resultView, t, withRed } from "/static/common.js";

const [, , gameName] = location.pathname.split("/"); // "learn", GAME
let lang = "en";
let course = null;
let index = 0;
let selected = -1;
let answered = false;
let busy = false;

const progressKey = () => `cherki:learn:${course.name}`;
function done() {
  try {
    const kept = JSON.parse(localStorage.getItem(progressKey()) || "[]");
    return new Set(Array.isArray(kept) ? kept : []);
  } catch {
    return new Set();
  }
}
function markDone(id) {
  const kept = done();
  kept.add(id);
  localStorage.setItem(progressKey(), JSON.stringify([...kept]));
}

function fatal(text) {
  const node = $("#fatal");
  node.textContent = text;
  node.classList.remove("hidden");
}

async function main() {
  lang = await loadWords();
  if (!gameName) {
    showGames();
    return;
  }
  try {
    course = await api(`/api/learn/${encodeURIComponent(gameName)}?lang=${lang}`);
  } catch (err) {
    fatal(err.message);
    return;
  }
  document.title = `Cherki — ${t("learn.ui.course", { game: course.title })}`;
  $("#title").textContent = t("learn.ui.course", { game: course.title });
  $("#course-title").textContent = course.title;
  $("#course").classList.remove("hidden");
  $("#practice").addEventListener("click", practice);
  $("#start-over").addEventListener("click", () => {
    localStorage.removeItem(progressKey());
    show(0);
  });
  const asked = new URLSearchParams(location.search).get("lesson");
  const byId = course.lessons.findIndex((l) => l.id === asked);
  const kept = done();
  const next = course.lessons.findIndex((l) => !kept.has(l.id));
  show(byId >= 0 ? byId : Math.max(next, 0));
}

async function showGames() {
  $("#games").classList.remove("hidden");
  $("#all-games").classList.add("hidden");
  try {
    const games = await api(`/api/learn?lang=${lang}`);
    fill($("#game-list"), games.map((g) => el("li", {}, el("a", { href: `/learn/${g.name}` }, g.title), " ",
      el("span", { class: "small muted" }, g.count))));
  } catch (err) {
    fatal(err.message);
  }
}

// -- the lesson list and one lesson --------------------------------------------------------
function renderList() {
  const kept = done();
  fill($("#lesson-list"), course.lessons.map((l, i) => el("li", { class: `${i === index ? "current" : ""}${kept.has(l.id) ? " done" : ""}`, dataset: { lesson: l.id } },
    el("a", { href: `?lesson=${encodeURIComponent(l.id)}`, onclick: (e) => { e.preventDefault(); show(i); } }, l.title),
    kept.has(l.id) ? el("span", { class: "tick", title: t("learn.ui.finished") }, "✓") : null)));
}

function show(i) {
  index = i;
  selected = -1;
  answered = false;
  const lesson = course.lessons[i];
  history.replaceState(null, "", `?lesson=${encodeURIComponent(lesson.id)}`);
  $("#lesson-n").textContent = t("learn.ui.lesson_n", { n: i + 1, total: course.lessons.length });
  $("#lesson-title").textContent = lesson.title;
  fill($("#lesson-text"), withRed(lesson.text));
  fill($("#lesson-question"), withRed(lesson.question));
  $("#status-text").textContent = lesson.ui.status;
  $("#feedback").classList.add("hidden");
  renderList();
  render();
  window.scrollTo(0, 0);
}

const lesson = () => course.lessons[index];
const actions = () => (answered ? [] : lesson().ui.actions);
const handCards = () => lesson().ui.hand.groups.flatMap((g) => g.cards);
const cardActions = (code) => actions().filter((a) => a.card === code && !a.numbered);

function render() {
  renderSeats();
  renderCentre();
  renderYou();
}

function renderSeats() {
  const ui = lesson().ui;
  const pile = ui.table.zones.find((z) => z.kind === "pile");
  const topBy = pile && pile.top && pile.seats.length ? pile.seats[pile.seats.length - 1] : null;
  fill($("#seats"), ui.seats.map((s) => {
    const badges = [];
    if (s.turn) badges.push(el("span", { class: "badge to-play" }, t("page.table.to_play")));
    if (s.call) badges.push(el("span", { class: "badge red" }, t("page.table.called", { call: s.call })));
    if (topBy === s.seat) badges.push(el("span", { class: "badge top-by" }, t("page.table.top_discard", { card: pile.top })));
    return el("div", { class: `seat${s.turn ? " turn" : ""}`, dataset: { seat: s.seat } },
      el("div", { class: "name" }, s.you ? t("page.table.name_you", { name: s.name }) : s.name, badges),
      el("div", { class: "count" }, card(null, { mini: true }), el("span", { class: "stackcount" }, `${s.cards}`,
        el("span", { class: "unit" }, ` ${t(s.cards === 1 ? "page.table.unit.one" : "page.table.unit.other", { n: s.cards })}`))),
      s.lines.map((l) => el("div", { class: "what" }, l.cards === null ? l.label : [`${l.label} `, l.cards.length ? miniCards(l.cards) : "—"])));
  }));
}

function cardButton(code, action, cls = "") {
  const b = el("button", { class: `card-btn ${action ? "playable" : "inert"} ${cls}`, type: "button", "aria-label": action ? action.label : code,
    tabindex: action ? "0" : "-1", dataset: { code } }, card(code));
  if (action) b.addEventListener("click", () => answer(action));
  return b;
}

function renderCentre() {
  const zones = lesson().ui.table.zones;
  fill($("#centre"), zones.map((z) => {
    const on = actions().find((a) => a.zone === z.id);
    const attrs = { class: `zone${z.kind === "pile" ? " pile" : ""}`, dataset: { zoneKind: z.kind } };
    if (z.kind === "stock") {
      const stock = el("button", { class: `card-btn ${on ? "playable" : "inert"}`, type: "button", id: "stock",
        "aria-label": on ? on.label : z.label, tabindex: on ? "0" : "-1" }, card(null));
      if (on) stock.addEventListener("click", () => answer(on));
      return el("div", attrs, el("h3", {}, z.title), stock, el("span", { class: "stackcount" }, t("page.table.left", { n: z.count })));
    }
    if (z.kind === "pile") {
      const shown = z.cards.slice(-14);
      const cards = shown.map((c, i) => (i === shown.length - 1 && z.top === c ? cardButton(c, on, "top") : card(c, { mini: true })));
      return el("div", attrs, el("h3", {}, z.title), z.cards.length ? el("div", { class: "cards" }, cards) : el("span", {}, z.empty));
    }
    if (z.kind === "cards") return el("div", attrs, el("h3", {}, z.title), z.cards.length ? el("div", { class: "cards" }, z.cards.map((c) => card(c))) : el("span", {}, z.empty));
    if (z.kind === "card") return el("div", attrs, el("h3", {}, z.title), card(z.cards[0]));
    return el("div", attrs, el("h3", {}, z.title), el("strong", {}, String(z.count)));
  }));
}

function renderYou() {
  const ui = lesson().ui;
  const hand = ui.hand;
  const flat = handCards();
  let i = 0;
  const groups = hand.groups.map((g) => el("div", { class: "group" },
    el("div", { class: "cards" }, g.cards.map((code) => {
      const n = i++;
      const acts = cardActions(code);
      const isNew = ui.drawn && ui.drawn.card === code && flat.indexOf(code) === n;
      const b = el("button", { class: `card-btn ${acts.length ? "playable" : "inert"}${n === selected ? " selected" : ""}${isNew ? " new" : ""}`,
        type: "button", "aria-label": acts.length ? `${code}: ${acts.map((a) => a.label).join(", ")}` : code,
        "aria-pressed": n === selected ? "true" : "false", dataset: { code, index: n } }, card(code));
      b.addEventListener("click", () => clickCard(n));
      return b;
    })),
    el("div", { class: "rank" }, g.rank === 1 ? t("page.table.rank_ones") : t("page.table.rank", { n: g.rank }))));
  const parts = [el("h2", {}, t("page.table.your_hand"))];
  if (ui.drawn) parts.push(el("p", { class: "small", id: "drawn" }, `${ui.drawn.text}.`));
  parts.push(el("div", { class: "hand", id: "hand" }, groups));
  if (hand.sets.length) {
    parts.push(el("div", { class: "sets" }, el("span", {}, t("page.table.sets")), hand.sets.map((s) => el("span", { class: "set" }, s.map((c) => card(c, { mini: true }))))));
  }
  parts.push(renderActions());
  fill($("#you"), parts);
}

function renderActions() {
  const bar = el("div", { class: "actions", id: "actions", role: "toolbar", "aria-label": t("page.table.your_actions") });
  for (const a of actions().filter((x) => !x.card)) {
    bar.append(el("button", { class: a.goes_out ? "btn go" : "btn primary", type: "button", disabled: busy, dataset: { action: a.id, kind: a.kind },
      onclick: () => answer(a) }, a.label));
  }
  const code = handCards()[selected];
  const mine = code ? cardActions(code) : [];
  for (const a of [...mine, ...actions().filter((x) => x.numbered)]) {
    bar.append(el("button", { class: a.kind === "call" ? "btn warn" : "btn primary", type: "button", disabled: busy,
      dataset: { action: a.id, kind: a.kind }, onclick: () => answer(a), title: a.label }, withRed(a.label)));
  }
  if (actions().some((a) => a.card && !a.numbered) && selected < 0) bar.append(el("span", { class: "small" }, t("page.table.pick")));
  return bar;
}

function clickCard(n) {
  if (busy || answered) return;
  const acts = cardActions(handCards()[n]);
  if (!acts.length) return;
  const plain = acts.find((a) => a.kind === "discard");
  if (n === selected && plain) {
    answer(plain);
    return;
  }
  selected = n;
  renderYou();
}

// -- the answer, judged by the server's engine ---------------------------------------------
async function answer(action) {
  if (busy || answered) return;
  busy = true;
  const l = lesson();
  let verdict;
  try {
    verdict = await api(`/api/learn/${encodeURIComponent(course.name)}/${encodeURIComponent(l.id)}/answer?lang=${lang}`, { json: { action: action.id } });
  } catch (err) {
    busy = false;
    fatal(err.message);
    return;
  }
  busy = false;
  selected = -1;
  const box = $("#feedback");
  box.classList.remove("hidden", "right", "wrong");
  if (!verdict.right) {
    box.classList.add("wrong");
    fill(box, el("p", { class: "verdict" }, t("learn.ui.wrong")), el("p", { class: "why" }, withRed(verdict.text)),
      el("p", { class: "small muted" }, t("learn.ui.try_again")));
    render();
    box.scrollIntoView({ block: "nearest" });
    return;
  }
  answered = true;
  markDone(l.id);
  box.classList.add("right");
  const parts = [el("p", { class: "verdict" }, t("learn.ui.right")), el("p", { class: "why" }, withRed(verdict.text))];
  if (verdict.result) parts.push(el("h3", {}, t("learn.ui.the_hand")), el("div", { class: "result-body" }, resultView(verdict.result, null)));
  for (const s of verdict.teaches || []) parts.push(el("p", { class: "small muted source" }, s.source), el("blockquote", {}, s.quote));
  const last = index === course.lessons.length - 1;
  parts.push(last ? el("p", { class: "verdict", id: "course-done" }, t("learn.ui.done"))
    : el("button", { class: "btn go next", type: "button", id: "next-lesson", onclick: () => show(index + 1) }, t("learn.ui.next")));
  fill(box, parts);
  render();
  renderList();
  box.scrollIntoView({ block: "nearest" });
}

async function practice() {
  const error = $("#practice-error");
  error.textContent = "";
  try {
    const made = await api(`/api/tables?lang=${lang}`, { json: course.practice });
    location.href = made.links["0"];
  } catch (err) {
    error.textContent = err.message;
  }
}

main();
