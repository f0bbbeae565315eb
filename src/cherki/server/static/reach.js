// Where the links reach (GET /api/reach): one sentence for the host, on the lobby and the host
// page, and what to do to reach further. The words are the catalogues' (reach.*).
import { api, el, fill, t as tr } from "/static/common.js";

export async function showReach(node) {
  if (!node) return;
  let r;
  try {
    r = await api("/api/reach");
  } catch {
    return;
  }
  const lines = [];
  if (r.reach === "computer") {
    lines.push(el("strong", {}, tr("reach.computer")));
    if (r.lan_url) lines.push(" ", tr("reach.computer_lan", { url: r.lan_url }));
    else lines.push(" ", tr("reach.computer_how"));
  } else if (r.reach === "network") {
    lines.push(el("strong", {}, tr("reach.network")), " ", tr("reach.network_how"));
  } else {
    lines.push(el("strong", {}, tr("reach.anywhere")));
  }
  if (r.proxied && !r.public) lines.push(" ", tr("reach.proxied"));
  node.dataset.reach = r.reach;
  node.classList.remove("hidden");
  fill(node, ...lines);
}
