// The lobby: create a table (game, rules, seats, bots, match length, timer), share the
// links, and see the open tables.
import { $, api, copy, el, fill, language, loadWords, t as tr, tn } from "/static/common.js";

let games = [];
let changed = new Map(); // option name -> value the person chose

const game = () => games.find((g) => g.name === $("#game").value);

function showGame() {
  const g = game();
  if (!g) return;
  const [lo, hi] = g.players;
  const players = $("#players");
  players.min = lo;
  players.max = hi;
  players.value = Math.min(hi, Math.max(lo, g.default_players));
  $("#players-range").textContent = lo === hi ? tn("page.lobby.players", lo) : tr("page.lobby.players_range", { lo, hi });
  fill($("#preset"), g.presets.map((p) => el("option", { value: p.name, selected: p.name === g.default_preset }, p.title || p.name)));
  changed = new Map();
  showPreset();
  showSeats();
}

async function showPreset() {
  const g = game();
  const preset = g.presets.find((p) => p.name === $("#preset").value);
  fill($("#preset-help"), preset ? [el("code", { class: "ident", title: tr("page.lobby.ident_title") }, preset.name), " ", preset.summary] : []);
  let values = {};
  try {
    values = (await api(`/api/rules/${encodeURIComponent(g.name)}?preset=${encodeURIComponent(preset ? preset.name : "")}`)).rules;
  } catch {
    values = Object.fromEntries(g.options.map((o) => [o.name, o.default]));
  }
  fill($("#options"), g.options.map((o) => optionRow(o, values[o.name])));
  countChanged();
}

function isBool(o) {
  return o.kind === "bool" || o.kind === "true/false" || typeof o.default === "boolean";
}

/** A choice in the reader's words, its identifier beside where the words differ from it
 * (the option's description names the choices by their identifiers). */
function choiceLabel(label, c) {
  if (!label || label.toLowerCase().replaceAll(" ", "-") === c) return c;
  return `${label} (${c})`;
}

function optionRow(o, value) {
  const id = `opt-${o.name}`;
  let input;
  if (isBool(o)) {
    input = el("input", { id, type: "checkbox", checked: Boolean(value) });
  } else if (o.choices && o.choices.length) {
    input = el("select", { id }, o.choices.map((c, i) => el("option", { value: c, selected: c === value }, choiceLabel((o.labels || [])[i], c))));
  } else {
    input = el("input", { id, type: "text", inputmode: "numeric", value: value === null || value === undefined ? "auto" : value, size: 6 });
  }
  const row = el("div", { class: "option", dataset: { name: o.name } },
    el("div", { class: "row" }, el("label", { for: id }, o.title || o.name.replaceAll("_", " ")), el("code", { class: "ident" }, o.name), input),
    el("p", { class: "help" }, o.summary || o.help || ""));
  input.addEventListener("change", () => {
    let v;
    if (isBool(o)) v = input.checked;
    else if (o.choices && o.choices.length) v = input.value;
    else v = /^-?\d+$/.test(input.value.trim()) ? Number(input.value.trim()) : input.value.trim();
    changed.set(o.name, v);
    row.classList.add("changed");
    countChanged();
  });
  return row;
}

function countChanged() {
  $("#changed-count").textContent = changed.size ? tr("page.lobby.changed", { n: changed.size }) : "";
}

function showSeats() {
  const g = game();
  const n = Number($("#players").value) || g.default_players;
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  // a learned bot only at the table sizes a model ships for
  const levels = (g.levels || ["random", "heuristic", "variant", "search"])
    .filter((l) => l !== "learned" || (g.learned_players || []).includes(n));
  const offered = new Set(["human", ...levels.map((l) => `bot:${l}`)]);
  fill($("#seats"), Array.from({ length: n }, (_, i) => {
    const was = offered.has(old[i]) ? old[i] : old[i] && "bot:heuristic";
    const chosen = was || (i === 0 ? "human" : "bot:heuristic");
    return el("div", { class: "seat-row" },
      el("label", { class: "who", for: `seat-${i}` }, tr("page.seat", { n: i + 1 })),
      el("select", { id: `seat-${i}`, "aria-label": tr("page.lobby.who_plays", { n: i + 1 }) },
        el("option", { value: "human", selected: chosen === "human" }, tr("page.lobby.a_person")),
        levels.map((l) => el("option", { value: `bot:${l}`, selected: chosen === `bot:${l}` }, botName(l)))));
  }));
}

// the table's settings beyond the rules: hints, the bots' pace, the pause after a hand
function tableSettings() {
  const hints = $("#hints").value;
  const pace = Number($("#bot-pace").value);
  return {
    hints: hints === "" ? null : hints === "on",
    bot_pace: Number.isFinite(pace) ? Math.min(5, Math.max(0, pace)) : 0.8,
    pause: $("#pause").checked,
  };
}

