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
    el("h3", {}, "Pending"),
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
      }, options.length === 1 ? "Play" : o.label.replace(/^play [a-z ]+? (box|card)/, "$1"))),
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
    else if (a.type === "draft") drafts.push([a, `Take the ${label.replace(/^draft /, "")}`]);
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
  if (drafts.length) bar.append(el("div", { class: "hj-row" }, el("span", { class: "hj-row-label" }, "Draft"), drafts.map((d) => button(d, "hj-draft"))));
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
        boxes(payload),
        controls(payload, ctx),
        me ? el("section", { class: "hj-me", "aria-label": "your player card" }, el("h3", {}, "Your player card"), playerCard(payload, ctx, me, true)) : null,
      ),
      el("div", { class: "hj-side" },
        levers(v),
        v.roles_open ? el("section", { class: "hj-roles" }, el("h3", {}, "Roles still open"), el("p", {}, v.roles_open.join(", ").replace(/_/g, " "))) : null,
        crewmates(payload, ctx),
        log(payload.history),
      ),
    ),
  );
  root.replaceChildren(frame);
}
