// @ts-check
// Museum Rush in the browser: the museum's grid of rooms, the thieves and Guards,
// the face-up cards and your hand, drawn from one seat's payload. Other seats'
// hands, Stash and Buyer cards are not in that payload (only counts and the cards
// this seat has seen), so this file could not draw them if it tried.
//
// Exports render(root, payload, ctx), the Gameweave renderer contract.

import { el } from "/static/js/dom.js";

const SHORT = {
  "Egyptian Hall": "Egypt", "Roman Gallery": "Roman", "Asian Art": "Asian", "Modern Art": "Modern",
  "Fossil Hall": "Fossils", "Sculpture Court": "Sculpt.", "Armoury": "Armoury",
  "Sunflower Room": "Sunflwr", "Mask Room": "Mask", "Judith Room": "Judith", "Vase Room": "Vase",
  "Crown Room": "Crown", "Sapphire Room": "Sapph.", "Night Watch Room": "N.Watch",
  "Vault": "Vault", "Security Room": "Security", "Lost & Found": "L & F", "Archive A": "Arch. A",
  "Archive B": "Arch. B", "Entrance Hall": "Entrance", "Gents": "Gents", "Ladies": "Ladies",
  "Control Room": "Control", "Gift Shop": "Gifts", "Cloakroom": "Cloaks", "Cafe": "Cafe",
  "Stairwell": "Stairs", "Library": "Library",
};
// Actions chosen by clicking a tile, and the field naming it.
const TILE_FIELD = { breakin: "at", move: "to", go: "to", place: "at", wayout: "at", trap: "at" };

function ensureStyles() {
  if (document.getElementById("museumrush-css")) return;
  document.head.append(
    el("link", { id: "museumrush-css", rel: "stylesheet", href: new URL("./museumrush.css", import.meta.url).href }),
  );
}

function cardText(c) {
  return c.kind === "loot" || c.kind === "rare" ? `${c.name} $${c.value}M` : c.name;
}

/**
 * A Guard as the board marks it: the view numbers Guards from 0 (the actions' field),
 * the board and the buttons from 1, so "G1" on a room is "Guard 1" on a button.
 * @param {number} id
 */
function guardName(id) {
  return `Guard ${id + 1}`;
}

/** Whether this screen is worked by touch (a coarse pointer): "tap" rather than "click". */
function touch() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

function label(a) {
  const fields = Object.entries(a).filter(([k]) => k !== "type").map(([, v]) => v);
  switch (a.type) {
    case "end": return a.escape ? "Escape!" : "End turn";
    case "breakin": return `break in at ${a.at}`;
    case "move": case "go": return `move to ${a.to}`;
    case "place": return `put the new Guard on ${a.at}`;
    case "wayout": return `leave by the Way Out on ${a.at}`;
    case "trap": return `set a Booby Trap on ${a.at}`;
    case "loot": return "Steal the Loot";
    case "crack": return "Crack the lock";
    case "rob": return `Rob Seat ${a.seat}`;
    case "raid": return "Use keys on the pile";
    case "lure": return a.guard >= 0 ? `Lure ${guardName(a.guard)} to ${a.to}` : `Lure Seat ${a.seat} to ${a.to}`;
    case "takedown": return "Take Down";
    case "disable": return `Disable Camera ${a.at}`;
    case "control": return `Control Room: Camera ${a.at}`;
    case "security": return `Security: ${guardName(a.guard)} to ${a.to}`;
    case "shop": return "Gift Shop: draw";
    case "pass": return "Play nothing";
    case "usekeys": return "Use my keys";
    case "done": return "Take no more";
    case "route": return `${guardName(a.guard)}: ${a.path || "stays"}`;
    default: return [a.type, ...fields].join(" ");
  }
}

function cardName(payload, id) {
  const v = payload.view;
  const all = [...(v.you ? v.you.hand : []), ...(v.you && v.you.drawn ? v.you.drawn : []), ...v.vault.known, ...v.lost.known];
  const c = all.find((x) => x.id === id);
  return c ? cardText(c) : `card ${id}`;
}

function tileTargets(payload) {
  const out = new Map();
  for (const a of payload.legal) {
    const field = TILE_FIELD[a.type];
    if (field) out.set(a[field], a);
  }
  return out;
}

