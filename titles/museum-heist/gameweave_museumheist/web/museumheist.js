// @ts-check
// Museum Heist in the browser: the board, the pieces and the cards, drawn from one
// seat's payload. Other seats' cards are not in that payload (only the seat's own
// card and the cards shown to it), so this file could not draw them if it tried.
//
// Exports render(root, payload, ctx), the Gameweave renderer contract.

import { confirmTap, el, touchScreen } from "/static/js/dom.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 44;
const PAD = 18;
const CHARACTERS = ["artist", "duchess", "tourist", "schoolgirl", "guard", "granny", "boy"];
const NAMES = {
  artist: "The Artist",
  duchess: "The Duchess",
  tourist: "The Tourist",
  schoolgirl: "The School Girl",
  guard: "The Guard",
  granny: "The Granny",
  boy: "The Little Boy",
};
const LETTERS = { artist: "A", duchess: "D", tourist: "T", schoolgirl: "S", guard: "G", granny: "N", boy: "B" };
// The rulebook names four colours; the other three are the project's (see the rulings).
const COLOURS = {
  artist: "#2e9e44",
  duchess: "#7b3fa8",
  tourist: "#f0a020",
  schoolgirl: "#d23a32",
  guard: "#2f62c9",
  granny: "#f4f4f4",
  boy: "#8a5a2b",
};

let selected = null; // the piece whose moves are shown, kept across redraws

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    node.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function ensureStyles() {
  if (document.getElementById("museumheist-css")) return;
  document.head.append(
    el("link", { id: "museumheist-css", rel: "stylesheet", href: new URL("./museumheist.css", import.meta.url).href }),
  );
}

function xy(board, square) {
  return [board.columns.indexOf(square[0]), Number(square.slice(1)) - 1];
}

function ink(character) {
  return character === "granny" ? "#222" : "#fff";
}

function dot(character) {
  const made = el("span", { class: "mh-dot" }, LETTERS[character]);
  // Set through the style object: the page's CSP refuses style attributes.
  made.style.background = COLOURS[character];
  made.style.color = ink(character);
  return made;
}

function card(character, attrs = {}, extra = null) {
  const tag = attrs.onclick ? "button" : "div";
  return el(tag, { class: "mh-card", "data-character": character, ...(tag === "button" ? { type: "button" } : {}), ...attrs },
    dot(character), NAMES[character], extra);
}

// -- the board ----------------------------------------------------------------------------

function drawBoard(payload, ctx, rerender) {
  const view = payload.view;
  const board = view.board;
  const size = board.size;
  const side = PAD + CELL * size + 4;
  const moves = payload.legal.filter((a) => a.type === "move");
  const places = payload.legal.filter((a) => a.type === "place");
  const movable = new Set(moves.map((a) => a.piece));
  if (selected && !movable.has(selected)) selected = null;
  const targets = new Map();
  for (const a of places) targets.set(a.at, a);
  if (selected) for (const a of moves) if (a.piece === selected) targets.set(a.to, a);
  const occupant = {};
  for (const [c, sq] of Object.entries(view.pieces)) occupant[sq] = c;
  const passages = new Set(board.passages);

  const root = svg("svg", { class: "mh-board", viewBox: `0 0 ${side} ${side}`, role: "img", "aria-label": "the board" });
  for (let i = 0; i < size; i++) {
    root.append(svg("text", { class: "mh-axis", x: PAD + CELL * i + CELL / 2, y: PAD / 2 }, board.columns[i]));
    root.append(svg("text", { class: "mh-axis", x: PAD / 2, y: PAD + CELL * i + CELL / 2 }, String(i + 1)));
  }
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const sq = `${board.columns[col]}${row + 1}`;
      const x = PAD + col * CELL;
      const y = PAD + row * CELL;
      const kind = passages.has(sq) ? "passage" : (col + row) % 2 ? "dark" : "light";
      const target = targets.get(sq);
      const g = svg("g", { class: `mh-square${target ? " target" : ""}`, "data-square": sq },
        svg("rect", { class: `mh-cell ${kind}`, x, y, width: CELL, height: CELL }),
        kind === "passage" && !occupant[sq] ? svg("text", { class: "mh-passage-word", x: x + CELL / 2, y: y + CELL - 7 }, "passage") : null,
      );
      if (target) {
        g.append(svg("rect", { class: "mh-target", x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6 }));
        g.addEventListener("click", () => {
          selected = null;
          ctx.act(target);
        });
      }
      root.append(g);
    }
  }
  if (view.artwork) {
    const [c, r] = xy(board, view.artwork);
    root.append(svg("g", { class: "mh-artwork", "data-square": view.artwork },
      svg("rect", { x: PAD + c * CELL + 9, y: PAD + r * CELL + 9, width: CELL - 18, height: CELL - 18 }),
      svg("text", { x: PAD + c * CELL + CELL / 2, y: PAD + r * CELL + CELL / 2 }, "★"),
    ));
  }
  for (const [character, sq] of Object.entries(view.pieces)) {
    const [c, r] = xy(board, sq);
    const cls = ["mh-piece", movable.has(character) ? "movable" : "", selected === character ? "selected" : ""].join(" ");
    const g = svg("g", { class: cls.trim(), "data-piece": character, "data-square": sq },
      svg("title", {}, `${NAMES[character]} on ${sq}`),
      svg("circle", { cx: PAD + c * CELL + CELL / 2, cy: PAD + r * CELL + CELL / 2, r: CELL / 2 - 6, fill: COLOURS[character] }),
      svg("text", { x: PAD + c * CELL + CELL / 2, y: PAD + r * CELL + CELL / 2, fill: ink(character) }, LETTERS[character]),
    );
    if (movable.has(character)) {
      g.addEventListener("click", () => {
        selected = selected === character ? null : character;
        rerender();
      });
    }
    root.append(g);
  }
  return root;
}

