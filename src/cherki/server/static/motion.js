// What happens at the table, made visible: short animations of draws, takes, discards,
// claims, captures and reveals; each seat's last action in words; optional sounds.
//
// Everything here is worked out from what the page already receives: the hand's events as
// this seat saw them (`state.events`, hidden cards already removed by the server) and the
// table's public side (`state.ui`). Nothing is asked of the server.
//
// table.js calls `before(st)` just before it draws a new state (this measures where things
// stand on the page) and `after(before, st)` once it has drawn it (this plays what is new).
// Animations last about 300 ms, are finished at once by a click, a tap, a key or the next
// state, and are off under `prefers-reduced-motion: reduce` or when the page's toggle is off.
// Sounds are synthesized with the Web Audio API and are off unless the person turns them on.
import { card, el, t as tr } from "/static/common.js";

const MOTION_KEY = "cherki:motion";
const SOUND_KEY = "cherki:sounds";
const FLIGHT_MS = 320;
const POP_MS = 400;
const STAGGER_MS = 260;
const MAX_ANIMATED = 4; // a burst of events (a reconnect, a fast bot) animates only its last few

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

// -- settings ------------------------------------------------------------------------------
/** Whether the system asks for reduced motion. */
export function reducedMotion() {
  return Boolean(reduced && reduced.matches);
}

/** Whether the person wants animations (the page's toggle; on unless turned off). */
export function motionWanted() {
  return localStorage.getItem(MOTION_KEY) !== "off";
}

export function setMotionWanted(on) {
  localStorage.setItem(MOTION_KEY, on ? "on" : "off");
  if (!on) finish();
}

/** Whether animations play: wanted, and the system does not ask for reduced motion. */
export function motionOn() {
  return motionWanted() && !reducedMotion();
}

/** Whether sounds play: off unless the person turned them on. */
export function soundsOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function setSoundsOn(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  if (on) {
    audio(); // made (or resumed) inside the click that turned sounds on, as browsers ask
    play("turn");
  }
}

/** Wire the page's two checkboxes (animations, sounds) to the settings. */
export function wireToggles(motionBox, soundBox) {
  const sync = () => {
    motionBox.checked = motionOn();
    motionBox.disabled = reducedMotion();
    motionBox.parentElement.title = tr(reducedMotion() ? "page.motion.reduced" : "page.motion.about");
  };
  sync();
  if (reduced && reduced.addEventListener) reduced.addEventListener("change", sync);
  motionBox.addEventListener("change", () => setMotionWanted(motionBox.checked));
  soundBox.checked = soundsOn();
  soundBox.addEventListener("change", () => setSoundsOn(soundBox.checked));
}

// -- each seat's last action ---------------------------------------------------------------
/** A seat's action in a few words, from one event as this seat saw it (null: not an action). */
export function actionWords(e) {
  const c = e.card || null;
  const cards = (e.cards || []).join(" ");
  switch (e.kind) {
    case "draw": return c ? tr("motion.drew", { card: c }) : tr("motion.drew_card");
    case "reveal": return tr("motion.revealed", { card: c });
    case "take": return tr("motion.took", { card: c });
    case "discard": return tr("motion.discarded", { card: c });
    case "call": return tr(e.changed ? "motion.changed_call" : "motion.called", { call: e.call });
    case "expose": return tr("motion.laid", { cards });
    case "pass": return c ? tr("motion.passed_on", { card: c }) : tr("motion.passed");
    case "sampei": return c ? `sampei! (${c})` : "sampei!";
    case "win": return tr("motion.won", { card: c });
    case "turn": return e.seat >= 0 ? tr("motion.turned", { card: c }) : null;
    case "keep": return e.seat >= 0 ? tr("motion.left", { card: c }) : null;
    case "capture": return tr("motion.captured", { cards, card: c });
    case "bonus": return tr("motion.bonus", { how: e.how, card: c });
    case "sweep": return tr("motion.swept");
    default: return null;
  }
}

