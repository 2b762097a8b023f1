// @ts-check
// The seat page's own link, to copy: it holds the seat's secret token (in the URL
// fragment, which the browser never sends to the server), and it is the only way
// back to this seat from another device or after the tab is closed.

import { el, clear, copyText } from "./dom.js";

function mount() {
  const box = document.getElementById("seat-link");
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!box || !token) return; // a spectator's page has no seat to keep
  const url = location.href;
  const input = el("input", { type: "text", readonly: true, value: url, class: "link-url", "aria-label": "your seat link" });
  const status = el("span", { class: "copied muted", "aria-live": "polite" });
  clear(box).append(
    el("summary", {}, "Your seat link"),
    el("p", { class: "muted" }, "Keep this link: it is your seat. Open it on any device to play on; anyone who has it plays as you. Whoever created the match can give this seat a new link from the lobby (this one then stops working)."),
    el("div", { class: "link-row" },
      input,
      el("button", {
        type: "button",
        class: "copy",
        onclick: async () => (status.textContent = (await copyText(url, input)) ? "copied" : "select and copy"),
      }, "Copy"),
      status,
    ),
  );
  box.hidden = false;
}

mount();
