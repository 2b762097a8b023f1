// @ts-check
// Master Thief in the browser: the table drawn as cards from one seat's payload.
// Other thieves' hands and unseen Calling Cards are not in that payload (only
// their sizes, and the cards this seat has seen), so this file cannot draw them.
//
// Exports render(root, payload, ctx), the Gameweave renderer contract. Play by
// clicking: the Museum pile to steal, a card in your hand and then its target
// (an item, a stash, a Calling Card), items to surrender, discard or drop, and
// the buttons of the prompt when you are asked to answer out of turn.

import { el } from "/static/js/dom.js";

const COLOURS = {
  Artifacts: "#b8860b",
  Bones: "#8d8577",
  Gems: "#2a7fb8",
  Masks: "#7b3fa8",
  Paintings: "#2e8b57",
  Statues: "#6b6b8a",
  Security: "#c62828",
};
const KINDS = {
  Swipe: "Action", Stash: "Action", Raid: "Action", Trip: "Action", Snoop: "Action", Lift: "Action",
  Grip: "Reaction", Latch: "Reaction",
  "Smoke Pellet": "Utility", "Deep Pockets": "Utility", "Getaway Car": "Utility",
};
// Short forms of the card texts (the full ones are on the rulings page).
const TEXTS = {
  Swipe: "Take a Carried item from an opponent.",
  Stash: "Turn a Carried item face down.",
  Raid: "Take a random Stashed item.",
  Trip: "An opponent drops a Carried item.",
  Snoop: "See a Calling Card.",
  Lift: "Steal 1 more item.",
  Grip: "Stop a Swipe, Raid or Trip.",
  Latch: "Stop an escape.",
  "Smoke Pellet": "Your items are safe until your turn.",
  "Deep Pockets": "Carry 6 until your turn.",
  "Getaway Car": "No Latch stops your escape.",
};
// The Thief Cards whose play needs a target chosen on the table.
const TARGETED = { Swipe: "swipe", Stash: "stash", Raid: "raid", Trip: "trip", Snoop: "snoop" };
const PHASES = {
  heist: "The Heist: everyone steals at once",
  avert: "Security! Avert it or take a Strike",
  jury: "The Jury of Thieves votes",
  steal: "Steal from the Museum",
  play: "Play Thief Cards",
  react: "Waiting for answers",
  overflow: "Too much to carry: drop an item",
  cleanup: "Down to the limits",
  leave: "Stay, or escape?",
  tiebreak: "A tie: one last steal, all at once",
  over: "The game is over",
};

let selected = null; // the hand card whose targets are shown, kept across redraws

function ensureStyles() {
  if (document.getElementById("masterthief-css")) return;
  document.head.append(
    el("link", { id: "masterthief-css", rel: "stylesheet", href: new URL("./masterthief.css", import.meta.url).href }),
  );
}

export function describe(a) {
  switch (a.type) {
    case "swipe": return `swipe ${a.target} ${a.item}`;
    case "stash": return `stash ${a.item}`;
    case "raid": return `raid ${a.target}`;
    case "trip": return `trip ${a.target} ${a.item}`;
    case "snoop": return `snoop ${a.target}`;
    case "utility": return `play ${a.card}`;
    case "surrender": return `surrender ${a.item}`;
    case "vote": return a.abandon ? "vote abandon" : "vote continue";
    case "end": return "end turn";
    case "discard": return `discard ${a.card}`;
    case "drop": return `drop ${a.item}`;
    default: return a.type;
  }
}

// An item's coloured band, its colour set through the style object: the page's CSP
// refuses style attributes.
function band(colour, ...children) {
  const made = el("div", { class: "mt-band" }, ...children);
  made.style.background = colour;
  return made;
}