/** Each seat's last action this hand in words (null where it has done nothing yet). */
export function lastActions(events, players, callNames) {
  const out = new Array(players).fill(null);
  for (const e of events || []) {
    if (typeof e.seat !== "number" || e.seat < 0 || e.seat >= players) continue;
    const shown = e.kind === "call" && callNames ? { ...e, call: e.call === "tan" ? callNames[0] : callNames[1] || e.call } : e;
    const words = actionWords(shown);
    if (words) out[e.seat] = { kind: e.kind, text: words };
  }
  return out;
}

// -- measuring the page --------------------------------------------------------------------
const rectOf = (node) => (node ? node.getBoundingClientRect() : null);
const visible = (r) => r && r.width > 0 && r.height > 0;

function seatNode(seat) {
  return document.querySelector(`#seats .seat[data-seat="${seat}"]`);
}

/** Where the stock, the discards, the pool, the seats and the hand's cards are now. */
export function before(st) {
  finish();
  const out = { stock: rectOf(document.querySelector("#stock")), top: null, pool: {}, active: null, hand: {}, seats: {} };
  const top = document.querySelector("#pile .card-btn.top");
  out.top = rectOf(top);
  document.querySelectorAll("[data-zone-kind=\"cards\"] img.card").forEach((n) => {
    (out.pool[n.dataset.code] ||= []).push(rectOf(n));
  });
  out.active = rectOf(document.querySelector("[data-zone-kind=\"card\"] img.card"));
  document.querySelectorAll("#hand .card-btn").forEach((n) => {
    (out.hand[n.dataset.code] ||= []).push(rectOf(n));
  });
  document.querySelectorAll("#seats .seat").forEach((n) => {
    out.seats[n.dataset.seat] = rectOf(n);
  });
  out.version = st ? st.version : null;
  return out;
}

// -- playing what is new -------------------------------------------------------------------
let layer = null;
let running = [];
let hiddenNodes = [];
let queued = [];
export const stats = { animated: 0, played: [] }; // for the console and the tests

function overlay() {
  if (!layer || !layer.isConnected) {
    layer = el("div", { class: "motion-layer", "aria-hidden": "true" });
    document.body.append(layer);
  }
  return layer;
}

/** Finish every animation at once (a click, a key, the next state). */
export function finish() {
  for (const t of queued) clearTimeout(t);
  queued = [];
  for (const a of running) {
    try {
      a.finish();
    } catch {
      /* already gone */
    }
  }
  running = [];
  for (const n of hiddenNodes) n.classList.remove("motion-hidden");
  hiddenNodes = [];
  if (layer) layer.replaceChildren();
}

function track(animation, cleanup) {
  running.push(animation);
  stats.animated += 1;
  animation.addEventListener("finish", () => {
    running = running.filter((a) => a !== animation);
    cleanup();
  });
  return animation;
}

function hideUntilLanded(node) {
  if (!node) return;
  node.classList.add("motion-hidden");
  hiddenNodes.push(node);
}

