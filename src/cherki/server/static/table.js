// The table: a person's seat (/seat/TOKEN) or a spectator's view (/watch/TABLE). The
// server sends the whole state after every change; this page draws it and sends actions.
import { $, api, card, el, fill, indexLabels, language, loadWords, miniCards, resultView, setIndexLabels, t as tr, tn, toast, withRed } from "/static/common.js";
import * as motion from "/static/motion.js";
import { chatInit, chatLog, chatParam, chatReceive, chatSeats } from "/static/chat.js";
import { offerReview } from "/static/review.js";
import { matchesView } from "/static/matches.js";

const [, mode, key] = location.pathname.split("/"); // "seat", TOKEN | "watch", TABLE
const watching = mode === "watch";
const seenKey = `cherki:seen:${mode}:${key}`;

let ws = null;
let st = null; // the last state message
let selected = -1; // index of the picked card in the flattened hand
let pending = false; // an action sent, its answer not yet here
let retry = 0;
let gone = false; // the server closed for good (no such seat or table)
let hint = null;
let deadline = null;

// -- connecting ------------------------------------------------------------------------------
function socketUrl() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const since = localStorage.getItem(seenKey);
  const path = watching ? `/ws/watch/${key}` : `/ws/seat/${key}`;
  const query = new URLSearchParams();
  query.set("lang", language()); // the server's words in the person's language
  if (since !== null) query.set("since", since);
  query.set("chat", chatParam()); // the last chat line this page holds
  return `${proto}//${location.host}${path}?${query}`;
}

function connect() {
  showConn(tr(retry ? "page.table.reconnecting" : "page.table.connecting"));
  const mine = new WebSocket(socketUrl());
  ws = mine;
  heard = Date.now();
  let opened = false;
  // a handshake that hangs (a proxy handing it to a stopped process whose kernel still
  // accepts) is given up sooner than a silent connection; the first two tries as soon (the
  // proxy may hand a second one to the same stopped process), then longer after each, so
  // a slow link still gets through
  setTimeout(() => {
    if (ws === mine && mine.readyState === WebSocket.CONNECTING) giveUp();
  }, HANDSHAKE_MS * Math.min(Math.max(retry - 1, 1), 4));
  ws.addEventListener("open", () => {
    opened = true;
    retry = 0;
    heard = Date.now();
  });
  ws.addEventListener("message", (event) => {
    if (ws !== mine) return; // a socket given up for silence
    heard = Date.now();
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", async (event) => {
    if (ws !== mine) return; // given up for silence: a new one is already on its way
    pending = false;
    if (gone) return;
    if ((event.code === 1008 || !opened) && (await linkIsGone())) {
      gone = true;
      fatal(tr(watching ? "page.table.no_table" : "page.table.no_seat"));
      return;
    }
    retry += 1;
    showConn(tr("page.table.lost"));
    setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retry - 1, 5)));
  });
}

/** Whether the server says there is no such seat or table (a refused connection). */
async function linkIsGone() {
  try {
    await api(watching ? `/api/watch/${encodeURIComponent(key)}` : `/api/seat/${encodeURIComponent(key)}`);
    return false;
  } catch (err) {
    return err.status === 404 || err.status === 400;
  }
}

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    toast(tr("page.table.not_connected"));
    return false;
  }
  ws.send(JSON.stringify(message));
  return true;
}

