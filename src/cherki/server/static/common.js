// Helpers shared by the pages: building elements, cards, settings, the API.

/** An element: el("div", {class: "x", onclick: f}, child, "text", …). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Empty a node and put children in it. */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// -- settings kept in the browser ------------------------------------------------------
const INDEX_KEY = "cherki:index-labels";

/** Whether cards show their index label (C7) in the corner: on unless turned off. */
export function indexLabels() {
  return localStorage.getItem(INDEX_KEY) !== "off";
}

export function setIndexLabels(on) {
  localStorage.setItem(INDEX_KEY, on ? "on" : "off");
}

/** A card's name for people and screen readers, in the reader's language (cardname.*). */
export function cardName(code) {
  if (!code) return t("page.card.hidden");
  if (["WF", "RF", "OT", "S9"].includes(code)) return t(`cardname.${code}`);
  return t("cardname.of", { rank: code.slice(1), suit: t(`cardname.suit.${code[0]}`) });
}

/** A card drawn as the project's SVG (code null: the back). */
export function card(code, { mini = false } = {}) {
  const name = code || "back";
  const index = indexLabels() ? 1 : 0;
  return el("img", {
    class: mini ? "card mini" : "card",
    src: `/cards/${name}.svg?index=${index}`,
    alt: code || t("page.card.hidden"),
    title: cardName(code),
    draggable: "false",
    dataset: { code: name },
  });
}

/** A line of text with the red-stamped cards' codes (S9, RF, OT) in red. */
export function withRed(text) {
  return text.split(/\b(S9|RF|OT)\b/).map((part, i) => (i % 2 ? el("span", { class: "red" }, part) : part));
}

/** A row of small cards. */
export function miniCards(codes) {
  return el("span", { class: "cards" }, codes.map((c) => card(c, { mini: true })));
}

// -- the API -----------------------------------------------------------------------------
/** JSON from the server, or an Error carrying its one-line ``detail``. */
export async function api(path, options = {}) {
  const init = { ...options, headers: { ...(options.headers || {}) } };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.body = JSON.stringify(options.json);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    const error = new Error(detail || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

let toastTimer = null;

/** A short message at the bottom of the screen. */
export function toast(text) {
  let node = $("#toast");
  if (!node) {
    node = el("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" });
    document.body.append(node);
  }
  node.textContent = text;
  node.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.classList.add("hidden"), 4000);
}

/** Copy text to the clipboard (falling back to selecting it). */
export async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    if (button) {
      const old = button.textContent;
      button.textContent = t("page.copied");
      setTimeout(() => (button.textContent = old), 1500);
    }
  } catch {
    window.prompt(t("page.copy_link"), text);
  }
}

/** The result of a hand and the score sheet, as DOM (the table and the replay use it). */
export function resultView(result, sheet) {
  const parts = [];
  if (result) {
    parts.push(el("p", { class: "summary" }, result.summary));
    if (result.sets && result.sets.length) {
      parts.push(el("h3", {}, t("page.result.winning_hand")));
      parts.push(el("div", { class: "winning" }, result.sets.map((s) => el("span", { class: "set" }, s.map((c) => card(c, { mini: true }))))));
    }
    if (result.turned && result.turned.length) {
      parts.push(el("p", {}, `${t("page.result.turned")} `, miniCards(result.turned)));
    }
    if (result.items && result.items.length) {
      parts.push(el("h3", {}, t("page.result.score")));
      parts.push(el("table", { class: "score-items" },
        el("thead", {}, el("tr", {}, el("th", {}, t("page.result.item")), el("th", { class: "num" }, t("page.result.points")))),
        el("tbody", {},
          result.items.map((i) => el("tr", {}, el("td", {}, i.label), el("td", { class: "num" }, i.points))),
          el("tr", { class: "total" }, el("td", {}, t("page.result.total")), el("td", { class: "num" }, String(result.total))))));
    }
    if (result.payments && result.payments.length) {
      parts.push(el("h3", {}, t("page.result.payments")));
      const money = result.payments.some((p) => p.money); // none changed hands: no column
      parts.push(el("table", { class: "payments" },
        el("thead", {}, el("tr", {}, el("th", {}, t("page.result.seat")), el("th", { class: "num" }, result.points_heading || t("page.result.points")), money ? el("th", { class: "num" }, t("page.result.money")) : null)),
        el("tbody", {}, result.payments.map((p) =>
          el("tr", {}, el("td", {}, p.name), el("td", { class: "num" }, p.points), money ? el("td", { class: "num" }, p.money) : null)))));
    }
    for (const note of result.notes || []) parts.push(el("p", { class: "summary" }, note));
    if (result.final_hands && result.final_hands.length) {
      parts.push(el("h3", {}, t("page.result.final_hands")));
      parts.push(el("div", { class: "final-hands" }, result.final_hands.map((h) =>
        el("div", { class: "final-hand", dataset: { seat: h.seat } }, el("strong", {}, h.name), miniCards(h.cards)))));
    }
  }
  if (sheet && sheet.rows.length) {
    parts.push(el("h3", {}, sheet.match_length ? t("page.sheet.title_of", { n: sheet.hands_played, of: sheet.match_length }) : t("page.sheet.title")));
    const head = el("tr", {}, el("th", {}, t("page.sheet.hand")), sheet.names.map((n) => el("th", { class: "num" }, n)), el("th", {}, t("page.sheet.how")),
      sheet.has_pot ? el("th", { class: "num" }, t("page.sheet.pot")) : null);
    const rows = sheet.rows.map((r) => el("tr", {}, el("td", {}, String(r.hand)), r.totals.map((t) => el("td", { class: "num" }, t)),
      el("td", {}, r.how), sheet.has_pot ? el("td", { class: "num" }, r.pot) : null));
    if (sheet.scored) rows.push(el("tr", {}, el("td", {}, t("page.sheet.scored")), sheet.scored.map((t) => el("td", { class: "num" }, t)), el("td", {}), sheet.has_pot ? el("td", {}) : null));
    rows.push(el("tr", { class: "total" }, el("td", {}, t("page.result.money")), sheet.money.map((t) => el("td", { class: "num" }, t)), el("td", {}), sheet.has_pot ? el("td", {}) : null));
    parts.push(el("div", { class: "sheet-wrap" }, el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows))));
    for (const line of sheet.lines) parts.push(el("p", {}, line));
  }
  return parts;
}

