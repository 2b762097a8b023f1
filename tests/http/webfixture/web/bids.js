// A tiny title renderer for the tests: proves the client loads a title's own
// module (and the modules it imports) instead of the generic renderer.
import { label } from "./helper.js";

export function render(root, payload, ctx) {
  root.replaceChildren();
  const heading = document.createElement("h2");
  heading.className = "custom-renderer";
  heading.textContent = `${label(payload)} — lot worth ${payload.view.lot}`;
  root.append(heading);
  payload.legal.slice(0, 3).forEach((action, i) => {
    const button = document.createElement("button");
    button.className = "custom-bid";
    button.textContent = payload.labels[i];
    button.addEventListener("click", () => ctx.act(action));
    root.append(button);
  });
}