function itemCard(item, opts = {}) {
  const colour = COLOURS[item.category] || "#555";
  const security = item.kind === "Security";
  return el("div", {
      class: `mt-card mt-item${opts.target ? " target" : ""}${security ? " security" : ""}`,
      "data-item": item.name,
      "data-seat": opts.seat,
      title: security ? `${item.name}: Security, averted with ${item.category}` : `${item.name}: ${item.category}, ${item.bmc} BMC, draw ${item.draw}${item.kind === "Charmed" ? " (Charmed)" : ""}`,
      onclick: opts.onclick,
      role: opts.onclick ? "button" : undefined,
      tabindex: opts.onclick ? "0" : undefined,
    },
    band(colour,
      el("span", {}, security ? "Security" : item.category),
      el("span", {}, security ? "!" : `${item.bmc}`),
    ),
    el("div", { class: "mt-name" }, item.name),
    el("div", { class: "mt-foot" }, security ? `avert: ${item.category}` : `draw ${item.draw}${item.kind === "Charmed" ? " · charm" : ""}`),
  );
}

function stashCard(item, opts = {}) {
  // Stashed items are face down; everyone saw what went there, so the name is shown small.
  return el("div", { class: `mt-card mt-stashed${opts.target ? " target" : ""}`, "data-item": item.name, title: `Stashed: ${item.name} (${item.bmc} BMC)` },
    el("div", { class: "mt-back-mark" }, "✦"),
    el("div", { class: "mt-small" }, item.name),
  );
}

function thiefCard(name, opts = {}) {
  const kind = KINDS[name] || "Action";
  return el("div", {
      class: `mt-card mt-thief ${kind.toLowerCase()}${opts.playable ? " playable" : ""}${opts.selected ? " selected" : ""}`,
      "data-card": name,
      title: `${name} (${kind})`,
      onclick: opts.onclick,
      role: opts.onclick ? "button" : undefined,
      tabindex: opts.onclick ? "0" : undefined,
    },
    el("div", { class: "mt-kind" }, kind),
    el("div", { class: "mt-name" }, name),
    el("div", { class: "mt-text" }, TEXTS[name] || ""),
  );
}

function backs(n) {
  return el("div", { class: "mt-backs", title: `${n} Thief Cards in hand` },
    Array.from({ length: Math.min(n, 8) }, () => el("span", { class: "mt-back" })),
    el("span", { class: "mt-count" }, `${n}`),
  );
}

// The legal actions as a lookup: which click does what.
function index(legal) {
  /** @type {{ item: Map<string, any>, raid: Map<number, any>, snoop: Map<number, any>, hand: Map<string, any>, other: any[] }} */
  const by = { item: new Map(), raid: new Map(), snoop: new Map(), hand: new Map(), other: [] };
  for (const a of legal) {
    if (["swipe", "trip"].includes(a.type)) by.item.set(`${a.type}:${a.target}:${a.item}`, a);
    else if (a.type === "stash") by.item.set(`stash:0:${a.item}`, a);
    else if (["surrender", "drop"].includes(a.type)) by.item.set(`${a.type}:0:${a.item}`, a);
    else if (a.type === "raid") by.raid.set(a.target, a);
    else if (a.type === "snoop") by.snoop.set(a.target, a);
    else if (a.type === "discard") by.hand.set(a.card, a);
    else if (a.type === "utility") by.hand.set(a.card, a);
    else if (a.type === "lift") by.hand.set("Lift", a);
    else by.other.push(a);
  }
  return by;
}