// Liveness (docs/server.md, "Liveness"): the page pings a socket that has said nothing for
// PING_MS (every PING_MS while it stays quiet; a table in play speaks often enough that no
// ping is needed), and every socket at least every KEEP_MS (the server lets a spectator go
// that says nothing for a minute). It takes the connection for dead after SILENT_MS
// without a word from the server (a stalled or unreachable process, a pulled cable): it
// gives that socket up and connects again, through the proxy, to whichever process plays
// the table now. Silence is looked at every LOOK_MS, so a dead socket is given up at most
// SILENT_MS + LOOK_MS after its last word.
const PING_MS = 2000;
const KEEP_MS = 20000;
const SILENT_MS = 5000;
const LOOK_MS = 500;
// a handshake not done in this long (times the tries in a row so far less one, 1 to 4) is
// given up
const HANDSHAKE_MS = 2500;
let heard = Date.now(); // when the server last said anything on the current socket
let pinged = 0; // when the current socket last pinged
let looked = Date.now(); // when silence was last looked at
setInterval(() => {
  const now = Date.now();
  // a page whose own timers stood still (a sleeping phone, a background tab slowed down by
  // its browser) heard nothing because it did not run, not because the server is silent:
  // it pings and waits for the answer before judging
  if (now - looked > 4 * LOOK_MS) {
    heard = Math.max(heard, now - SILENT_MS + PING_MS);
    pinged = 0;
  }
  looked = now;
  if (!ws || gone) return;
  const quiet = now - heard >= PING_MS;
  if (ws.readyState === WebSocket.OPEN && now - pinged >= (quiet ? PING_MS : KEEP_MS)) {
    ws.send(JSON.stringify({ type: "ping" }));
    pinged = now;
  }
  if (ws.readyState <= WebSocket.OPEN && now - heard > SILENT_MS) giveUp();
}, LOOK_MS);

/** Give the current socket up (silent, or its handshake hung) and connect again. */
function giveUp() {
  const dead = ws;
  ws = null;
  try {
    dead.close();
  } catch {}
  retry += 1;
  pending = false;
  showConn(tr("page.table.lost"));
  connect();
}

function showConn(text) {
  const box = $("#conn");
  if (text) {
    box.textContent = text;
    box.classList.remove("hidden");
  } else box.classList.add("hidden");
}

function fatal(text) {
  $("#fatal").textContent = text;
  $("#fatal").classList.remove("hidden");
  $("#table-page").classList.add("hidden");
}

// -- messages --------------------------------------------------------------------------------
function onMessage(msg) {
  if (msg.type === "state") {
    showConn(null);
    const before = st;
    if (msg.log_from > 0) {
      // the hand's log from entry log_from on: the entries before it are the ones we hold
      if (!before || !before.ui.log || before.ui.log.length < msg.log_from || before.hand_number !== msg.hand_number) {
        ws.close(); // out of step: connect again for the whole table
        return;
      }
      msg.ui.log = before.ui.log.slice(0, msg.log_from).concat(msg.ui.log);
      msg.events = (before.events || []).slice(0, msg.log_from).concat(msg.events);
    }
    const was = motion.before(before);
    st = msg;
    pending = false;
    localStorage.setItem(seenKey, String(msg.version));
    if (!before || before.version !== msg.version) hint = null;
    if (before && before.hand_number !== msg.hand_number) selected = -1;
    if (msg.missed && msg.missed.length) showMissed(msg.missed);
    const ended = before ? msg.hand_number > before.hand_number || (msg.over && !before.over) : msg.over;
    render();
    motion.after(was, before, msg, { watching });
    if (ended && msg.ui.result) openResult();
  } else if (msg.type === "chat") {
    chatReceive(msg);
  } else if (msg.type === "hint") {
    hint = msg.lines || [];
    renderHint();
  } else if (msg.type === "error") {
    pending = false;
    toast(msg.message);
    render();
  } else if (msg.type === "closing") {
    // the server is closing this connection: say why; come back unless it says not to
    pending = false;
    if (msg.reconnect) showConn(msg.message);
    else {
      gone = true;
      fatal(msg.message);
    }
  }
}

function showMissed(lines) {
  const box = $("#missed");
  const close = el("button", { class: "btn small", type: "button", onclick: () => box.classList.add("hidden") }, tr("page.table.got_it"));
  fill(box, el("strong", {}, tr("page.table.while_away")), el("ul", {}, lines.map((l) => el("li", {}, l))), close);
  box.classList.remove("hidden");
}

