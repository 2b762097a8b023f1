// @ts-check
// The generic renderer: draws any title from its seat's payload as readable data,
// with one button per legal action. Titles that ship no renderer of their own use it.
//
// A renderer module exports render(root, payload, ctx):
//   root     an element the renderer owns and redraws freely;
//   payload  exactly what the API sent this seat (view, legal, labels, history...);
//   ctx      { seat, readonly, act(action) -> Promise<boolean> } — act posts an
//            action in its JSON form; the page shows any refusal.

import { el, clear } from "./dom.js";
import { explainChoice, rulesIfLoaded, loadRules } from "./rules.js";

function words(key) {
  return String(key).replace(/_/g, " ");
}

function isScalar(value) {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

export function drawValue(value) {
  if (isScalar(value)) return el("span", { class: "value" }, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "value empty" }, "none");
    if (value.every(isScalar)) return el("span", { class: "value" }, value.join(", "));
    return el(
      "ol",
      { class: "value-list" },
      value.map((item) => el("li", {}, drawValue(item))),
    );
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return el("span", { class: "value empty" }, "nothing");
  return el(
    "dl",
    { class: "value-map" },
    entries.map(([k, v]) => [el("dt", {}, words(k)), el("dd", {}, drawValue(v))]),
  );
}

/**
 * A view's entries, as drawValue draws them, except one convention of the titles'
 * views: a list of plain values as long as the table has seats (two or more) holds
 * one value per seat, in seat order (coins, points, tokens), and is drawn with
 * each seat's name beside its value.
 * @param {Record<string, any>} view
 * @param {{ seat: number, label: string }[]} seats
 */
export function drawView(view, seats) {
  const perSeat = (value) => Array.isArray(value) && seats.length >= 2 && value.length === seats.length && value.every(isScalar);
  const entries = Object.entries(view);
  if (entries.length === 0) return el("span", { class: "value empty" }, "nothing");
  return el(
    "dl",
    { class: "value-map" },
    entries.map(([k, v]) => [
      el("dt", {}, words(k)),
      el("dd", {}, perSeat(v)
        ? el("ul", { class: "value-seats" }, v.map((item, i) => el("li", { "data-seat": i + 1 }, `${seats[i].label}: ${item}`)))
        : drawValue(v)),
    ]),
  );
}

export function drawHistory(lines, { newestFirst = true } = {}) {
  const ordered = newestFirst ? [...lines].reverse() : lines;
  return el(
    "section",
    { class: "history", "aria-label": "history" },
    el("h2", {}, "History"),
    lines.length === 0
      ? el("p", { class: "muted" }, "Nothing has happened yet.")
      : el("ol", { class: "history-lines", reversed: newestFirst }, ordered.map((l) => el("li", {}, l))),
  );
}

function drawActions(payload, ctx) {
  const section = el("section", { class: "actions", "aria-label": "actions" }, el("h2", {}, "Actions"));
  if (ctx.readonly) {
    section.append(el("p", { class: "muted" }, "Replay: actions are shown, not taken."));
  }
  if (!payload.legal.length) {
    const waiting = payload.outcome ? "The match is over." : "Nothing to do now.";
    section.append(el("p", { class: "muted" }, payload.seat ? waiting : "Spectators watch."));
    return section;
  }
  const buttons = el("div", { class: "action-buttons" });
  payload.legal.forEach((action, i) => {
    const label = payload.labels[i] || JSON.stringify(action);
    buttons.append(
      el(
        "button",
        {
          type: "button",
          class: "action",
          disabled: ctx.readonly,
          dataset: { action: JSON.stringify(action), label },
          onclick: () => ctx.act(action),
        },
        label,
      ),
    );
  });
  section.append(buttons);
  explainButtons(buttons, payload.title);
  if (!ctx.readonly) {
    // Any action as JSON: the way to try an action no button offers.
    const input = el("input", {
      type: "text",
      class: "action-json",
      placeholder: '{"type": "..."}',
      "aria-label": "action as JSON",
    });
    const form = el(
      "form",
      {
        class: "json-form",
        onsubmit: (event) => {
          event.preventDefault();
          let action;
          try {
            action = JSON.parse(input.value);
          } catch {
            action = input.value;
          }
          ctx.act(action);
        },
      },
      input,
      el("button", { type: "submit" }, "Send JSON"),
    );
    section.append(el("details", {}, el("summary", {}, "Send an action as JSON"), form));
  }
  return section;
}

// What each offered choice means, from the title's rules (its "actions" topic),
// under the button; the rules arrive once per page, after the first drawing.
function explainButtons(buttons, title) {
  const fill = (topics) => {
    for (const button of buttons.querySelectorAll("button.action")) {
      if (button.querySelector(".action-help")) continue;
      const help = explainChoice(topics, button.dataset.label);
      if (help) button.append(el("span", { class: "action-help" }, help));
    }
  };
  const topics = title ? rulesIfLoaded(title) : null;
  if (topics) fill(topics);
  else if (title) loadRules(title).then(fill);
}

export function render(root, payload, ctx) {
  clear(root);
  const who = payload.seat ? `What ${payload.seats[payload.seat - 1].label} sees` : "What a spectator sees";
  root.append(
    el(
      "div",
      { class: "generic" },
      el("section", { class: "view", "aria-label": "view" }, el("h2", {}, who), drawView(payload.view, payload.seats || [])),
      drawActions(payload, ctx),
      drawHistory(payload.history),
    ),
  );
}