// -- panels ------------------------------------------------------------------------------

function yourCard(view) {
  const you = view.you;
  if (!you) return el("div", { class: "mh-panel" }, el("h3", {}, "Watching"), el("span", { class: "muted" }, "Spectators see no cards."));
  return el("div", { class: "mh-panel mh-you" },
    el("h3", {}, "Your card"),
    you.card
      ? el("div", { class: "mh-your-card" }, card(you.card), el("span", { class: "mh-hint" }, "Bring this piece onto the Artwork without giving yourself away."))
      : el("span", { class: "muted" }, "Not chosen yet."),
  );
}

function choosePanel(payload, ctx) {
  const choices = payload.legal.filter((a) => a.type === "choose");
  if (!choices.length) return null;
  return el("div", { class: "mh-panel mh-choose" },
    el("h3", {}, "Choose your character in secret"),
    el("div", { class: "mh-cards" }, choices.map((a) => card(a.character, { onclick: () => ctx.act(a) }))),
  );
}

function seatsPanel(payload) {
  const view = payload.view;
  const me = view.you ? view.you.seat : null;
  const out = new Set(view.out);
  const chosen = new Set(view.chosen);
  const label = (s) => ((payload.seats || []).find((x) => x.seat === s) || {}).label || `Seat ${s}`;
  const rows = view.tokens.map((tokens, i) => {
    const s = i + 1;
    const bits = [
      el("span", {}, label(s) + (s === me ? " (you)" : "")),
      el("span", { class: "mh-tokens", title: `${tokens} Artwork token(s)` }, "★".repeat(tokens) + "☆".repeat(Math.max(0, view.target - tokens))),
      el("span", { class: "muted" }, `swaps ${view.swaps[i]}`),
    ];
    if (view.phase === "choose") bits.push(el("span", { class: "muted" }, chosen.has(s) ? "has chosen" : "choosing…"));
    if (view.turn === s) bits.push(el("span", {}, view.phase === "place" ? "places the Artwork" : "to play"));
    const known = view.known[String(s)];
    if (known && s !== me) bits.push(el("span", { class: "mh-known", "data-seat": s }, "is ", dot(known), ` ${NAMES[known]}`));
    const ruled = view.ruled_out[String(s)];
    if (ruled && ruled.length) bits.push(el("span", { class: "muted" }, "not " + ruled.map((c) => LETTERS[c]).join("/")));
    return el("li", { class: `mh-seat${s === me ? " me" : ""}${out.has(s) ? " out" : ""}`, "data-seat": s }, bits);
  });
  return el("div", { class: "mh-panel" },
    el("h3", {}, `Players — ${view.target} Artwork tokens win · ${view.supply} left in the box`),
    el("ul", { class: "mh-seats" }, rows),
  );
}