// -- drawing ---------------------------------------------------------------------------------
const actions = () => (st && !watching ? st.ui.actions : []);
const handCards = () => (st && st.ui.hand ? st.ui.hand.groups.flatMap((g) => g.cards) : []);
const cardActions = (code) => actions().filter((a) => a.card === code && !a.numbered);
/** The zones of the table's middle, as the game's view declares them. */
const zones = () => (st && st.ui.table ? st.ui.table.zones : []);
/** The discard pile whose top card may be taken (the first zone of kind "pile"), or null. */
const pileZone = () => zones().find((z) => z.kind === "pile") || null;

/** The numbered choices: the picked card's discards (plain first), then the choices the
 * game numbers in order (Cholek Tiga's captures). */
function choices() {
  const code = handCards()[selected];
  const mine = code ? cardActions(code) : [];
  return [...mine, ...actions().filter((a) => a.numbered)];
}

function act(action) {
  if (pending || !action) return;
  if (send({ type: "act", action: action.id, version: st.version })) {
    pending = true;
    selected = -1;
    render();
  }
}

function render() {
  if (!st) return;
  const ui = st.ui;
  $("#table-page").classList.remove("hidden");
  const yours = !watching && st.observation && st.observation.current === st.seat && !st.over;
  $("#keys").classList.toggle("hidden", watching);
  const handText = matchText() + (st.over ? tr("page.host.over") : tr("term.hand", { n: st.hand_number + 1 }));
  $("#title").textContent = `${ui.title} — ${handText}${watching ? tr("page.table.watching") : ""}`;
  document.title = `${yours ? tr("page.table.your_turn_title") : ""}Cherki — ${ui.title}`;
  const record = $("#record");
  record.href = `/api/tables/${st.table}/record` + (watching ? "" : `?token=${encodeURIComponent(key)}`);
  record.classList.remove("hidden");
  $("#replay-link").href = `/replay/${st.table}`;
  $("#learn-link").href = `/learn/${st.game}`; // the game's course (issue 37)
  $("#replay-link").classList.toggle("hidden", !st.over);
  document.body.dataset.table = st.table; // the scoring list and the rules link (scoring.js)

  $("#status").classList.toggle("yours", Boolean(yours));
  $("#status-text").textContent = ui.status;
  $("#away").classList.toggle("hidden", watching || !(st.away || []).includes(st.seat));
  renderTimer();
  renderSeats();
  renderCentre();
  renderYou();
  renderLog();
  renderLifecycle();
  renderGlossary();
  renderKeys();
}

/** The game's own action keys in the list of keys (once: a table plays one game). */
function renderKeys() {
  const list = $("#keys dl");
  if (!list || !st.ui.keys || list.querySelector("[data-game-key]")) return;
  const after = [...list.querySelectorAll("dd")].find((d) => d.dataset.t === "page.table.key.draw");
  const rows = st.ui.keys.flatMap((k) => [el("dt", { dataset: { gameKey: k.key } }, el("kbd", {}, k.key)), el("dd", { dataset: { gameKey: k.key } }, k.label)]);
  if (after) after.after(...rows);
  else list.append(...rows);
}

function renderTimer() {
  const t = st.timer;
  deadline = t && typeof t.remaining === "number" && !st.over ? Date.now() + t.remaining * 1000 : null;
  tick();
}

function tick() {
  const box = $("#timer");
  if (!deadline) {
    box.classList.add("hidden");
    return;
  }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const who = st.timer.seat;
  const whose = who === null || who === undefined ? "page.table.timer" : who === st.seat && !watching ? "page.table.timer_yours" : "page.table.timer_for";
  box.textContent = tr(whose, { n: left, name: st.names[who] });
  box.classList.remove("hidden");
  box.classList.toggle("low", left <= 10);
}
setInterval(tick, 250);