/** A card (or its back) flying from one place of the page to another. */
function fly(code, from, to, { delay = 0, land = null } = {}) {
  if (!visible(from) || !visible(to)) return;
  hideUntilLanded(land);
  const ghost = el("div", { class: "motion-card" }, card(code));
  const w = to.width;
  Object.assign(ghost.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${w}px` });
  ghost.firstChild.style.width = `${w}px`;
  ghost.firstChild.style.height = `${to.height}px`;
  overlay().append(ghost);
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.35, Math.min(1.6, from.height / to.height));
  const anim = ghost.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.85 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ],
    { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  track(anim, () => {
    ghost.remove();
    if (land) {
      land.classList.remove("motion-hidden");
      hiddenNodes = hiddenNodes.filter((n) => n !== land);
    }
  });
}

/** A word over a seat ("Sampei!", "tan!") that grows and fades, and the seat lit up. */
function pop(seat, text, { delay = 0, big = false } = {}) {
  const node = seatNode(seat);
  const r = rectOf(node);
  if (!visible(r)) return;
  const bubble = el("div", { class: `motion-pop${big ? " big" : ""}` }, text);
  Object.assign(bubble.style, { left: `${r.left + r.width / 2}px`, top: `${r.top + r.height / 2}px` });
  overlay().append(bubble);
  const anim = bubble.animate(
    [
      { transform: "translate(-50%, -50%) scale(0.6)", opacity: 0 },
      { transform: "translate(-50%, -50%) scale(1.1)", opacity: 1, offset: 0.35 },
      { transform: "translate(-50%, -60%) scale(1)", opacity: 0 },
    ],
    { duration: big ? POP_MS * 2 : POP_MS, delay, easing: "ease-out", fill: "both" },
  );
  track(anim, () => bubble.remove());
  pulse(node, delay);
}

function pulse(node, delay = 0) {
  if (!node) return;
  const anim = node.animate(
    [{ boxShadow: "0 0 0 0 rgb(230 180 34 / 90%)" }, { boxShadow: "0 0 0 10px rgb(230 180 34 / 0%)" }],
    { duration: FLIGHT_MS, delay, easing: "ease-out" },
  );
  track(anim, () => {});
}

function callName(st, call) {
  const names = st.ui && st.ui.call_names;
  if (!names || !names.length) return call;
  return call === "tan" ? names[0] : names[1] || call;
}

function isMe(st, seat) {
  return !st.watching && st.seat === seat;
}

/** The new card of my hand (the one marked new, or the last of that code). */
function handCard(code) {
  const marked = document.querySelector(`#hand .card-btn.new[data-code="${code}"]`);
  if (marked) return marked;
  const all = document.querySelectorAll(`#hand .card-btn[data-code="${code}"]`);
  return all.length ? all[all.length - 1] : null;
}

/** The events that are new since the state drawn before (none after a new hand or a reconnect). */
function newEvents(prev, st) {
  if (!prev || prev.hand_number !== st.hand_number) return [];
  const old = (prev.events || []).length;
  const now = st.events || [];
  return now.length > old ? now.slice(old) : [];
}

/** Play what happened between the state drawn before (`prev`, measured as `was`) and `st`. */
export function after(was, prev, st, { watching = false } = {}) {
  const events = newEvents(prev, st);
  sounds(prev, st, events, watching);
  if (!motionOn() || !was || !events.length) return;
  const ctx = { ...st, watching };
  const shown = events.slice(-MAX_ANIMATED);
  let step = 0;
  for (const e of shown) {
    if (animate(e, was, ctx, step * STAGGER_MS)) step += 1;
  }
}

function animate(e, was, st, delay) {
  const seat = e.seat;
  const seatRect = rectOf(seatNode(seat));
  const mine = isMe(st, seat);
  const stock = rectOf(document.querySelector("#stock")) || was.stock;
  switch (e.kind) {
    case "draw":
    case "reveal": {
      const land = mine && e.card ? handCard(e.card) : null;
      fly(e.kind === "reveal" || land ? e.card : null, stock, land ? rectOf(land) : seatRect, { delay, land });
      return true;
    }
    case "take": {
      const land = mine ? handCard(e.card) : null;
      fly(e.card, was.top, land ? rectOf(land) : seatRect, { delay, land });
      return true;
    }
    case "discard": {
      const top = document.querySelector("#pile .card-btn.top") || document.querySelector("[data-zone-kind=\"card\"] img.card");
      const from = mine && was.hand[e.card] ? was.hand[e.card][was.hand[e.card].length - 1] : seatRect;
      fly(e.card, from, rectOf(top), { delay, land: top });
      return true;
    }
    case "turn": {
      const to = document.querySelector("[data-zone-kind=\"card\"] img.card") || document.querySelector(`[data-zone-kind="cards"] img.card[data-code="${e.card}"]`);
      fly(e.card, stock, rectOf(to), { delay, land: to });
      return true;
    }
    case "capture": {
      const froms = (e.cards || []).map((c) => (was.pool[c] && was.pool[c].shift()) || null);
      froms.push(was.active || (mine && was.hand[e.card] ? was.hand[e.card][0] : null));
      [...(e.cards || []), e.card].forEach((c, i) => fly(c, froms[i], seatRect, { delay: delay + i * 60 }));
      pulse(seatNode(seat), delay);
      return true;
    }
    case "sweep":
      (e.cards || []).slice(0, 6).forEach((c, i) => {
        const from = was.pool[c] && was.pool[c].shift();
        fly(c, from, seatRect, { delay: delay + i * 40 });
      });
      return true;
    case "call":
      pop(seat, `${callName(st, e.call)}!`, { delay });
      return true;
    case "sampei":
    case "win":
    case "expose": {
      // what the player says aloud, as the game's view declares it (Sampei!, Ceki!, olo!)
      const said = st.ui && st.ui.shouts ? st.ui.shouts[e.kind] : null;
      if (!said) return false;
      pop(seat, said, { delay, big: e.kind !== "expose" });
      return true;
    }
    case "pass":
      pop(seat, tr("motion.pass"), { delay });
      return true;
    case "bonus":
      pop(seat, `${e.how}!`, { delay, big: true });
      return true;
    default:
      return false;
  }
}

// a click, a tap or a key finishes what is moving at once
document.addEventListener("pointerdown", () => running.length && finish(), true);
document.addEventListener("keydown", () => running.length && finish(), true);

// -- sounds --------------------------------------------------------------------------------
let audioCtx = null;

function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audioCtx) audioCtx = new Ctx();
  if (audioCtx.state === "suspended") audioCtx.resume().catch(() => {});
  return audioCtx;
}

