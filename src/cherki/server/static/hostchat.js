// The host's page: whether the table's spectators may read the players' chat (off unless
// the host allows it; spectators never write in it).
import { $, api, t as tr, toast } from "/static/common.js";

const key = location.pathname.split("/")[2];
const base = `/api/host/${encodeURIComponent(key)}/chat`;

async function start() {
  const box = $("#chat-spectators");
  const section = $("#host-chat");
  let now;
  try {
    now = await api(base);
  } catch {
    return; // not a host link: the page says so
  }
  box.checked = Boolean(now.spectators);
  section.classList.remove("hidden");
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      const done = await api(base, { json: { spectators: box.checked } });
      box.checked = Boolean(done.spectators);
      toast(done.spectators ? tr("page.host.chat_on") : tr("page.host.chat_off"));
    } catch (err) {
      box.checked = !box.checked;
      toast(err.message);
    } finally {
      box.disabled = false;
    }
  });
}

start();