function renderSeats() {
  const away = st.away || [];
  const last = motion.lastActions(st.events, st.ui.seats.length, st.ui.call_names);
  const pile = pileZone();
  const topBy = pile && pile.top && pile.seats.length ? pile.seats[pile.seats.length - 1] : null;
  fill($("#seats"), st.ui.seats.map((s) => {
    const badges = [];
    if (s.turn) badges.push(el("span", { class: "badge to-play" }, tr("page.table.to_play")));
    if (s.call) badges.push(el("span", { class: "badge red" }, tr("page.table.called", { call: s.call })));
    if (away.includes(s.seat)) badges.push(el("span", { class: "badge grey" }, tr("page.table.away_badge")));
    if (topBy === s.seat) badges.push(el("span", { class: "badge top-by", title: tr("page.table.top_by_title", { card: pile.top }) }, tr("page.table.top_discard", { card: pile.top })));
    const what = seatLines(s.lines, "what");
    const lastLine = last[s.seat] ? el("span", { class: `last ${last[s.seat].kind}`, title: last[s.seat].text, dataset: { kind: last[s.seat].kind } }, withRed(last[s.seat].text)) : null;
    return el("div", { class: `seat${s.turn ? " turn" : ""}${topBy === s.seat ? " discarder" : ""}`, dataset: { seat: s.seat } },
      el("div", { class: "name" }, s.you && !watching ? tr("page.table.name_you", { name: s.name }) : s.name, badges),
      el("div", { class: "count" }, card(null, { mini: true }), el("span", { class: "stackcount", title: tn("page.table.in_hand", s.cards) }, `${s.cards}`, el("span", { class: "unit" }, ` ${tn("page.table.unit", s.cards)}`)), lastLine),
      what);
  }));
  chatSeats(st);
}

/** The lines a game shows under a seat: a label, and the cards it names ("—" for none). */
function seatLines(lines, cls) {
  return lines.map((l) => el("div", { class: cls }, l.cards === null ? l.label : [`${l.label} `, l.cards.length ? miniCards(l.cards) : "—"]));
}

function cardButton(code, { action = null, cls = "", label = "" } = {}) {
  const b = el("button", {
    class: `card-btn ${action ? "playable" : "inert"} ${cls}`, type: "button", "aria-label": label || code,
    tabindex: action ? "0" : "-1", dataset: { code },
  }, card(code));
  if (action) b.addEventListener("click", () => act(action));
  return b;
}

function renderCentre() {
  if (!st.ui.table) {
    fill($("#centre"), el("p", {}, tr(st.over ? "page.table.no_hand" : "page.table.dealing")));
    return;
  }
  const parts = zones().map((z) => {
    const on = actions().find((a) => a.zone === z.id);
    const attrs = { class: `zone${z.kind === "pile" ? " pile" : ""}`, id: z.id === "stock" ? null : z.id, dataset: { zoneKind: z.kind } };
    if (z.kind === "stock") {
      const stock = el("button", { class: `card-btn ${on ? "playable" : "inert"}`, type: "button", id: "stock",
        "aria-label": on ? on.label : z.label, tabindex: on ? "0" : "-1" }, card(null));
      if (on) stock.addEventListener("click", () => act(on));
      return el("div", attrs, el("h3", {}, z.title), stock, el("span", { class: "stackcount" }, tr("page.table.left", { n: z.count })));
    }
    if (z.kind === "pile") {
      const shown = z.cards.slice(-14);
      const older = z.cards.length - shown.length;
      const seats = z.seats.slice(-14);
      const cards = shown.map((c, i) => {
        const top = i === shown.length - 1 && z.top === c;
        const node = top ? cardButton(c, { action: on, cls: "top", label: on ? on.label : tr("page.table.top_discard", { card: c }) }) : card(c, { mini: true });
        const who = st.names[seats[i]];
        if (who) node.title = tr("page.table.discarded_by", { card: c, name: who });
        return node;
      });
      const topSeat = seats.length ? seats[seats.length - 1] : null;
      const topWho = z.top && topSeat !== null && topSeat !== undefined ? (topSeat === st.seat && !watching ? tr("voice.you.obj") : st.names[topSeat]) : null;
      return el("div", attrs, el("h3", {}, older ? tr("page.table.discards_older", { n: older }) : z.title),
        z.cards.length ? el("div", { class: "cards" }, cards) : el("span", {}, z.empty),
        topWho ? el("span", { class: "stackcount", id: "top-by" }, withRed(tr("page.table.top_by", { card: z.top, name: topWho }))) : null);
    }
    if (z.kind === "cards") return el("div", attrs, el("h3", {}, z.title), z.cards.length ? el("div", { class: "cards" }, z.cards.map((c) => card(c))) : el("span", {}, z.empty));
    if (z.kind === "card") return el("div", attrs, el("h3", {}, z.title), card(z.cards[0]));
    return el("div", attrs, el("h3", {}, z.title), el("strong", {}, String(z.count)));
  });
  fill($("#centre"), parts);
}