function challengePanel(payload, ctx) {
  const challenges = payload.legal.filter((a) => a.type === "challenge");
  if (!challenges.length) return null;
  const bySeat = new Map();
  for (const a of challenges) {
    if (!bySeat.has(a.seat)) bySeat.set(a.seat, []);
    bySeat.get(a.seat).push(a);
  }
  // A wrong challenge puts you out of the round: each button names the character
  // in full, and on a touch screen a second tap confirms it.
  const button = (seat, a) => confirmTap(
    el("button", { type: "button", class: "mh-challenge", "data-seat": seat, "data-character": a.character, title: `Challenge seat ${seat}: ${NAMES[a.character]}` },
      dot(a.character), NAMES[a.character].replace(/^The /, "")),
    `Tap again: Seat ${seat} is ${NAMES[a.character]}?`,
    () => ctx.act(a),
  );
  return el("div", { class: "mh-panel mh-challenges" },
    el("h3", {}, "Challenge (a wrong guess puts you out of the round)"),
    [...bySeat.entries()].map(([seat, acts]) =>
      el("div", { class: "mh-challenge-row", "data-seat": seat },
        el("span", { class: "mh-challenge-who" }, `Seat ${seat} is`),
        acts.map((a) => button(seat, a)),
      ),
    ),
  );
}

function swapPanel(payload, ctx) {
  const swaps = payload.legal.filter((a) => a.type === "swap");
  if (!swaps.length) return null;
  const pick = (name, initial) => el("select", { class: `mh-swap-${name}`, "aria-label": `${name} piece` },
    CHARACTERS.map((c) => el("option", { value: c, ...(c === initial ? { selected: true } : {}) }, NAMES[c])));
  const first = pick("first", "artist");
  const second = pick("second", "duchess");
  const go = () => {
    const [a, b] = [first.value, second.value].sort((x, y) => CHARACTERS.indexOf(x) - CHARACTERS.indexOf(y));
    const action = swaps.find((s) => s.first === a && s.second === b);
    if (action) ctx.act(action);
  };
  return el("div", { class: "mh-panel" },
    el("h3", {}, `Spend a Swap token (${payload.view.swaps[payload.view.you.seat - 1]} left)`),
    el("div", { class: "mh-swap" }, first, el("span", {}, "⇄"), second, el("button", { type: "button", class: "mh-swap-go", onclick: go }, "Swap")),
  );
}

function factsPanel(view) {
  const facts = [];
  if (view.rested.length) facts.push(`May use the passage they began on: ${view.rested.map((c) => NAMES[c]).join(", ")}`);
  if (view.moves.length) {
    const m = view.moves[view.moves.length - 1];
    facts.push(`Last move: Seat ${m.seat} moved ${NAMES[m.piece]} ${m.from} → ${m.to}`);
  }
  if (view.last) {
    const shown = Object.entries(view.last.revealed).map(([s, c]) => `Seat ${s} ${NAMES[c]}`).join(", ");
    facts.push(`Round ${view.last.round} went to Seat ${view.last.winner} (${view.last.how})${shown ? ": " + shown : ""}`);
    const seen = Object.entries(view.last.shown_to_you || {}).map(([s, c]) => `Seat ${s} ${NAMES[c]}`).join(", ");
    if (seen) facts.push(`Shown to you alone that round: ${seen}`);
  }
  if (view.winner) facts.push(`Seat ${view.winner} wins the game.`);
  if (!facts.length) return null;
  return el("div", { class: "mh-panel" }, el("ul", { class: "mh-facts" }, facts.map((f) => el("li", {}, f))));
}

function hint(payload) {
  const legal = payload.legal;
  const tap = touchScreen() ? "Tap" : "Click";
  if (!legal.length) return payload.outcome ? "The game is over." : payload.seat ? "Waiting for the others." : "You are watching.";
  if (legal[0].type === "place") return `${tap} an outlined square to place the Artwork.`;
  if (legal[0].type === "choose") return "Pick a card: nobody else sees which.";
  return selected ? `${tap} an outlined square to move ${NAMES[selected]}, or another piece.` : `${tap} a piece to see where it may go, or challenge, or swap.`;
}

function history(lines) {
  return el("section", { class: "mh-panel mh-history", "aria-label": "history" },
    el("h3", {}, "History"),
    el("ol", { reversed: true }, [...lines].reverse().map((l) => el("li", {}, l))),
  );
}

export function render(root, payload, ctx) {
  ensureStyles();
  const view = payload.view;
  const rerender = () => render(root, payload, ctx);
  const frame = el("div", { class: "mh", "data-phase": view.phase },
    el("div", { class: "mh-top" },
      el("span", { class: "mh-phase" }, `Round ${view.round}: ${view.phase_text}`),
      el("span", { class: "mh-hint" }, hint(payload)),
    ),
    el("div", { class: "mh-body" },
      el("div", { class: "mh-main" }, el("div", { class: "mh-board-box" }, drawBoard(payload, ctx, rerender))),
      el("div", { class: "mh-side" }, yourCard(view), choosePanel(payload, ctx), seatsPanel(payload), challengePanel(payload, ctx), swapPanel(payload, ctx), factsPanel(view), history(payload.history)),
    ),
  );
  root.replaceChildren(frame);
}