/** One short synthesized tone: frequency, start offset and length in seconds. */
function tone(a, freq, at, length, { type = "sine", gain = 0.12 } = {}) {
  const osc = a.createOscillator();
  const amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, a.currentTime + at);
  amp.gain.setValueAtTime(0.0001, a.currentTime + at);
  amp.gain.exponentialRampToValueAtTime(gain, a.currentTime + at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + length);
  osc.connect(amp).connect(a.destination);
  osc.start(a.currentTime + at);
  osc.stop(a.currentTime + at + length + 0.02);
}

const SOUNDS = {
  turn: (a) => {
    tone(a, 659, 0, 0.14);
    tone(a, 880, 0.12, 0.2);
  },
  discard: (a) => {
    tone(a, 180, 0, 0.07, { type: "triangle", gain: 0.2 });
    tone(a, 90, 0, 0.09, { type: "sine", gain: 0.15 });
  },
  win: (a) => [523, 659, 784, 1047].forEach((f, i) => tone(a, f, i * 0.09, 0.25, { type: "triangle", gain: 0.1 })),
};

/** Play a sound by name, if sounds are on. */
export function play(name) {
  if (!soundsOn()) return;
  const a = audio();
  if (!a || !SOUNDS[name]) return;
  try {
    SOUNDS[name](a);
    stats.played.push(name);
    if (stats.played.length > 50) stats.played.shift();
  } catch {
    /* no audio here: stay silent */
  }
}

function sounds(prev, st, events, watching) {
  if (!soundsOn() || !prev) return;
  const ended = st.hand_number > prev.hand_number || (st.over && !prev.over);
  const won = ended && st.ui.result && st.ui.result.winner !== null && st.ui.result.winner !== undefined;
  if (won || events.some((e) => e.kind === "sampei" || e.kind === "win")) {
    play("win");
    return;
  }
  const obs = st.observation;
  const yours = !watching && obs && obs.current === st.seat && !st.over;
  const wasYours = prev && !watching && prev.observation && prev.observation.current === prev.seat && !prev.over;
  if (events.some((e) => e.kind === "discard")) play("discard");
  if (yours && !wasYours) setTimeout(() => play("turn"), 120);
}