function renderYou() {
  const you = $("#you");
  if (watching) {
    fill(you, el("p", { class: "muted" }, tr("page.table.watching_note")));
    return;
  }
  const ui = st.ui;
  const hand = ui.hand;
  if (!hand) {
    fill(you, el("p", {}, tr(st.over ? "page.table.thanks" : "page.table.waiting_hand")),
      st.ui.result ? el("button", { class: "btn", type: "button", onclick: openResult }, tr("page.table.show_result")) : null);
    return;
  }
  const flat = handCards();
  if (selected >= flat.length) selected = -1;
  let i = 0;
  const groups = hand.groups.map((g) => el("div", { class: "group" },
    el("div", { class: "cards" }, g.cards.map((code) => {
      const index = i++;
      const acts = cardActions(code);
      const isNew = ui.drawn && ui.drawn.card === code && flat.indexOf(code) === index;
      const b = el("button", {
        class: `card-btn ${acts.length ? "playable" : "inert"}${index === selected ? " selected" : ""}${isNew ? " new" : ""}`,
        type: "button", "aria-label": acts.length ? `${code}: ${acts.map((a) => a.label).join(", ")}` : code,
        "aria-pressed": index === selected ? "true" : "false", dataset: { code, index },
      }, card(code));
      b.addEventListener("click", () => clickCard(index));
      return b;
    })),
    el("div", { class: "rank" }, g.rank === 1 ? tr("page.table.rank_ones") : tr("page.table.rank", { n: g.rank }))));
  const parts = [el("h2", {}, tr("page.table.your_hand"), el("span", { class: "small muted", id: "hand-count" }, tn("count.cards", hand.count)),
    hand.winning ? el("span", { class: "badge" }, tr("page.table.winning")) : null)];
  if (ui.drawn) parts.push(el("p", { class: "small", id: "drawn" }, `${ui.drawn.text}.`));
  parts.push(el("div", { class: "hand", id: "hand" }, groups));
  if (hand.laid && hand.laid.length) {
    parts.push(el("div", { class: "sets" }, el("span", {}, tr("page.table.laid")), miniCards(hand.laid)));
  }
  if (hand.sets.length) {
    parts.push(el("div", { class: "sets" }, el("span", {}, tr("page.table.sets")), hand.sets.map((s) => el("span", { class: "set" }, s.map((c) => card(c, { mini: true }))))));
  }
  parts.push(renderActions());
  parts.push(el("div", { id: "hint-box" }));
  fill(you, parts);
  fitHand();
  renderHint();
}

// A phone's screen holds the hand, the top discard and the actions at once (table.css). A hand
// of large groups (five of a rank, say) can wrap a group a row, under the action bar: its cards
// are then drawn a little smaller, two pixels at a time down to four fifths of their size, until
// the hand ends above the bar. Where even that does not fit, they keep their size.
const narrowScreen = window.matchMedia("(max-width: 820px)");
function fitHand() {
  const hand = $("#hand");
  if (!hand) return;
  hand.style.removeProperty("--card-w");
  const bar = $("#actions");
  if (!narrowScreen.matches || !bar) return;
  const fits = () => hand.getBoundingClientRect().bottom + window.scrollY <= window.innerHeight - bar.offsetHeight;
  if (fits()) return;
  const size = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w"));
  const floor = Math.max(24, Math.round(size * 0.8));
  for (let w = size - 2; w >= floor; w -= 2) {
    hand.style.setProperty("--card-w", `${w}px`);
    if (fits()) return;
  }
  hand.style.removeProperty("--card-w");
}
let fitting = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(fitting);
  fitting = requestAnimationFrame(fitHand);
});

