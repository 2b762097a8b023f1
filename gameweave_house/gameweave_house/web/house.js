// @ts-check
// The House Job in the browser: the table drawn from one seat's view.
//
// The crew shares its table, so every seat's payload shows the same boxes; the
// undealt deck and a face-down hole card are never in any payload (the server
// builds each from the seat's view), so this file only ever draws cards the crew
// has seen. Exports render(root, payload, ctx), the Gameweave renderer contract.

// The host page's DOM helper: every renderer builds its nodes the same way.
import { el } from "/static/js/dom.js";

const SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const PLAY_WORDS = {
  hit: "Hit",
  stand: "Stand",
  double: "Double",
  split: "Split",
  cold_feet: "Cold feet",
  deal_me_in: "Deal me in",
  heavy: "Call the Heavy",
  no_mark: "No Mark",
  next_round: "Next round",
};
const PHASE_WORDS = {
  bet: "betting",
  call: "The Call: marking a box",
  play: "playing",
  settled: "settled",
};

let openMate = null; // the crewmate whose cards are shown, kept across redraws
let legendOpen = false; // the legend, opened by a tap, stays open across redraws

// What the table's marks mean: the same list, word for word, as SYMBOLS in
// rules_text.py (a test compares the two).
const LEGEND = [
  ["▒▒", "the house's hole card, face down (a striped card in the browser)"],
  ["soft", "a total that counts an ace as 11"],
  ["MARK", "the Mark's box: pays 2:1 (3:1 with Double Bag), loses double"],
  ["Vanish, Short Change", "a card covering that box this round"],
  ["backed", "chips Back the Play put on a box, beside its own bet"],
  ["PLAY NOW", "a card of yours you may play this instant; a greyed card says why not"],
  ["⏳ Pending", "set up this round, fires later"],
  ["[1] [2]", "cards a play may name, numbered in the terminal; the browser's buttons name them"],
  ["The Count", "tens and aces among the unseen cards: RICH, EVEN, THIN, SPENT"],
  ["The Tell", "HIGH: the hole card is 7 to king or an ace; LOW: 2 to 6"],
  ["Crew 2", "the box of seat 2; the Extra Box is one past the last seat"],
];

/**
 * ⏳ drawn as a small picture rather than a character: a machine without an emoji
 * font showed a box for it. Read aloud as "hourglass".
 */
function hourglass() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 12 16");
  svg.setAttribute("width", "0.75em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("class", "hj-hourglass");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "hourglass");
  const frame = document.createElementNS(ns, "path");
  frame.setAttribute("d", "M1 1h10M1 15h10M2 1c0 5 8 5 8 7s-8 2-8 7M10 1c0 5-8 5-8 7s8 2 8 7");
  frame.setAttribute("fill", "none");
  frame.setAttribute("stroke", "currentColor");
  frame.setAttribute("stroke-width", "1.4");
  const sand = document.createElementNS(ns, "path");
  sand.setAttribute("d", "M4 4h4l-2 3zM3.5 14c0-2 5-2 5 0z");
  sand.setAttribute("fill", "#c98a16");
  svg.append(frame, sand);
  return svg;
}

/** A legend's or heading's text with its ⏳ drawn by hourglass(). @param {string} text */
function withHourglass(text) {
  const at = text.indexOf("⏳");
  if (at < 0) return text;
  return [text.slice(0, at), hourglass(), text.slice(at + 1)];
}

function ensureStyles() {
  if (document.getElementById("house-css")) return;
  document.head.append(
    el("link", { id: "house-css", rel: "stylesheet", href: new URL("./house.css", import.meta.url).href }),
  );
}

function card(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  const red = code[1] === "H" || code[1] === "D";
  return el("span", { class: `hj-card${red ? " red" : ""}`, "data-card": code, title: code }, rank, SIGNS[code[1]] || "?");
}

function cardName(code) {
  return `${code[0] === "T" ? "10" : code[0]}${SIGNS[code[1]] || "?"}`;
}

function boxById(v, id) {
  return v.boxes.find((b) => b.id === id);
}

function boxWords(v, id, seat) {
  const b = boxById(v, id);
  if (!b) return `box ${id}`;
  if (b.seat === seat && !b.extra) return "your box";
  return b.extra ? "the Extra Box" : `${b.name}'s box`;
}

