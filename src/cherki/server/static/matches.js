// "Score across matches": one row a seat (up to 20 fit a 360 px phone), its running total
// first, then each match's totals; money as the result shows it ("-$1.50", "+50¢"). Many
// matches scroll sideways inside the panel, never the page.
import { el, t as tr } from "/static/common.js";

/** Money with its sign, as the server's results write it (cherki.i18n.voice.money_text). */
export function moneyText(cents) {
  const a = Math.abs(cents);
  const sign = cents < 0 ? "-" : "+";
  return sign + (a >= 100 ? `$${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}` : `${a}¢`);
}

export function matchesView(st, { watching, key }) {
  const m = st.matches;
  const sheet = st.match || {};
  const cols = (m.earlier || []).map((e, i) => ({ label: tr("page.table.match_n", { n: i + 1 }), totals: e.totals, money: e.money_cents, replay: i }));
  cols.push({ label: st.over ? tr("page.table.match_n", { n: m.number + 1 }) : tr("page.table.match_in_play", { n: m.number + 1 }), totals: sheet.totals || [], money: sheet.money_cents || [] });
  const running = { totals: m.totals, money: m.money_cents };
  const hasMoney = [...cols, running].some((r) => (r.money || []).some((c) => c));
  const cell = (r, i, cls) => el("td", { class: `num ${cls}` }, String(r.totals[i] ?? ""),
    hasMoney ? el("div", { class: "small money" }, moneyText((r.money || [])[i] || 0)) : null);
  const head = (c) => el("th", { class: "num", scope: "col" }, c.label,
    c.replay !== undefined ? el("div", { class: "small" },
      el("a", { href: `/replay/${st.table}?match=${c.replay}` }, tr("page.table.replay_link")), " ",
      el("a", { download: "", href: `/api/tables/${st.table}/record?match=${c.replay}` + (watching ? "" : `&token=${encodeURIComponent(key)}`) }, tr("page.table.record_link"))) : null);
  return el("div", { class: "sheet-wrap matches-wrap", tabindex: "0", role: "region", "aria-label": tr("page.table.matches") },
    el("table", { class: "sheet matches", id: "matches-sheet" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, tr("page.result.seat")),
        el("th", { class: "num running", scope: "col", id: "running-total" }, tr("page.table.running_total")), cols.map(head))),
      el("tbody", {}, st.names.map((name, i) => el("tr", { class: i === st.seat && !watching ? "you" : "" },
        el("th", { scope: "row", class: "who" }, name), cell(running, i, "running"), cols.map((c) => cell(c, i, "match")))))));
}