function renderActions() {
  const bar = el("div", { class: "actions", id: "actions", role: "toolbar", "aria-label": tr("page.table.your_actions") });
  const general = actions().filter((a) => !a.card);
  for (const a of general) {
    const cls = a.goes_out ? "btn go" : "btn primary";
    bar.append(el("button", { class: cls, type: "button", disabled: pending, dataset: { action: a.id, kind: a.kind },
      onclick: () => act(a) }, a.label, a.key ? el("kbd", {}, a.key) : null));
  }
  choices().forEach((a, n) => {
    const plain = a.kind === "discard";
    // a numbered choice that involves cards of the table shows them: "C1 C2 with C3"
    const label = a.numbered && a.cards.length ? [miniCards(a.cards), tr("page.table.with"), miniCards([a.card])] : a.label;
    bar.append(el("button", { class: a.kind === "call" ? "btn warn" : "btn primary", type: "button", disabled: pending,
      dataset: { action: a.id, kind: a.kind }, onclick: () => act(a), "aria-label": a.label, title: a.label },
    typeof label === "string" ? withRed(label) : label, n < 9 ? el("kbd", {}, String(n + 1)) : null,
    plain ? el("kbd", {}, "Enter") : null));
  });
  const discards = actions().some((a) => a.card && !a.numbered);
  if (discards && selected < 0) bar.append(el("span", { class: "small" }, tr("page.table.pick")));
  if (!actions().length && !st.over) bar.append(el("span", { class: "small" }, tr("page.table.waiting_others")));
  bar.append(el("span", { class: "spacer", style: "flex:1" }));
  const noHints = st.settings && st.settings.hints === false;
  bar.append(el("button", { class: "btn", type: "button", id: "hint-btn", onclick: askHint, disabled: !st.observation || noHints,
    title: noHints ? tr("page.table.hints_off") : null }, tr("page.table.hint"), el("kbd", {}, "h")));
  return bar;
}

function clickCard(index) {
  if (pending) return;
  const code = handCards()[index];
  const acts = cardActions(code);
  if (!acts.length) {
    if (actions().length) toast(tr("page.table.cannot_play", { card: code }));
    return;
  }
  const plain = acts.find((a) => a.kind === "discard");
  if (index === selected && plain) {
    act(plain);
    return;
  }
  selected = index;
  render();
}

function askHint() {
  send({ type: "hint" });
}

function renderHint() {
  const box = $("#hint-box");
  if (!box) return;
  if (!hint) {
    box.replaceChildren();
    return;
  }
  fill(box, el("div", { class: "hint", id: "hint" }, el("strong", {}, tr("page.table.hint")),
    hint.length ? hint.map((l) => el("p", {}, l)) : el("p", {}, tr("page.table.no_hint"))));
}

function renderLog() {
  const log = $("#log");
  fill(log, chatLog(st, st.ui.log.map((line) => el("li", { class: line.startsWith(`${tr("voice.you")} `) ? "you" : "" }, withRed(line)))));
  log.scrollTop = log.scrollHeight;
}

// -- the result ------------------------------------------------------------------------------
function openResult() {
  const ui = st.ui;
  if (!ui.result) return;
  const last = st.over && ui.result.hand === (ui.sheet ? ui.sheet.hands_played : ui.result.hand);
  $("#result-title").textContent = tr(last ? "page.table.result_last" : "page.table.result_title", { n: ui.result.hand });
  fill($("#result-content"), resultView(ui.result, ui.sheet),
    el("p", { class: "small muted" }, tr(st.over ? "page.table.replay_now" : "page.table.replay_later")));
  const replay = $("#result-replay");
  replay.href = `/replay/${st.table}`;
  replay.classList.toggle("hidden", !st.over);
  $("#result-close").textContent = tr(st.over ? "page.table.close" : "page.table.next_hand");
  $("#result-again").classList.toggle("hidden", !st.over || watching);
  const dialog = $("#result");
  offerReview(dialog, watching ? null : { table: st.table, token: key, hand: ui.result.hand, lang: language() });
  if (!dialog.open) dialog.showModal();
  $(".result-body", dialog).scrollTop = 0;
}

