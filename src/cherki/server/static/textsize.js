// A text-size setting for every page (issue 39): normal, large, larger; kept in this browser
// (localStorage "cherki:text-size") and applied before the page draws. The page's sizes are
// in rem, so everything written grows with it; the cards grow too.
import { $, el, loadWords, t as tr } from "/static/common.js";

const KEY = "cherki:text-size";
export const SIZES = { normal: 100, large: 118, larger: 136 };

export function textSize() {
  const kept = localStorage.getItem(KEY);
  return kept && kept in SIZES ? kept : "normal";
}

function apply(size) {
  document.documentElement.style.fontSize = `${SIZES[size]}%`;
  document.documentElement.dataset.textSize = size;
}

apply(textSize());

export function textSizePicker() {
  const select = el("select", { id: "text-size", "aria-label": tr("textsize.label"), title: tr("textsize.label") },
    Object.keys(SIZES).map((s) => el("option", { value: s }, tr(`textsize.${s}`))));
  select.value = textSize();
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    apply(select.value);
  });
  return el("label", { class: "text-size" }, el("span", { "aria-hidden": "true" }, "A", el("span", { class: "big-a" }, "A")), select);
}

await loadWords();
const bar = $("#prefs") || $(".topbar");
if (bar && !$("#text-size")) bar.append(textSizePicker());
