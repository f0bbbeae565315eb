// The table's chat: lines and quick reactions (emotes) from the people's seats, shown among
// the game's log, each line placed where in the game it was said. Every line is drawn as
// text, never as HTML. A person may mute another seat: kept in this browser, per table.
// The page names the last line it holds when it connects (?chat=N): the server sends the
// lines after it, so a page that reconnects neither loses nor repeats a line.
import { $, el, fill, t as tr } from "/static/common.js";
import { emoteIcon } from "/static/emoji.js";

/** The quick reactions (the server accepts these and no others). */
export const EMOTES = ["👍", "😄", "😮", "😢", "🎉", "🙏"];
const MOST = 500; // lines kept by the page
const BUBBLE_MS = 4000; // how long an emote shows on its seat

let lines = []; // the chat lines held, by number
let open = false; // whether this page is shown the chat (a spectator: when the host allows)
let opts = null; // { send, watching, changed, state }
const bubbles = new Map(); // seat -> { text, until }

// -- muting (this browser, per table) -------------------------------------------------------
const muteKey = (table) => `cherki:mute:${table}`;

/** The seats this person has muted at ``table``. */
export function muted(table) {
  try {
    const seats = JSON.parse(localStorage.getItem(muteKey(table)) || "[]");
    return new Set(Array.isArray(seats) ? seats.filter((s) => Number.isInteger(s)) : []);
  } catch {
    return new Set();
  }
}

function setMuted(table, seat, on) {
  const seats = muted(table);
  if (on) seats.add(seat);
  else seats.delete(seat);
  localStorage.setItem(muteKey(table), JSON.stringify([...seats].sort((a, b) => a - b)));
}

// -- the connection's side ------------------------------------------------------------------
/** The last line this page holds (0: none), named when it connects. */
export function chatParam() {
  return String(lines.length ? lines[lines.length - 1].n : 0);
}

/** A ``chat`` message from the server: new lines, or the ones this page missed. */
export function chatReceive(msg) {
  open = Boolean(msg.open);
  if (!open) {
    lines = [];
  } else {
    const held = new Set(lines.map((l) => l.n));
    const fresh = (msg.lines || []).filter((l) => !held.has(l.n));
    if (fresh.length) {
      lines = lines.concat(fresh).sort((a, b) => a.n - b.n).slice(-MOST);
    }
    if (!msg.history) {
      // my own line is back from the server: the box it was typed in is emptied (a refused
      // line stays there, the error shown)
      const input = $("#chat-input");
      const me = opts && !opts.watching ? opts.seat() : null;
      if (input && fresh.some((l) => l.seat === me && l.kind === "text" && l.text === input.value.trim())) input.value = "";
      for (const l of fresh) {
        if (l.kind === "emote") bubbles.set(l.seat, { text: l.text, until: Date.now() + BUBBLE_MS });
      }
      if (fresh.some((l) => l.kind === "emote")) setTimeout(() => opts && opts.changed(), BUBBLE_MS + 50);
    }
  }
  drawForm();
  if (opts) opts.changed();
}

// -- drawing -----------------------------------------------------------------------------
function chatItem(st, line, mine) {
  const name = (st.names && st.names[line.seat]) || `Seat ${line.seat}`;
  const emote = line.kind === "emote";
  const when = line.time ? new Date(line.time) : null;
  const title = when && !Number.isNaN(when.getTime()) ? when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : null;
  return el("li", { class: `chat${emote ? " emote" : ""}${mine ? " mine" : ""}`, dataset: { n: line.n, seat: line.seat }, title },
    el("span", { class: "chat-who" }, mine ? tr("page.table.name_you", { name }) : name), emote ? ` ${tr("page.chat.reacts")} ` : ": ",
    emote ? el("span", { class: "chat-emote" }, emoteIcon(line.text)) : el("span", { class: "chat-words" }, line.text));
}

/** The game's log entries (``items``, one per entry of ``st.ui.log``) with the chat's
 * lines among them: each after the log entries there were when it was said; lines of
 * earlier hands first. Lines of muted seats are left out. */
