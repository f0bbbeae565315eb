// The host's page (/host/TOKEN): every seat's link again, the seats' names, and a new link
// for a seat whose link reached the wrong person (the old one stops working at once).
import { $, api, copy, el, fill, language, loadWords, t as tr, toast } from "/static/common.js";

const key = location.pathname.split("/")[2];
const base = `/api/host/${encodeURIComponent(key)}`;

const absolute = (url) => (url.startsWith("http") ? url : location.origin + url);

function linkCell(url, openText) {
  url = absolute(url);
  const b = el("button", { class: "btn small", type: "button" }, tr("page.copy"));
  b.addEventListener("click", () => copy(url, b));
  return [el("code", {}, url), b, el("a", { class: "btn small", href: url, target: "_blank", rel: "noopener" }, openText)];
}

function seatRow(s) {
  const who = s.name || tr("page.seat", { n: s.seat + 1 });
  if (s.kind !== "human") {
    return el("div", { class: "link-row" }, el("span", { class: "who" }, tr("page.seat", { n: s.seat + 1 })), el("span", { class: "muted" }, botName(s.level)));
  }
  const name = el("input", { type: "text", value: s.name || "", maxlength: 40, placeholder: tr("page.host.name"), "aria-label": tr("page.host.name_of", { n: s.seat + 1 }) });
  const save = el("button", { class: "btn small", type: "button" }, tr("page.host.rename"));
  save.addEventListener("click", async () => {
    try {
      await api(`${base}/seats/${s.seat}/name`, { json: { name: name.value } });
      toast(tr("page.host.renamed", { n: s.seat + 1, name: name.value.trim() }));
      load();
    } catch (err) {
      toast(err.message);
    }
  });
  const renew = el("button", { class: "btn small", type: "button" }, tr("page.host.new_link"));
  renew.addEventListener("click", async () => {
    if (!confirm(tr("page.host.confirm", { name: who }))) return;
    try {
      await api(`${base}/seats/${s.seat}/reissue`, { json: {} });
      toast(tr("page.host.reissued", { name: who }));
      load();
    } catch (err) {
      toast(err.message);
    }
  });
  const link = s.url ? linkCell(s.url, tr("page.open")) : [el("span", { class: "muted" }, tr("page.host.no_link"))];
  return el("div", { class: "link-row host-seat", dataset: { seat: s.seat } }, el("span", { class: "who" }, who), ...link, name, save, renew);
}

async function load() {
  let t;
  try {
    t = await api(base);
  } catch (err) {
    $("#fatal").textContent = err.status === 404 ? tr("page.host.not_host") : err.message;
    $("#fatal").classList.remove("hidden");
    $("#host").classList.add("hidden");
    return;
  }
  document.title = tr("page.host.doc_title_game", { title: t.title });
  fill($("#about"), `${t.title}, `, el("span", { class: "muted" }, tr(t.status === "finished" ? "page.host.over" : "page.host.playing")),
    t.paused ? [" ", el("span", { class: "badge grey", id: "paused" }, tr("paused.badge")), el("p", { class: "small muted" }, tr("paused.host"))] : null);
  showSettings(t);
  fill($("#seats"), t.seats.map(seatRow),
    el("div", { class: "link-row" }, el("span", { class: "who" }, tr("page.spectators")), ...linkCell(t.watch_url, tr("page.watch"))));
}

/** A bot level's name for people ("a heuristic bot"). */
function botName(level) {
  if (level.startsWith("policy:")) return tr("page.lobby.bot.policy", { name: level.slice(7) });
  const key = `page.lobby.bot.${level}`;
  const text = tr(key);
  return text === key ? tr("page.lobby.bot", { level }) : text;
}

await loadWords();

// -- the table's settings, the next hand, another match ---------------------------------------
function showSettings(t) {
  const set = t.settings || {};
  $("#host-play").classList.remove("hidden");
  $("#set-hints").checked = Boolean(set.hints);
  $("#set-pace").value = String(set.bot_pace ?? 0);
  $("#set-pause").checked = Boolean(set.pause);
  $("#set-timer").value = String(set.timer || 0);
  $("#set-wait").value = String(Math.round((set.wait ?? 180) / 60 * 10) / 10);
  $("#again-now").disabled = t.status !== "finished";
  $("#again-now").title = t.status === "finished" ? "" : tr("page.host.again_later");
}

async function post(path, json, done) {
  try {
    await api(`${base}${path}?lang=${language()}`, { json });
    toast(done);
    load();
  } catch (err) {
    toast(err.message);
  }
}

$("#settings-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const pace = Number($("#set-pace").value);
  const timer = Math.round(Number($("#set-timer").value) || 0);
  post("/settings", {
    hints: $("#set-hints").checked,
    bot_pace: Number.isFinite(pace) ? pace : 0,
    pause: $("#set-pause").checked,
    timer,
    wait: Math.max(0, Math.round((Number($("#set-wait").value) || 0) * 60)),
  }, tr("page.host.saved"));
});
$("#deal-now").addEventListener("click", () => post("/next", {}, tr("page.host.dealt")));
$("#again-now").addEventListener("click", () => post("/again", {}, tr("page.host.again_started")));

load();
