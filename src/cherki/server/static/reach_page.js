// The lobby's and the host page's sentence on where the links reach (reach.js).
import { $, loadWords } from "/static/common.js";
import { showReach } from "/static/reach.js";

await loadWords();
await showReach($("#reach"));