export function chatLog(st, items) {
  if (!open || !lines.length || !st) return items;
  const hidden = muted(st.table);
  const me = opts && !opts.watching ? st.seat : null;
  const shown = lines.filter((l) => !hidden.has(l.seat));
  // the match and hand a line was said in, against the one on the table now
  const match = st.matches ? st.matches.number : 0;
  const order = (l) => ((l.match || 0) - match) || (l.hand - st.hand_number);
  const earlier = shown.filter((l) => order(l) < 0);
  const now = shown.filter((l) => order(l) === 0);
  const later = shown.filter((l) => order(l) > 0);
  const item = (l) => chatItem(st, l, l.seat === me);
  const out = earlier.map(item);
  if (earlier.length && items.length) out.push(el("li", { class: "chat-sep" }, tr("page.hand_n", { n: st.hand_number + 1 })));
  let next = 0;
  items.forEach((entry, i) => {
    while (next < now.length && now[next].at <= i) out.push(item(now[next++]));
    out.push(entry);
  });
  return out.concat(now.slice(next).map(item), later.map(item));
}

/** The seats' boxes: an emote shown for a moment on the seat that sent it, and a button to
 * mute (or unmute) each other person's chat. */
export function chatSeats(st) {
  if (!st || !open) return;
  const hidden = muted(st.table);
  const now = Date.now();
  for (const box of document.querySelectorAll("#seats .seat")) {
    const seat = Number(box.dataset.seat);
    const bubble = bubbles.get(seat);
    if (bubble && bubble.until > now && !hidden.has(seat)) {
      const name = st.names[seat] || `Seat ${seat}`;
      // it pops up when it arrives, not again each time the seats are drawn
      box.append(el("span", { class: `emote-bubble${bubble.popped ? "" : " pop"}`, role: "img", "aria-label": `${name} ${tr("page.chat.reacts")} ${bubble.text}` }, emoteIcon(bubble.text)));
      bubble.popped = true;
    } else if (bubble && bubble.until <= now) bubbles.delete(seat);
    const mine = !opts.watching && seat === st.seat;
    if (mine || !(st.people || [])[seat]) continue;
    const on = hidden.has(seat);
    const name = st.names[seat] || `Seat ${seat}`;
    box.append(el("button", {
      class: `btn small mute${on ? " on" : ""}`, type: "button", "aria-pressed": on ? "true" : "false",
      title: tr(on ? "page.chat.unmute_title" : "page.chat.mute_title", { name }),
      onclick: () => {
        setMuted(st.table, seat, !on);
        opts.changed();
      },
    }, on ? `🔇 ${tr("page.chat.muted")}` : tr("page.chat.mute")));
  }
}

function drawForm() {
  const box = $("#chat");
  if (!box || !opts) return;
  box.classList.toggle("hidden", !open);
  if (!open) return;
  if (opts.watching) {
    if (!$(".chat-note", box)) fill(box, el("p", { class: "chat-note small muted" }, tr("page.chat.watching")));
    return;
  }
  if ($("#chat-form", box)) return;
  const input = el("input", { id: "chat-input", type: "text", maxlength: 200, autocomplete: "off", enterkeyhint: "send",
    placeholder: tr("page.chat.placeholder"), "aria-label": tr("page.chat.message") });
  const form = el("form", { id: "chat-form", class: "chat-form" }, input, el("button", { class: "btn small", type: "submit" }, tr("page.chat.send")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    opts.send({ type: "chat", text }); // emptied when the line comes back
  });
  const emotes = el("div", { class: "emotes", role: "group", "aria-label": tr("page.chat.reactions") },
    EMOTES.map((e) => el("button", { class: "btn small emote-btn", type: "button", title: tr("page.chat.react", { emote: e }), "aria-label": tr("page.chat.react", { emote: e }),
      dataset: { emote: e }, onclick: () => opts.send({ type: "emote", emote: e }) }, emoteIcon(e))));
  fill(box, form, emotes);
}

/** Start the chat: ``send`` a message, ``watching`` a spectator's page, ``seat()`` this
 * page's seat, ``changed`` redraws the log and the seats. */
export function chatInit(options) {
  opts = options;
  drawForm();
}