function seatPanel(payload, s, by, ctx) {
  const view = payload.view;
  const me = payload.seat;
  const mine = s.seat === me;
  const verb = selected ? TARGETED[selected] : null;
  const onItem = (item) => {
    const key = mine
      ? [`surrender:0:${item}`, `drop:0:${item}`, verb === "stash" ? `stash:0:${item}` : null]
      : verb && ["swipe", "trip"].includes(verb) ? [`${verb}:${s.seat}:${item}`] : [];
    const action = key.filter(Boolean).map((k) => by.item.get(k)).find(Boolean);
    return action ? () => { selected = null; ctx.act(action); } : undefined;
  };
  const raid = verb === "raid" ? by.raid.get(s.seat) : undefined;
  const snoop = verb === "snoop" ? by.snoop.get(s.seat) : undefined;
  const status = s.status === "in" ? "" : ` · ${s.status}`;
  const turn = view.turn === s.seat && view.phase !== "over" && view.phase !== "heist" ? " mt-turn" : "";
  const answering = view.window || view.security || view.phase === "jury" || view.phase === "heist";
  const asked = answering && (payload.awaiting || []).includes(s.seat) ? " asked" : "";
  return el("section", { class: `mt-seat${mine ? " mine" : ""}${turn}${asked}`, "data-seat": s.seat, "aria-label": `Seat ${s.seat}` },
    el("header", {},
      el("strong", {}, `Seat ${s.seat}${mine ? " (you)" : ""}`),
      el("span", { class: "mt-status" }, status),
      backs(s.hand),
      s.calling
        ? el("span", { class: "mt-calling shown" }, s.calling)
        : el("span", {
            class: `mt-calling hidden${snoop ? " target" : ""}`, "data-seat": s.seat,
            onclick: snoop ? () => { selected = null; ctx.act(snoop); } : undefined,
          }, "Calling Card"),
    ),
    s.utilities.length ? el("div", { class: "mt-row mt-utilities" }, s.utilities.map((u) => thiefCard(u))) : null,
    el("div", { class: "mt-row mt-carried" },
      s.carried.length ? s.carried.map((i) => {
        const click = onItem(i.name);
        return itemCard(i, { seat: s.seat, onclick: click, target: Boolean(click) });
      }) : el("span", { class: "mt-empty" }, "nothing carried"),
    ),
    el("div", {
        class: `mt-row mt-stash${raid ? " target" : ""}`, "data-seat": s.seat,
        onclick: raid ? () => { selected = null; ctx.act(raid); } : undefined,
      },
      s.stashed.length ? s.stashed.map((i) => stashCard(i)) : el("span", { class: "mt-empty" }, "no stash"),
    ),
  );
}

function handPanel(payload, by, ctx, rerender) {
  const view = payload.view;
  if (!payload.seat || !view.hand) return null;
  const targeted = new Set(payload.legal.filter((a) => Object.values(TARGETED).includes(a.type)).map((a) => a.type));
  const cards = view.hand.map((name) => {
    const direct = by.hand.get(name);
    const aims = TARGETED[name] && targeted.has(TARGETED[name]);
    let onclick;
    if (direct) onclick = () => { selected = null; ctx.act(direct); };
    else if (aims) onclick = () => { selected = selected === name ? null : name; rerender(); };
    return thiefCard(name, { playable: Boolean(onclick), selected: selected === name, onclick });
  });
  return el("section", { class: "mt-hand", "aria-label": "your hand" },
    el("h3", {}, "Your hand ", el("span", { class: "mt-your-calling" }, `· Calling Card: ${view.calling}`)),
    el("div", { class: "mt-row" }, cards.length ? cards : el("span", { class: "mt-empty" }, "no cards")),
  );
}

function prompt(payload, by, ctx) {
  const view = payload.view;
  const buttons = by.other.filter((a) => a.type !== "steal").map((a) =>
    el("button", { type: "button", class: `mt-act mt-${a.type}`, "data-action": describe(a), onclick: () => { selected = null; ctx.act(a); } }, describe(a)));
  let text = null;
  const w = view.window;
  if (w && payload.legal.length && w.trigger !== "security") {
    const card = w.trigger.charAt(0).toUpperCase() + w.trigger.slice(1);
    const whom = w.target === payload.seat ? "you" : `seat ${w.target}`;
    text = w.trigger === "escape"
      ? `Seat ${w.actor} tries to escape: play Latch, or pass?`
      : `Seat ${w.actor} plays ${card} on ${whom}${w.item ? `: ${w.item}` : ""}. Play Grip, or pass?`;
  }
  if (view.security && payload.legal.length) {
    const c = view.security.card;
    text = `${c.name} was pulled by seat ${view.security.pulled_by}: surrender a Carried ${c.category} item (choose it) or pass.`;
  }
  if (!buttons.length && !text) return null;
  return el("div", { class: "mt-prompt", role: "group", "aria-label": "your choices" },
    text ? el("p", {}, text) : null, el("div", { class: "mt-buttons" }, buttons));
}

