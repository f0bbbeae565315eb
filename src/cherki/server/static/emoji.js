// The quick reactions drawn as small SVG pictures, so that they show on a computer with no
// colour-emoji font (issue 39). The emoji itself stays in the text for screen readers, copying
// and the tests (visually hidden); the picture is decoration (aria-hidden).
import { el } from "/static/common.js";

const FACE = '<circle cx="12" cy="12" r="10" fill="#f6c344" stroke="#b07d12" stroke-width="1.2"/>';
const EYES = '<circle cx="8.5" cy="9.5" r="1.4" fill="#3b2a05"/><circle cx="15.5" cy="9.5" r="1.4" fill="#3b2a05"/>';

/** Each reaction's picture (24×24), constant markup. */
const PICTURES = {
  "👍": '<path d="M7 11h3l3-7c1.5 0 2.5 1 2.2 2.6L14.6 10H19a2 2 0 0 1 2 2.3l-1.2 6.4A2 2 0 0 1 17.8 20H10a3 3 0 0 1-3-3z" fill="#f6c344" stroke="#b07d12" stroke-width="1.2" stroke-linejoin="round"/><rect x="3" y="10.5" width="4" height="9.5" rx="1" fill="#4a7bd0" stroke="#2c4f8f" stroke-width="1.2"/>',
  "😄": `${FACE}${EYES}<path d="M6.8 13.5h10.4a5.2 5.2 0 0 1-10.4 0z" fill="#7a2d0c"/>`,
  "😮": `${FACE}${EYES}<ellipse cx="12" cy="16" rx="2.3" ry="2.8" fill="#7a2d0c"/>`,
  "😢": `${FACE}${EYES}<path d="M8 17.5c2.2-2.6 5.8-2.6 8 0" fill="none" stroke="#7a2d0c" stroke-width="1.6" stroke-linecap="round"/><path d="M16.4 11.5c.9 1.6 1.6 2.6 1.6 3.4a1.6 1.6 0 0 1-3.2 0c0-.8.7-1.8 1.6-3.4z" fill="#5aa9e6"/>`,
  "🎉": '<path d="M3 21l5-14 9 9z" fill="#f6c344" stroke="#b07d12" stroke-width="1.2" stroke-linejoin="round"/><path d="M5.5 14l4.5 4.5M7 10l7 7" stroke="#d9482b" stroke-width="1.4"/><circle cx="15" cy="4" r="1.2" fill="#d9482b"/><circle cx="20" cy="8" r="1.2" fill="#4a7bd0"/><circle cx="19" cy="3" r="1" fill="#2f855a"/><path d="M12 6c1-1.5 1-3 0-4M17 11c1.5-1 3-1 4 0" fill="none" stroke="#2f855a" stroke-width="1.3" stroke-linecap="round"/>',
  "🙏": '<path d="M11.3 3.5c-.8 0-1.3.6-1.5 1.4L8 13l-3 3 3.5 5 3-2.5c.6-.5.8-1.1.8-1.8V4.5c0-.6-.4-1-1-1z" fill="#f6c344" stroke="#b07d12" stroke-width="1.2" stroke-linejoin="round"/><path d="M12.7 3.5c.8 0 1.3.6 1.5 1.4L16 13l3 3-3.5 5-3-2.5c-.6-.5-.8-1.1-.8-1.8V4.5c0-.6.4-1 1-1z" fill="#f6c344" stroke="#b07d12" stroke-width="1.2" stroke-linejoin="round"/>',
};

/** A reaction as its picture, with the emoji kept as hidden text. */
export function emoteIcon(emote) {
  const picture = el("span", { class: "emote-svg", "aria-hidden": "true" });
  const markup = PICTURES[emote];
  if (markup) picture.innerHTML = `<svg viewBox="0 0 24 24" width="1.25em" height="1.25em" focusable="false">${markup}</svg>`;
  else picture.textContent = emote;
  return el("span", { class: "emote-icon" }, picture, el("span", { class: "sr-only" }, emote));
}