// -- languages -----------------------------------------------------------------------------
// The pages' words come from the server's catalogues (/api/words/LANG: the same ones that
// word the log, the status line and the results), one per language; a person's choice is
// kept in this browser. See docs/web.md, "Translating".
export const LANGUAGES = { en: "English", ms: "Bahasa Melayu", id: "Bahasa Indonesia" };
const LANG_KEY = "cherki:lang";
let words = {};

/** A language code cherki speaks for a browser's language tag (ms-MY → ms, in → id), or null. */
export function languageOf(tag) {
  let code = String(tag || "").toLowerCase().replace("_", "-").split("-")[0];
  if (code === "in") code = "id";
  if (code === "zsm") code = "ms";
  return code in LANGUAGES ? code : null;
}

/** The person's language: the one chosen in this browser, else the browser's own, else English. */
export function language() {
  const kept = languageOf(localStorage.getItem(LANG_KEY));
  if (kept) return kept;
  for (const tag of navigator.languages || [navigator.language]) {
    const code = languageOf(tag);
    if (code) return code;
  }
  return "en";
}

/** A text of the catalogue with its {placeholders} filled in (a missing key shows as itself). */
export function t(key, params = {}) {
  const text = Object.prototype.hasOwnProperty.call(words, key) ? words[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** "1 card", "3 cards": KEY.one for one, else KEY.other ({n} is the count). */
export function tn(key, n, params = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...params, n });
}

/** The page's fixed words: [data-t] elements' text, and [data-t-title], [data-t-aria-label],
 * [data-t-placeholder] attributes. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const attr of ["title", "aria-label", "placeholder"]) {
    for (const node of root.querySelectorAll(`[data-t-${attr}]`)) node.setAttribute(attr, t(node.getAttribute(`data-t-${attr}`)));
  }
}

/** The language picker (English / Bahasa Melayu / Bahasa Indonesia): a choice is kept in
 * this browser and the page is shown again in it. */
export function languagePicker() {
  const current = language();
  const narrow = window.matchMedia("(max-width: 480px)").matches; // a phone: EN, MS, ID
  const select = el("select", { id: "lang", class: "lang", "aria-label": t("page.lang.label"), title: t("page.lang.label"),
    style: "font-size:0.85rem;padding:0.1rem 0.2rem" },
    Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, lang: code, selected: code === current, title: name },
      narrow ? code.toUpperCase() : name)));
  select.addEventListener("change", () => {
    localStorage.setItem(LANG_KEY, select.value);
    location.reload();
  });
  return select;
}

/** Load the person's language's words, mark the page's language, word its fixed text and
 * put the picker in its top bar. Every page awaits this before drawing. */
export async function loadWords() {
  const code = language();
  try {
    const response = await fetch(`/api/words/${code}`);
    words = response.ok ? await response.json() : {};
  } catch {
    words = {};
  }
  document.documentElement.lang = code;
  translatePage();
  // in the page's settings where it has them (the table: behind ⚙ on a phone), else the top bar
  const bar = $("#prefs") || $(".topbar");
  if (bar && !$("#lang")) bar.append(languagePicker());
  return code;
}
