// A game's rules page (issue 37): GET /api/rulebook/GAME?lang= in the reader's language:
// how it is played, the source sentences it rests on (quoted, with the reader's words
// beside), the scoring list, the presets side by side, the game's words and its sources.
import { $, el, fill, language, loadWords, t } from "/static/common.js";

function section(id, title, ...body) {
  return el("section", { id, class: "panel" }, el("h2", {}, title), ...body);
}

function quotes(data) {
  return data.quotes.map((q) => el("blockquote", { class: "source", lang: "en" },
    el("span", { class: "quote-mark" }, `${t("rulebook.quote")} ${q.source}`), el("br"),
    el("q", {}, q.text),
    q.says ? el("span", { class: "translation", lang: language() }, `${t("rulebook.translation")} ${q.says}`) : null));
}

// a table wider than a phone scrolls sideways: a named region the keyboard can reach and scroll
const wrap = (label) => ({ class: "table-wrap", tabindex: "0", role: "region", "aria-label": label });

function presets(data) {
  const head = el("tr", {}, el("th", {}, t("rulebook.option")),
    data.presets.map((p) => el("th", {}, p.title, el("div", { class: "source" }, el("cite", {}, p.sources)))),
    el("th", {}, t("rulebook.source")));
  const row = (r, differs) => el("tr", {}, el("td", {}, r.title),
    r.values.map((v) => el("td", { class: differs ? "differs" : "" }, v)), el("td", { class: "source" }, r.source));
  const parts = [el("p", { class: "muted" }, t("rulebook.presets_note")),
    el("div", wrap(t("rulebook.presets")), el("table", { class: "presets", id: "presets-table" },
      el("thead", {}, head), el("tbody", {}, data.differ.map((r) => row(r, true)))))];
  if (data.same.length) {
    parts.push(el("details", {}, el("summary", {}, t("rulebook.same")),
      el("div", wrap(t("rulebook.same")), el("table", { class: "presets" }, el("thead", {}, head.cloneNode(true)),
        el("tbody", {}, data.same.map((r) => row(r, false)))))));
  }
  return parts;
}

function render(data) {
  document.title = `Cherki — ${data.heading}`;
  $("#title").textContent = data.heading;
  const parts = [el("h1", {}, data.heading)];
  if (data.paragraphs.length) parts.push(section("about", t("rulebook.about"), data.paragraphs.map((p) => el("p", {}, p))));
  if (data.quotes.length) parts.push(section("quotes", t("rulebook.quotes"), quotes(data)));
  if (data.scoring.length) {
    parts.push(section("scoring", t("rulebook.scoring"), el("table", { class: "scoring-list" },
      el("tbody", {}, data.scoring.map((line) => el("tr", {}, el("td", {}, line.label), el("td", { class: "pays" }, line.points)))))));
  }
  if (data.presets.length > 1) parts.push(section("presets", t("rulebook.presets"), presets(data)));
  if (data.glossary.length) {
    parts.push(section("words", t("rulebook.words"), el("dl", { class: "glossary" },
      data.glossary.flatMap((g) => [el("dt", {}, g.term), el("dd", {}, g.text)]))));
  }
  if (data.sources.length) {
    parts.push(section("sources", t("rulebook.sources"), el("ul", { class: "sources" }, data.sources.map((s) =>
      el("li", {}, el("strong", {}, `[${s.id}] `), el("cite", { lang: "en" }, s.title),
        s.cites.length ? [` — ${t("rulebook.cites")} `, el("cite", { lang: "en" }, s.cites.join("; "))] : null)))));
  }
  parts.push(el("p", { class: "muted" }, t("rulebook.full", { command: "" }), el("code", {}, data.command)));
  parts.push(el("p", {}, el("a", { href: "/" }, t("rulebook.back"))));
  fill($("#rules"), ...parts);
}

async function main() {
  await loadWords();
  const game = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const response = await fetch(`/api/rulebook/${encodeURIComponent(game)}?lang=${language()}`);
  if (!response.ok) {
    const fatal = $("#fatal");
    fatal.textContent = (await response.json()).detail || response.statusText;
    fatal.classList.remove("hidden");
    return;
  }
  render(await response.json());
}

main();