// A play's targets named by their cards ("your 6♠ for the 10♥ in Crew 2's box"),
// from the same view the table is drawn from.
function targetWords(v, seat, a) {
  const box = a.box ? boxById(v, a.box) : null;
  const cardIn = (b, i) => (b && b.hands[0].cards[i] ? cardName(b.hands[0].cards[i]) : `card ${i + 1}`);
  switch (a.card) {
    case "palm": {
      const own = v.boxes.find((b) => b.seat === seat && !b.extra);
      return `your ${cardIn(own, a.mine)} for the ${cardIn(box, a.index)} in ${boxWords(v, a.box, seat)}`;
    }
    case "false_cut":
      return `the ${cardIn(box, a.index)} in ${boxWords(v, a.box, seat)}`;
    case "the_drop": {
      const at = v.playing ? boxById(v, v.playing.box) : null;
      const hand = at ? at.hands[v.playing.hand] : null;
      return hand && hand.cards[a.index] ? `your ${cardName(hand.cards[a.index])}` : `card ${a.index + 1}`;
    }
    case "the_load": {
      const up = v.deck.face_up[a.index];
      return up ? `the ${cardName(up)} to the top` : `card ${a.index + 1}`;
    }
    case "back_the_play":
      return `${a.amount} on ${boxWords(v, a.box, seat)}`;
    default:
      return a.box ? boxWords(v, a.box, seat) : "Play";
  }
}

function cardBack() {
  return el("span", { class: "hj-card back", title: "face down" }, "🂠");
}

function seatName(payload, seat) {
  const found = payload.seats.find((s) => s.seat === seat);
  return found ? found.label : `Crew ${seat}`;
}

function nameWithRole(payload, crew) {
  const name = seatName(payload, crew.seat);
  return !crew.role_name || name.includes(crew.role_name) ? name : `${name} — ${crew.role_name}`;
}

function banner(payload) {
  const v = payload.view;
  if (v.phase === "over") {
    return el("div", { class: "hj-banner over" }, v.took_the_house ? "The crew took the house!" : "The house kept its edge.");
  }
  // Whose turn it is, the page's own banner says above the table: this one says
  // where the job stands, tinted when the turn is yours.
  const mine = payload.seat && v.turn === payload.seat;
  return el("div", { class: `hj-banner${mine ? " mine" : ""}`, "data-turn": v.turn },
    v.phase === "draft"
      ? "Drafting roles"
      : [`Round ${v.round}`, el("span", { class: "hj-phase" }, ` — ${PHASE_WORDS[v.phase] || v.phase}`)],
  );
}

function takePanel(v) {
  return el("section", { class: "hj-take", "aria-label": "the Take" },
    el("div", { class: "hj-take-figure" }, el("span", { class: "hj-take-label" }, "The Take"), el("strong", {}, v.take)),
    el("div", { class: "muted" }, `opened at ${v.opening} · minimum bet ${v.min_bet}`),
    v.count
      ? el("div", { class: `hj-reading count ${v.count.reading.toLowerCase()}`, "data-reading": v.count.reading },
          "The Count: ", el("strong", {}, v.count.reading), ` (${v.count.tens_and_aces} tens and aces in ${v.count.cards} unseen cards)`)
      : null,
    v.tell ? el("div", { class: "hj-reading tell", "data-tell": v.tell }, "The Tell: the hole card is ", el("strong", {}, v.tell)) : null,
    el("div", { class: "muted" }, `Deck: ${v.deck.left} left · ${v.deck.discard} in the discard${v.last_round ? " · last round" : ""}`),
    v.deck.face_up.length ? el("div", { class: "hj-faceup" }, "Face up on the deck: ", v.deck.face_up.map(card)) : null,
  );
}

function houseCards(v) {
  const d = v.dealer;
  const cards = d.cards.map(card);
  if (d.hole_down) cards.push(cardBack());
  return el("section", { class: "hj-house", "aria-label": "the house's cards" },
    el("h3", {}, "The house"),
    el("div", { class: "hj-cards" }, cards.length ? cards : el("span", { class: "muted" }, "no cards yet")),
    d.cards.length ? el("div", { class: "muted" }, `shows ${d.points}${d.soft ? " (soft)" : ""}${d.hole_down ? " + a hole card" : ""}`) : null,
  );
}