async function create(event) {
  event.preventDefault();
  const g = game();
  const seats = [...document.querySelectorAll("#seats select")].map((s) =>
    s.value === "human" ? { kind: "human" } : { kind: "bot", level: s.value.slice(4) });
  const body = {
    game: g.name,
    preset: $("#preset").value || null,
    options: Object.fromEntries(changed),
    seats,
    hands: Number($("#hands").value) || 1,
    timer: $("#timer-on").checked ? Number($("#timer").value) || 60 : null,
    listed: $("#listed").checked,
    ...tableSettings(),
  };
  const button = $("#create-btn");
  button.disabled = true;
  $("#create-error").textContent = "";
  try {
    const made = await api(`/api/tables?lang=${language()}`, { json: body });
    showLinks(made, g);
    refresh();
  } catch (err) {
    $("#create-error").textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

function linkRow(who, url, openText) {
  const b = el("button", { class: "btn small", type: "button" }, tr("page.copy"));
  b.addEventListener("click", () => copy(url, b));
  return el("div", { class: "link-row" }, el("span", { class: "who" }, who), el("code", {}, url), b,
    el("a", { class: "btn small", href: url, target: "_blank", rel: "noopener" }, openText));
}

function showLinks(made, g) {
  // the server's public address when it has one (behind a proxy), else this page's
  const origin = location.origin;
  const urls = made.urls || {};
  const rows = Object.entries(made.links || {}).map(([seat, path]) => linkRow(tr("page.seat", { n: Number(seat) + 1 }), urls[seat] || origin + path, tr("page.open")));
  if (!rows.length) {
    for (const [seat, token] of Object.entries(made.seats || {})) rows.push(linkRow(tr("page.seat", { n: Number(seat) + 1 }), `${origin}/seat/${token}`, tr("page.open")));
  }
  const watch = made.watch_page || `/watch/${made.table}`;
  rows.push(linkRow(tr("page.spectators"), made.watch_page_url || origin + watch, tr("page.watch")));
  if (made.host_page) {
    rows.unshift(el("p", { class: "muted small" }, tr("page.lobby.host_link")),
      linkRow(tr("page.lobby.host"), made.host_page_url || origin + made.host_page, tr("page.open")));
  }
  fill($("#links"), el("p", {}, `${g.title}, ${tr("page.lobby.table")} `, el("code", {}, made.table)), rows);
  $("#made").classList.remove("hidden");
  $("#made").scrollIntoView({ behavior: "smooth", block: "start" });
}

async function refresh() {
  let tables;
  try {
    tables = await api("/api/tables");
  } catch (err) {
    fill($("#open"), el("p", { class: "error" }, err.message));
    return;
  }
  if (!tables.length) {
    fill($("#open"), el("p", { class: "muted" }, tr("page.lobby.no_tables")));
    return;
  }
  const title = (name) => (games.find((g) => g.name === name) || {}).title || name;
  fill($("#open"), el("table", { class: "list" },
    el("thead", {}, el("tr", {}, el("th", {}, tr("page.lobby.col_game")), el("th", {}, tr("page.lobby.col_seats")), el("th", {}, tr("page.lobby.col_hands")), el("th", {}, ""))),
    el("tbody", {}, tables.map((t) => {
      const people = t.seats.filter((s) => s.kind === "human");
      const taken = people.filter((s) => s.taken).length;
      const bots = t.seats.length - people.length;
      const seats = tr("page.lobby.taken", { taken, of: people.length, free: people.length - taken }) + (bots ? `; ${tn("page.lobby.bots", bots)}` : "");
      return el("tr", {}, el("td", {}, t.title || title(t.game), t.paused ? [" ", el("span", { class: "badge grey paused" }, tr("paused.badge"))] : null), el("td", {}, seats), el("td", {}, t.hands ?? ""),
        el("td", {}, el("a", { href: t.watch_page || `/watch/${t.table}` }, tr("page.watch"))));
    }))));
}

/** A bot level's name for people ("a heuristic bot"; a level without words: as it is). */
function botName(level) {
  if (level.startsWith("policy:")) return tr("page.lobby.bot.policy", { name: level.slice(7) });
  const key = `page.lobby.bot.${level}`;
  const text = tr(key);
  return text === key ? tr("page.lobby.bot", { level }) : text;
}

async function start() {
  await loadWords();
  try {
    games = await api(`/api/games?lang=${language()}`);
  } catch (err) {
    $("#create-error").textContent = tr("page.lobby.cannot_load", { error: err.message });
    return;
  }
  fill($("#game"), games.map((g) => el("option", { value: g.name }, g.title)));
  // the first game listed is chosen (cherki lists Balik Satu first)
  $("#game").addEventListener("change", showGame);
  $("#preset").addEventListener("change", () => { changed = new Map(); showPreset(); });
  $("#players").addEventListener("change", showSeats);
  $("#timer-on").addEventListener("change", () => ($("#timer").disabled = !$("#timer-on").checked));
  $("#create").addEventListener("submit", create);
  showGame();
  refresh();
  // the server reads the list again only when something in it changed: asking often is cheap
  setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}

start();
