// The replay: a finished table (/replay/TABLE) or a record opened from disk (/replay),
// stepped forwards, backwards and to any action, every hand face up.
import { $, card, el, fill, indexLabels, language, loadWords, miniCards, resultView, setIndexLabels, t as tr } from "/static/common.js";
import { offerReplayReview } from "/static/review.js";

await loadWords();

const table = location.pathname.split("/")[2] || null;
let data = null;
let at = 0;
let timer = null;

async function load(promise) {
  let response;
  try {
    response = await promise;
  } catch (err) {
    return tr("page.cannot_reach", { error: err.message });
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) return (body && body.detail) || `${response.status} ${response.statusText}`;
  show(body);
  return null;
}

function show(frames) {
  data = frames;
  at = 0;
  $("#open").classList.add("hidden");
  $("#viewer").classList.remove("hidden");
  $("#title").textContent = `${frames.title} — ${frames.players.join(", ")}`;
  fill($("#hand-select"), frames.hands.map((h, i) => el("option", { value: i }, tr("page.hand_n", { n: h.hand }))));
  $("#slider").max = frames.frames.length - 1;
  if (table) {
    const match = new URLSearchParams(location.search).get("match");
    offerReplayReview($(".replay-controls"), { table, match, players: frames.players, hand: () => data.hands[Math.max(0, handOf(at))].hand, lang: language() });
  }
  render();
}

function handOf(i) {
  return data.hands.findIndex((h) => h.start <= i && i <= h.end);
}

function go(i) {
  at = Math.max(0, Math.min(data.frames.length - 1, i));
  render();
}

function render() {
  const f = data.frames[at];
  const h = handOf(at);
  const hand = data.hands[h];
  $("#hand-select").value = String(h);
  $("#slider").value = String(at);
  $("#where").textContent = tr("page.replay.where", { n: hand.hand, step: at - hand.start, of: hand.end - hand.start });
  $("#action").textContent = at === hand.start ? tr("page.replay.the_deal", { n: hand.hand }) : `${f.action} — ${f.status}`;
  $("#prev").disabled = at === 0;
  $("#next").disabled = at === data.frames.length - 1;
  // the zones the game's view declares, drawn by their kind (a pile: its last 20 cards)
  const zones = f.table.zones.map((z) => el("div", { class: "zone", dataset: { zoneKind: z.kind } }, el("h3", {}, z.title),
    z.kind === "stock" ? [card(null, { mini: true }), el("span", { class: "stackcount" }, tr("page.table.left", { n: z.count }))]
      : z.kind === "count" ? el("strong", {}, String(z.count))
        : z.cards.length ? miniCards(z.kind === "pile" ? z.cards.slice(-20) : z.cards) : z.empty));
  fill($("#centre"), zones);
  fill($("#seats"), f.seats.map((s, i) => el("div", { class: `replay-seat${s.turn ? " seat turn" : ""}`, dataset: { seat: i } },
    el("div", { class: "name" }, el("strong", {}, data.players[i] || s.name), " ", s.call ? el("span", { class: "badge red" }, tr("page.table.called", { call: s.call })) : null,
      s.turn ? el("span", { class: "badge" }, tr("page.table.to_play")) : null),
    el("div", { class: "cards hand-cards" }, f.hands[i].map((c) => card(c))),
    s.lines.map((l) => el("div", { class: "what small" }, l.cards === null ? l.label : [`${l.label} `, l.cards.length ? miniCards(l.cards) : "—"])))));
  fill($("#log"), f.log.map((l) => el("li", {}, l)));
  fill($("#result"), f.result ? resultView(f.result, null) : []);
}

function toggle() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    $("#play").textContent = tr("page.replay.play");
    return;
  }
  $("#play").textContent = tr("page.replay.pause");
  timer = setInterval(() => {
    if (at >= data.frames.length - 1) toggle();
    else go(at + 1);
  }, 700);
}

$("#first").addEventListener("click", () => go(data.hands[handOf(at)].start));
$("#last").addEventListener("click", () => go(data.hands[handOf(at)].end));
$("#prev").addEventListener("click", () => go(at - 1));
$("#next").addEventListener("click", () => go(at + 1));
$("#play").addEventListener("click", toggle);
$("#slider").addEventListener("input", (e) => go(Number(e.target.value)));
$("#hand-select").addEventListener("change", (e) => go(data.hands[Number(e.target.value)].start));

document.addEventListener("keydown", (event) => {
  if (!data || event.target.tagName === "SELECT" || event.target.tagName === "INPUT" && event.target.type !== "range") return;
  const h = handOf(at);
  const moves = {
    ArrowRight: () => go(at + 1), ArrowLeft: () => go(at - 1),
    Home: () => go(data.hands[h].start), End: () => go(data.hands[h].end),
    PageDown: () => go(data.hands[Math.min(h + 1, data.hands.length - 1)].start),
    PageUp: () => go(data.hands[Math.max(h - 1, 0)].start),
    " ": toggle,
  };
  const move = moves[event.key];
  if (move) {
    move();
    event.preventDefault();
  }
});

const labels = $("#index-labels");
labels.checked = indexLabels();
labels.addEventListener("change", () => {
  setIndexLabels(labels.checked);
  if (data) render();
});

async function openFile(file) {
  $("#open-error").textContent = "";
  if (file.size > 1024 * 1024) {
    $("#open-error").textContent = tr("page.replay.too_big");
    return;
  }
  const text = await file.text();
  const error = await load(fetch(`/api/replay?lang=${language()}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: text }));
  if (error) $("#open-error").textContent = error;
}

if (table) {
  // ?match=N: one of the table's earlier matches (from 0); without it, the last
  const match = new URLSearchParams(location.search).get("match");
  const which = match !== null && /^\d{1,3}$/.test(match) ? `&match=${match}` : "";
  load(fetch(`/api/tables/${encodeURIComponent(table)}/replay?lang=${language()}${which}`)).then((error) => {
    if (error) {
      $("#fatal").textContent = error;
      $("#fatal").classList.remove("hidden");
    }
  });
} else {
  $("#open").classList.remove("hidden");
  $("#file").addEventListener("change", (e) => e.target.files[0] && openFile(e.target.files[0]));
  const drop = $("#drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files[0]) openFile(e.dataTransfer.files[0]);
  });
}