function levers(v) {
  const items = [];
  if (v.levers.mark) items.push(`Mark on box ${v.levers.mark}`);
  if (v.levers.heavy) items.push("the Heavy is on");
  if (v.levers.heavy_spent && !v.levers.heavy) items.push("the Heavy is spent");
  if (v.levers.call) items.push("The Call");
  return el("section", { class: "hj-pending", "aria-label": "pending effects" },
    el("h3", {}, withHourglass("⏳ Pending")),
    items.length ? el("p", { class: "hj-levers" }, items.join(" · ")) : null,
    v.pending.length
      ? el("ul", {}, v.pending.map((p) => el("li", { "data-effect": p.key }, p.text)))
      : el("p", { class: "muted" }, "No effects waiting."),
  );
}

function boxes(payload) {
  const v = payload.view;
  return el("section", { class: "hj-boxes", "aria-label": "boxes" },
    v.boxes.map((b) => {
      const playingBox = v.playing && v.playing.box === b.id;
      const total = b.hands.reduce((sum, h) => sum + h.bet, 0);
      return el("div", { class: `hj-box${playingBox ? " playing" : ""}${b.seat === payload.seat ? " mine" : ""}`, "data-box": b.id },
        el("div", { class: "hj-box-head" },
          el("strong", {}, b.name),
          b.marked ? el("span", { class: "hj-badge mark" }, "MARK") : null,
          b.vanish ? el("span", { class: "hj-badge" }, "Vanish") : null,
          b.short_change ? el("span", { class: "hj-badge" }, "Short Change") : null,
        ),
        el("div", { class: "hj-box-bet" }, `bet ${total}`, b.backed ? ` (+${b.backed} backed)` : "", el("span", { class: "muted" }, ` · max ${b.table_max}`)),
        b.hands.map((h, i) =>
          el("div", { class: `hj-hand ${h.status}${playingBox && v.playing.hand === i ? " now" : ""}`, "data-hand": i },
            el("div", { class: "hj-cards" }, h.cards.map(card)),
            h.cards.length
              ? el("div", { class: "hj-hand-total" }, `${h.points}${h.soft ? " soft" : ""} · ${h.status}${h.doubled ? " · doubled" : ""}${h.split ? " · split" : ""}${b.hands.length > 1 ? ` · bet ${h.bet}` : ""}`)
              : null,
          ),
        ),
      );
    }),
  );
}

function abilityOptions(payload, key) {
  const out = [];
  payload.legal.forEach((a, i) => {
    if (a.type === "ability" && a.card === key) out.push({ action: a, label: payload.labels[i] || key });
  });
  return out;
}

function abilityCard(payload, ctx, info, mine) {
  const options = mine ? abilityOptions(payload, info.key) : [];
  const live = options.length > 0;
  const cls = ["hj-ability", info.spent ? "spent" : live ? "playable" : "idle"];
  const node = el("div", { class: cls.join(" "), "data-card": info.key },
    live ? el("div", { class: "hj-play-now" }, "PLAY NOW") : null,
    el("div", { class: "hj-ability-name" }, info.name),
    el("div", { class: "hj-ability-when" }, info.when),
    el("div", { class: "hj-ability-text" }, info.text),
    !live && !info.spent && info.reason ? el("div", { class: "hj-ability-reason" }, info.reason) : null,
    info.spent ? el("div", { class: "hj-ability-reason" }, "spent") : null,
  );
  if (live) {
    const row = el("div", { class: "hj-ability-options" },
      options.map((o) => el("button", {
        type: "button",
        class: "hj-ability-option",
        "data-action": JSON.stringify(o.action),
        onclick: () => ctx.act(o.action),
      }, options.length === 1 && o.action.box == null && o.action.index == null
        ? "Play"
        : targetWords(payload.view, payload.seat, o.action))),
    );
    node.append(row);
  }
  return node;
}