function drawGrid(payload, ctx) {
  const v = payload.view;
  const targets = tileTargets(payload);
  const guards = new Map();
  for (const g of v.guards) guards.set(g.at, [...(guards.get(g.at) || []), g.id]);
  const thieves = new Map();
  for (const t of v.thieves) thieves.set(t.at, [...(thieves.get(t.at) || []), t.seat]);
  const pending = v.pending ? v.pending.at : null;
  // Every room is a button named by its coordinates (as the hint, the history and
  // the thieves' table name it): the outlined ones are enabled and reached with Tab.
  return el("div", { class: "mr-grid", role: "group", "aria-label": "the museum, rooms A1 to G4" },
    v.grid.map((t) => {
      const act = targets.get(t.at);
      const classes = ["mr-tile", `mr-${t.kind}`];
      if (act) classes.push("target");
      if (pending === t.at) classes.push("pending");
      const top = t.top ? el("div", { class: `mr-top mr-${t.top.kind}` }, t.top.kind === "camera" ? "CAM" : `$${t.top.value}M`) : null;
      const code = t.code ? el("div", { class: "mr-code" },
        [...t.code].map((d, i) => el("span", { class: t.covered[i] ? "covered" : "" }, d))) : null;
      const marks = [];
      for (const id of guards.get(t.at) || []) marks.push(el("span", { class: "mr-guard", "data-guard": id, title: guardName(id) }, `G${id + 1}`));
      for (const s of thieves.get(t.at) || []) marks.push(el("span", { class: `mr-thief s${s}`, "data-seat": s, title: `Seat ${s}` }, String(s)));
      if (t.trap) marks.push(el("span", { class: "mr-trap", title: "Booby Trap" }, "✶"));
      if (t.keys) marks.push(el("span", { class: "mr-key", title: "keys" }, `⚷${t.keys}`));
      const here = [
        ...(guards.get(t.at) || []).map(guardName),
        ...(thieves.get(t.at) || []).map((s) => `Seat ${s}'s thief`),
      ];
      return el("button", {
        type: "button", class: classes.join(" "), "data-at": t.at, title: `${t.at} ${t.room}`,
        "aria-label": `${t.at} ${t.room}${here.length ? `: ${here.join(", ")}` : ""}${act ? ` (${label(act)})` : ""}`,
        disabled: !act,
        onclick: act ? () => ctx.act(act) : undefined,
      },
        el("div", { class: "mr-at", "aria-hidden": "true" }, t.at),
        el("div", { class: "mr-room" }, SHORT[t.room] || t.room, t.wayout || t.room === "Entrance Hall" ? el("span", { class: "mr-exit", title: "Way Out" }, " ⇱") : null),
        top, code,
        t.facedown ? el("div", { class: "mr-down", title: "face-down cards" }, `▮${t.facedown}`) : null,
        el("div", { class: "mr-marks" }, marks),
      );
    }),
  );
}

function yourPanel(payload) {
  const you = payload.view.you;
  if (!you) return null;
  return el("div", { class: "mr-panel mr-you" },
    el("h3", {}, `Your hand (Seat ${you.seat})`),
    el("div", { class: "mr-hand" }, you.hand.length ? you.hand.map((c) => el("span", { class: `mr-card mr-${c.kind}`, "data-card": c.id }, cardText(c))) : el("em", {}, "empty")),
    you.drawn ? el("p", {}, "Drawn: ", you.drawn.map((c) => cardText(c)).join(", ")) : null,
    you.stash ? el("p", { class: "mr-secret" }, `Stash: ${you.stash}`) : null,
    you.buyer ? el("p", { class: "mr-secret" }, `Buyer ${you.buyer.name} wants ${you.buyer.wants.map((w) => w.name).join(" & ")}`) : null,
  );
}

function actionsPanel(payload, ctx) {
  const rest = payload.legal.filter((a) => !TILE_FIELD[a.type]);
  if (!rest.length) return null;
  return el("div", { class: "mr-panel mr-actions" },
    rest.map((a) => {
      let text = label(a);
      if ("card" in a) text = `${a.type === "choose" ? "Keep" : a.type[0].toUpperCase() + a.type.slice(1)} ${cardName(payload, a.card)}`;
      return el("button", { type: "button", class: `mr-action mr-act-${a.type}`, onclick: () => ctx.act(a) }, text);
    }),
  );
}

function thievesPanel(v) {
  return el("div", { class: "mr-panel mr-thieves" },
    el("table", {}, v.thieves.map((t) => el("tr", { class: "mr-seat", "data-seat": t.seat },
      el("td", {}, el("span", { class: `mr-thief s${t.seat}` }, String(t.seat))),
      el("td", {}, t.thief || `Seat ${t.seat}`),
      el("td", {}, t.at),
      el("td", {}, `${t.valuables}+${t.items} cards, ${t.keys} keys`),
      el("td", { class: "mr-known" }, t.known.map((c) => cardText(c)).join(", ")),
    ))),
  );
}

function hint(payload) {
  const v = payload.view;
  if (payload.outcome) return `Game over: ${payload.outcome.summary}`;
  if (!payload.legal.length) return payload.seat ? `Waiting for Seat ${v.awaiting[0]}` : "You are watching.";
  if (v.pending) return `Your choice: ${v.pending.what}`;
  const pick = touch() ? "tap" : "click";
  if (payload.legal.some((a) => a.type === "breakin")) return `${pick === "tap" ? "Tap" : "Click"} an outlined edge room (or Tab to it and press Enter) to break in.`;
  return `Your turn: ${pick} an outlined room to move (${v.moves_left} left), or act below.`;
}

function history(lines) {
  return el("section", { class: "mr-panel mr-history", "aria-label": "history" },
    el("h3", {}, "History"),
    // Newest first, numbered from the whole history's length (only the last 60 shown).
    el("ol", { reversed: true, start: lines.length }, [...lines].reverse().slice(0, 60).map((l) => el("li", {}, l))),
  );
}

export function render(root, payload, ctx) {
  ensureStyles();
  const v = payload.view;
  const roll = v.rolls.length ? v.rolls[v.rolls.length - 1] : null;
  const frame = el("div", { class: "mr", "data-phase": v.phase },
    el("div", { class: "mr-top-bar" },
      el("span", { class: "mr-clocks" }, `Clocks ${v.clocks}/${v.clocks_to_end}`),
      el("span", {}, `Deck ${v.deck} · Vault ${v.vault.count} · L&F ${v.lost.count}`),
      roll ? el("span", { class: "mr-dice" }, `Seat ${roll.seat} rolled ${roll.dice.join(" ")}`) : null,
      el("span", { class: "mr-hint" }, hint(payload)),
    ),
    drawGrid(payload, ctx),
    actionsPanel(payload, ctx),
    yourPanel(payload),
    thievesPanel(v),
    history(payload.history),
  );
  root.replaceChildren(frame);
}