$("#result-close").addEventListener("click", () => {
  $("#result").close();
  if (mustPressNext()) nextHand();
});
$("#result-again").addEventListener("click", () => {
  $("#result").close();
  askAgain();
});

// -- between hands and matches ---------------------------------------------------------------
// whether the table waits for this person's "next hand"
function mustPressNext() {
  return Boolean(st && !watching && st.waiting && st.waiting.includes(st.seat));
}

function nextHand() {
  send({ type: "next" });
}

function askAgain() {
  send({ type: "again" });
}

function matchText() {
  return st.matches && st.matches.number > 0 ? tr("page.table.match_prefix", { n: st.matches.number + 1 }) : "";
}

function whoList(seats) {
  return seats.map((s) => (s === st.seat ? tr("voice.you.obj") : st.names[s])).join(", ");
}

// the last hand's log, kept on the page while no hand is in play (the result, the pause)
let lastLog = [];

// between hands and after the match: the seats (who is ready) and the last hand's log stay
function renderBetween() {
  if (st.ui.log.length) lastLog = st.ui.log;
  if (st.observation) return;
  if (!st.ui.log.length && lastLog.length) {
    fill($("#log"), chatLog(st, lastLog.map((line) => el("li", { class: line.startsWith(`${tr("voice.you")} `) ? "you" : "" }, withRed(line)))));
    $("#log").scrollTop = $("#log").scrollHeight;
  }
  if (st.ui.seats.length) return;
  const away = st.away || [];
  fill($("#seats"), st.names.map((name, i) => {
    const badges = [];
    if (st.over && (st.again || []).includes(i)) badges.push(el("span", { class: "badge" }, tr("page.table.wants_again")));
    if (st.waiting && st.people[i] && !away.includes(i)) {
      badges.push(st.waiting.includes(i) ? el("span", { class: "badge grey" }, tr("page.table.reading_result")) : el("span", { class: "badge" }, tr("page.table.ready")));
    }
    if (away.includes(i)) badges.push(el("span", { class: "badge grey" }, tr("page.table.away_badge")));
    return el("div", { class: "seat", dataset: { seat: i } },
      el("div", { class: "name" }, i === st.seat && !watching ? tr("page.table.name_you", { name }) : name, badges));
  }));
}

function renderLifecycle() {
  renderBetween();
  const m = st.matches;
  const show = Boolean(m && (m.number > 0 || st.over));
  $("#matches-panel").classList.toggle("hidden", !show);
  if (show) fill($("#matches"), matchesView(st, { watching, key }));
  if (watching || st.ui.hand) return;
  const you = $("#you");
  if (st.over) {
    const asked = st.again || [];
    const people = st.people.map((p, i) => (p ? i : -1)).filter((i) => i >= 0);
    const waitingFor = people.filter((i) => !asked.includes(i));
    const mine = asked.includes(st.seat);
    you.append(el("div", { class: "again", id: "again-box" },
      mine
        ? el("p", {}, tr("page.table.you_asked_again", { names: whoList(waitingFor) }))
        : el("button", { class: "btn go", type: "button", id: "again-btn", onclick: askAgain }, tr("page.table.play_again")),
      asked.length && !mine ? el("p", { class: "small muted" }, tr("page.table.asked_again", { names: whoList(asked) })) : null,
      el("p", { class: "small muted" }, tr("page.table.again_about"))));
  } else if (st.waiting) {
    const others = st.waiting.filter((s) => s !== st.seat);
    you.append(el("div", { class: "next", id: "next-box" },
      mustPressNext()
        ? el("button", { class: "btn go", type: "button", id: "next-btn", onclick: nextHand }, tr("page.table.next_hand"))
        : el("p", {}, tr("page.table.waiting_next", { names: whoList(others) }))));
  }
}