function playerCard(payload, ctx, crew, mine) {
  if (!crew.role) {
    return el("div", { class: "hj-player", "data-seat": crew.seat }, el("strong", {}, seatName(payload, crew.seat)), el("span", { class: "muted" }, " — no role yet"));
  }
  return el("div", { class: `hj-player${mine ? " mine" : ""}${crew.sitting_out ? " out" : ""}`, "data-seat": crew.seat },
    el("div", { class: "hj-player-head" }, el("strong", {}, nameWithRole(payload, crew)), crew.sitting_out ? el("span", { class: "muted" }, " (sitting out)") : null),
    el("div", { class: "hj-passive" }, el("strong", {}, crew.passive.name), `: ${crew.passive.text}`),
    el("div", { class: "hj-abilities" }, crew.cards.map((c) => abilityCard(payload, ctx, c, mine))),
  );
}

function settledPanel(v) {
  const s = v.settled;
  if (!s) return null;
  // Kept from settlement until the next deal: whoever pressed Next round, every
  // seat sees how the round ended while the next one bets.
  const later = v.phase === "bet" || v.phase === "call";
  return el("section", { class: "hj-settled", "aria-label": "the last round", "data-round": s.round },
    el("h3", {}, later ? `Last round (${s.round}): how it settled` : `Round ${s.round} settled`),
    el("div", { class: "hj-settled-house" },
      el("span", {}, "The house "), el("strong", {}, s.dealer.points),
      el("span", { class: "hj-cards" }, s.dealer.cards.map(card))),
    el("ul", { class: "hj-results" },
      s.results.map((r) => el("li", { class: `hj-result ${r.chips > 0 ? "won" : r.chips < 0 ? "lost" : "even"}` },
        el("span", { class: "hj-result-name" }, r.name),
        r.cards.length ? el("span", { class: "hj-cards" }, r.cards.map(card)) : null,
        r.result ? el("span", { class: "hj-result-what" }, `${r.points} ${r.result}`) : null,
        el("strong", { class: "hj-result-chips" }, r.chips > 0 ? `+${r.chips}` : `${r.chips}`),
      )),
    ),
    el("div", { class: "muted" }, `Take ${s.take}`),
  );
}

function legend() {
  const node = el("details", { class: "hj-legend", open: legendOpen },
    el("summary", {}, "Legend: what the table shows"),
    el("dl", {}, LEGEND.map(([mark, words]) => [el("dt", {}, withHourglass(mark)), el("dd", {}, words)])),
  );
  node.addEventListener("toggle", () => { legendOpen = node.open; });
  return node;
}

// When a card may be played, in a word or two (the player card says it in full).
const TIMING_SHORT = { before_deal: "before the deal", dealt: "after the deal", any: "any time" };

function roleCard(info, button) {
  return el("div", { class: "hj-role", "data-role": info.key },
    button,
    el("div", { class: "hj-role-summary" }, info.summary),
    el("div", { class: "hj-passive" }, el("strong", {}, `${info.passive.name} (always on)`), `: ${info.passive.text}`),
    el("ul", { class: "hj-role-cards" }, info.cards.map((c) =>
      el("li", {}, el("strong", {}, c.name), ` (${TIMING_SHORT[c.timing] || c.when}): ${c.text}`))),
  );
}

function crewmates(payload, ctx) {
  const others = payload.view.crew.filter((c) => c.seat !== payload.seat);
  return el("section", { class: "hj-mates", "aria-label": "the crew" },
    el("h3", {}, payload.seat ? "Your crewmates" : "The crew"),
    el("p", { class: "muted" }, "Hover or tap a name to read their cards."),
    others.map((c) => {
      const shown = openMate === c.seat;
      return el("div", { class: `hj-mate${shown ? " open" : ""}`, "data-seat": c.seat },
        el("button", {
          type: "button",
          class: "hj-mate-name",
          "aria-expanded": shown ? "true" : "false",
          onclick: (e) => {
            const box = e.currentTarget.parentElement;
            openMate = box.classList.toggle("open") ? c.seat : null;
            e.currentTarget.setAttribute("aria-expanded", openMate === c.seat ? "true" : "false");
          },
        }, nameWithRole(payload, c)),
        el("div", { class: "hj-mate-cards" }, playerCard(payload, ctx, c, false)),
      );
    }),
  );
}