function hint(payload) {
  const view = payload.view;
  if (payload.outcome) return payload.outcome.summary;
  if (!payload.legal.length) return payload.seat ? "Waiting for the others." : "You are watching.";
  // "Tap" where the screen is worked by touch (a coarse pointer), "Click" elsewhere.
  const tap = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
  const Click = tap ? "Tap" : "Click";
  const click = tap ? "tap" : "click";
  if (payload.legal.some((a) => a.type === "steal")) return `${Click} the Museum to steal.`;
  if (selected) return `${selected}: ${click} an outlined target, or the card again to put it back.`;
  if (view.phase === "cleanup") return `${Click} cards to discard, or items to drop, down to the limits.`;
  if (view.phase === "play") return `${Click} a card in your hand to play it, or end the turn.`;
  return PHASES[view.phase] || "";
}

function header(payload, by, ctx) {
  const view = payload.view;
  const steal = by.other.find((a) => a.type === "steal");
  const strikes = Array.from({ length: view.strikes_to_end }, (_, i) =>
    el("span", { class: `mt-strike${i < view.strikes.length ? " on" : ""}`, title: view.strikes[i] || "no Strike" }, "✕"));
  return el("div", { class: "mt-top" },
    el("div", {
        class: `mt-pile mt-museum${steal ? " target" : ""}`,
        role: steal ? "button" : undefined,
        title: "The Museum: steal the top card",
        onclick: steal ? () => { selected = null; ctx.act(steal); } : undefined,
      },
      el("span", { class: "mt-pile-name" }, "Museum"), el("span", { class: "mt-pile-count" }, `${view.museum}`)),
    el("div", { class: "mt-pile mt-deck", title: "The Thief deck" },
      el("span", { class: "mt-pile-name" }, "Thief deck"), el("span", { class: "mt-pile-count" }, `${view.deck}`)),
    el("div", { class: "mt-facts" },
      el("div", { class: "mt-phase" }, PHASES[view.phase] || view.phase),
      el("div", { class: "mt-strikes", "aria-label": `${view.strikes.length} of ${view.strikes_to_end} Strikes` }, "Strikes ", strikes),
      el("div", { class: "mt-hint" }, hint(payload)),
    ),
  );
}

function history(lines) {
  return el("section", { class: "mt-history", "aria-label": "history" },
    el("h3", {}, "History"),
    // Newest first, numbered from the whole history's length (only the last 60 shown).
    el("ol", { reversed: true, start: lines.length }, [...lines].reverse().slice(0, 60).map((l) => el("li", {}, l))),
  );
}

export function render(root, payload, ctx) {
  ensureStyles();
  const view = payload.view;
  const by = index(payload.legal || []);
  if (selected && !(view.hand || []).includes(selected)) selected = null;
  const rerender = () => render(root, payload, ctx);
  // This seat's own panel first, then the others in seat order.
  const order = [...view.seats].sort((a, b) => Number(b.seat === payload.seat) - Number(a.seat === payload.seat) || a.seat - b.seat);
  const frame = el("div", { class: "mt", "data-phase": view.phase },
    header(payload, by, ctx),
    prompt(payload, by, ctx),
    handPanel(payload, by, ctx, rerender),
    el("div", { class: "mt-table" }, order.map((s) => seatPanel(payload, s, by, ctx))),
    view.scores ? el("p", { class: "mt-scores" }, `Final BMC: ${view.scores.map((v, i) => `seat ${i + 1} ${v}`).join(", ")}`) : null,
    history(payload.history || []),
  );
  root.replaceChildren(frame);
}