// -- keys ------------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (!st || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
  if ($("#result").open) return; // the dialog takes Escape and its buttons
  const k = event.key;
  const flat = handCards();
  if (k === "ArrowRight" || k === "ArrowLeft") {
    if (!flat.length) return;
    const step = k === "ArrowRight" ? 1 : -1;
    selected = selected < 0 ? (step > 0 ? 0 : flat.length - 1) : (selected + step + flat.length) % flat.length;
    render();
    const b = document.querySelector(`#hand .card-btn[data-index="${selected}"]`);
    if (b) b.focus();
    event.preventDefault();
    return;
  }
  if (k === "Enter") {
    const code = flat[selected];
    const plain = code && cardActions(code).find((a) => a.kind === "discard");
    if (plain) {
      act(plain);
      event.preventDefault();
    }
    return;
  }
  if (k === "Escape") {
    selected = -1;
    render();
    return;
  }
  if (/^[1-9]$/.test(k)) {
    const a = choices()[Number(k) - 1];
    if (a) act(a);
    return;
  }
  if (k === "h") {
    askHint();
    return;
  }
  if (k === "r") {
    openResult();
    return;
  }
  const a = actions().find((x) => x.key === k);
  if (a) act(a);
});

// -- settings --------------------------------------------------------------------------------
const labels = $("#index-labels");
labels.checked = indexLabels();
labels.addEventListener("change", () => {
  setIndexLabels(labels.checked);
  render();
});

$("#prefs-btn").addEventListener("click", () => {
  const open = $(".topbar").classList.toggle("open"); // on a phone: the settings under the bar
  $("#prefs-btn").setAttribute("aria-expanded", String(open));
});

$("#back-btn").addEventListener("click", () => send({ type: "back" }));

chatInit({ send, watching, seat: () => st && st.seat, changed: () => {
  if (!st) return;
  renderSeats();
  renderLog();
} });

// -- the first visit: a name -----------------------------------------------------------------
async function start() {
  await loadWords();
  motion.wireToggles($("#motion-toggle"), $("#sound-toggle")); // its tooltips need the words
  if (watching) {
    connect();
    return;
  }
  let info = null;
  try {
    info = await api(`/api/seat/${encodeURIComponent(key)}`);
  } catch (err) {
    if (err.status === 400 || err.status === 404) {
      fatal(tr("page.table.no_seat"));
      return;
    }
  }
  if (info && info.name) {
    connect();
    return;
  }
  $("#name-page").classList.remove("hidden");
  const input = $("#name");
  input.value = localStorage.getItem("cherki:name") || "";
  input.focus();
  $("#name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    try {
      await api("/api/seats", { json: { token: key, name } });
    } catch (err) {
      $("#name-error").textContent = err.message;
      return;
    }
    localStorage.setItem("cherki:name", name);
    $("#name-page").classList.add("hidden");
    connect();
  });
}

// -- the game's own words (tan, ceki, mata…), kept as the players say them, explained ----------
/** The terms the game's view lists (``ui.glossary``), explained once the first state came. */
function renderGlossary() {
  const keys = $("#keys");
  const terms = st && st.ui.glossary;
  if (!keys || !terms || !terms.length || $("#glossary", keys)) return;
  keys.append(el("details", { id: "glossary", class: "small" }, el("summary", {}, tr("page.glossary.title")),
    el("dl", {}, terms.flatMap((w) => [el("dt", { style: "font-weight:600" }, w.replace("_", " ")), el("dd", {}, tr(`glossary.${w}`))]))));
}

// for the browser's console and the end-to-end tests: what the page was last sent
window.cherki = { state: () => st, selected: () => selected, motion: motion.stats, settle: motion.finish };

start();