function controls(payload, ctx) {
  const bar = el("section", { class: "hj-controls", "aria-label": "your moves" });
  if (!payload.seat) {
    bar.append(el("p", { class: "muted" }, "You are watching."));
    return bar;
  }
  const chips = [];
  const plays = [];
  const marks = [];
  const drafts = [];
  const others = [];
  payload.legal.forEach((a, i) => {
    const label = payload.labels[i] || a.type;
    if (a.type === "chips") chips.push([a, a.box ? `+${a.amount} (box ${a.box})` : `+${a.amount}`]);
    else if (a.type === "ability") return; // on the ability cards
    else if (a.type === "mark") marks.push([a, `Mark box ${a.box}`]);
    else if (a.type === "draft") {
      const role = (payload.view.roles || []).find((r) => r.key === a.role);
      drafts.push([a, `Take the ${role ? role.name : label.replace(/^draft /, "")}`]);
    }
    else if (PLAY_WORDS[a.type]) plays.push([a, PLAY_WORDS[a.type]]);
    else others.push([a, label]);
  });
  const button = ([a, label], cls) =>
    el("button", {
      type: "button",
      class: cls,
      "data-action": JSON.stringify(a),
      "data-amount": a.type === "chips" ? a.amount : undefined,
      onclick: () => ctx.act(a),
    }, label);
  if (drafts.length) {
    const about = Object.fromEntries((payload.view.roles || []).map((r) => [r.key, r]));
    bar.append(el("div", { class: "hj-drafts" }, el("span", { class: "hj-row-label" }, "Draft"),
      drafts.map((d) => (about[d[0].role] ? roleCard(about[d[0].role], button(d, "hj-draft")) : button(d, "hj-draft")))));
  }
  if (chips.length) bar.append(el("div", { class: "hj-row" }, el("span", { class: "hj-row-label" }, "Chips"), chips.map((c) => button(c, "hj-chip"))));
  const dealIn = plays.filter(([a]) => a.type === "deal_me_in");
  const rest = plays.filter(([a]) => a.type !== "deal_me_in");
  if (dealIn.length) bar.append(el("div", { class: "hj-row" }, dealIn.map((d) => button(d, "hj-deal-in primary"))));
  if (rest.length) bar.append(el("div", { class: "hj-row" }, rest.map((p) => button(p, `hj-play ${p[0].type}`))));
  if (marks.length) bar.append(el("div", { class: "hj-row" }, el("span", { class: "hj-row-label" }, "Caller"), marks.map((m) => button(m, "hj-mark"))));
  if (others.length) bar.append(el("div", { class: "hj-row" }, others.map((o) => button(o, "hj-other"))));
  if (!payload.legal.length) bar.append(el("p", { class: "muted" }, payload.outcome ? "The job is over." : "Waiting for the crew."));
  return bar;
}

function log(lines) {
  return el("section", { class: "hj-log", "aria-label": "log" },
    el("h3", {}, "Log"),
    el("ol", { class: "history-lines", reversed: true }, [...lines].reverse().map((l) => el("li", {}, l))),
  );
}

export function render(root, payload, ctx) {
  ensureStyles();
  const v = payload.view;
  const me = payload.seat ? v.crew.find((c) => c.seat === payload.seat) : null;
  const frame = el("div", { class: "hj" },
    banner(payload),
    el("div", { class: "hj-grid" },
      el("div", { class: "hj-table" },
        el("div", { class: "hj-top" }, takePanel(v), houseCards(v)),
        settledPanel(v),
        boxes(payload),
        controls(payload, ctx),
        me ? el("section", { class: "hj-me", "aria-label": "your player card" }, el("h3", {}, "Your player card"), playerCard(payload, ctx, me, true)) : null,
      ),
      el("div", { class: "hj-side" },
        levers(v),
        v.roles_open ? el("section", { class: "hj-roles" }, el("h3", {}, "Roles still open"), el("p", {}, v.roles_open.join(", ").replace(/_/g, " "))) : null,
        crewmates(payload, ctx),
        legend(),
        log(payload.history),
      ),
    ),
  );
  root.replaceChildren(frame);
}
