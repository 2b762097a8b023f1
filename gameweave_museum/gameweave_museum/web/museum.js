// @ts-check
// The Museum Job in the browser: the Quayside Palace drawn from one seat's view.
//
// Everything here comes from the payload the server built for this seat: Security
// and spectators never receive the Thief's square, route or satchel, so this file
// could not draw them if it tried. The Thief's own payload carries a `thief`
// section (and everyone's carries `reveal` once the heist is over).
//
// Exports render(root, payload, ctx), the Gameweave renderer contract.

// The host page's DOM helper: every renderer builds its nodes the same way.
import { el } from "/static/js/dom.js";
// What each choice means, from the rules' `actions` topic (as the terminal's first prompts).
import { explainChoice, loadRules, rulesIfLoaded } from "/static/js/rules.js";
// The map's symbols (glyph, name, colour, meaning of each kind of square), generated
// from gameweave_museum/symbols.py: the terminal and the docs draw the same.
import { SYMBOLS } from "./symbols.js";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 34;
const KIND = Object.fromEntries(SYMBOLS.squares.map((s) => [s.kind, s]));
const EVIDENCE = Object.fromEntries(SYMBOLS.evidence.map((s) => [s.kind, s]));

// The glyph of a kind, with a thing's number in place of its "1" (G3, c7).
function glyph(kind, number) {
  const text = KIND[kind].glyph;
  return number === undefined ? text : text.replace("1", String(number));
}

function colour(kind) {
  return KIND[kind].colour;
}
const SIMPLE_ACTIONS = {
  hold: "Hold (stay put)",
  lift: "Lift the artifact",
  pick: "Pick the lock",
  cut: "Cut it",
  escape: "Escape!",
};

let hovered = null; // the square whose details are shown, kept across redraws
let legendOpen = false; // the legend stays open (or shut) across redraws
let scrolled = null; // how far a phone's map is scrolled sideways, kept across redraws

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

let stylesLoaded = null; // resolves once museum.css applies (the map's size depends on it)

function ensureStyles() {
  if (!stylesLoaded) {
    const link = el("link", { id: "museum-css", rel: "stylesheet", href: new URL("./museum.css", import.meta.url).href });
    stylesLoaded = new Promise((resolve) => {
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
    });
    document.head.append(link);
  }
  return stylesLoaded;
}

function xy(board, square) {
  const col = board.columns.indexOf(square[0]);
  const row = Number(square.slice(1)) - 1;
  return [col, row];
}

function centre(board, square) {
  const [c, r] = xy(board, square);
  return [c * CELL + CELL / 2, r * CELL + CELL / 2];
}

// -- what the seat may do, by square ------------------------------------------------

function squareOf(action) {
  return action.to || action.at || action.exit || null;
}

function optionLabel(action, payload) {
  switch (action.type) {
    case "walk":
      if (action.then === "cut") return `Walk to ${action.to} + cut`;
      if (action.then === "escape") return `Walk to ${action.to} + escape`;
      return `Walk to ${action.to}`;
    case "guard":
      return `Guard ${action.guard} to ${action.to}`;
    case "post": {
      const seat = payload.seats.find((s) => s.seat === action.seat);
      return `Post guard ${action.guard} here (${seat ? seat.label.split(" (")[0] : "seat " + action.seat})`;
    }
    case "enter":
      return `Break in at ${action.exit}`;
    default:
      return SIMPLE_ACTIONS[action.type] || action.type;
  }
}

function actionsBySquare(payload) {
  const out = new Map();
  payload.legal.forEach((action) => {
    const sq = squareOf(action);
    if (!sq) return;
    if (!out.has(sq)) out.set(sq, []);
    out.get(sq).push(action);
  });
  return out;
}

// -- the details of one square, for hover / press-and-hold ----------------------------

function describeSquare(view, square) {
  const b = view.board;
  const lines = [];
  let wing = null;
  for (const [name, squares] of Object.entries(b.wings)) if (squares.includes(square)) wing = name;
  if (b.walls.includes(square)) return [`${square}: wall`];
  lines.push(`${square}${wing ? ` · ${wing} wing` : ""}`);
  if (b.office.includes(square)) {
    lines.push(`Security Office: monitors ${view.monitors_watched ? "watched" : "not watched"} now`);
  }
  const placard = view.placards.find((p) => p.case === square);
  if (placard) {
    const state = placard.status === "gone" ? `gone (taken in round ${placard.taken_round})` : "on display";
    lines.push(`${placard.kind === "vault" ? "Vault case" : "Display case"}: ${placard.name}, worth ${placard.value}${placard.heavy ? ", heavy" : ""} — ${state}`);
  }
  const cam = b.cameras.find((c) => c.at === square);
  if (cam) {
    const st = view.cameras.find((c) => c.number === cam.number);
    lines.push(`Camera ${cam.number}: ${st.status}${st.checked_round ? `, last seen working in round ${st.checked_round}` : ""}`);
  }
  const watching = b.cameras.filter((c) => c.covers.includes(square)).map((c) => {
    const st = view.cameras.find((s) => s.number === c.number);
    return `${c.number} (${st.status})`;
  });
  if (watching.length) lines.push(`Watched by camera ${watching.join(", ")}`);
  const breaker = b.breakers.find((x) => x.at === square);
  if (breaker) {
    const st = view.breakers.find((x) => x.wing === breaker.wing);
    lines.push(`Breaker of the ${breaker.wing} wing: ${st.status}${st.checked_round ? `, checked in round ${st.checked_round}` : ""}`);
  }
  if (b.posts.includes(square)) lines.push("Guard post");
  const exit = b.exits.find((e) => e.at === square);
  if (exit) lines.push(`Exit: ${exit.name} (${exit.kind})`);
  for (const g of view.guards) if (g.at === square) lines.push(`Guard ${g.number} is here`);
  for (const e of view.evidence) {
    if (e.at !== square) continue;
    const info = EVIDENCE[e.kind] || { name: e.kind };
    let text = `Evidence: ${info.name} in round ${e.round}`;
    if (e.since) text += ` (happened in rounds ${e.since}-${e.round})`;
    if (e.how) text += ` by ${e.how}`;
    lines.push(text);
  }
  const thief = view.thief || view.reveal;
  if (thief) {
    if (thief.at === square) lines.push("The Thief is here");
    if (thief.route && thief.route.includes(square)) lines.push("On the Thief's route");
    if (thief.open_exits && thief.open_exits.includes(square)) lines.push("Forced open by the Thief");
  }
  if (lines.length === 1) lines.push("Open floor; nothing learned here");
  return lines;
}

// -- the map ----------------------------------------------------------------------

function drawMap(payload, ctx, root) {
  const view = payload.view;
  const b = view.board;
  const W = b.width * CELL;
  const H = b.height * CELL;
  const pad = 18;
  const map = svg("svg", {
    class: "mj-map",
    viewBox: `${-pad} ${-pad} ${W + pad} ${H + pad}`,
    role: "img",
    "aria-label": `floor plan of ${b.name}`,
  });
  const thief = view.thief || view.reveal || null;
  const wingOf = new Map();
  for (const [name, squares] of Object.entries(b.wings)) for (const sq of squares) wingOf.set(sq, name);
  const walls = new Set(b.walls);
  const office = new Set(b.office);
  const targets = actionsBySquare(payload);
  const live = new Set();
  for (const cam of b.cameras) {
    const st = view.cameras.find((c) => c.number === cam.number);
    if (st && st.status === "working") for (const sq of cam.covers) live.add(sq);
  }
  // What the monitors show now: working cameras' squares, while a guard is in the Office.
  const watched = view.monitors_watched ? live : new Set();
  const covered = new Set(b.cameras.flatMap((c) => c.covers));

  // Column letters and row numbers.
  for (let c = 0; c < b.width; c++) {
    map.append(svg("text", { x: c * CELL + CELL / 2, y: -5, class: "mj-axis" }, b.columns[c]));
  }
  for (let r = 0; r < b.height; r++) {
    map.append(svg("text", { x: -9, y: r * CELL + CELL / 2 + 4, class: "mj-axis" }, r + 1));
  }

  const squares = svg("g", { class: "mj-squares" });
  for (let r = 0; r < b.height; r++) {
    for (let c = 0; c < b.width; c++) {
      const sq = `${b.columns[c]}${r + 1}`;
      const classes = ["mj-square"];
      let fill = SYMBOLS.wings[wingOf.get(sq)] || "#eee";
      if (walls.has(sq)) {
        classes.push("wall");
        fill = colour("wall");
      }
      if (office.has(sq)) classes.push("office");
      if (targets.has(sq)) classes.push("target");
      if (hovered === sq) classes.push("hovered");
      const g = svg("g", { class: classes.join(" "), "data-square": sq, transform: `translate(${c * CELL},${r * CELL})` });
      g.append(svg("rect", { width: CELL, height: CELL, fill, class: "mj-floor" }));
      if (office.has(sq)) g.append(svg("rect", { width: CELL, height: CELL, class: "mj-office", fill: colour("office") }));
      if (live.has(sq)) g.append(svg("rect", { width: CELL, height: CELL, class: "mj-coverage", fill: colour("watched") }));
      else if (covered.has(sq) && !walls.has(sq)) g.append(svg("rect", { width: CELL, height: CELL, class: "mj-coverage off" }));
      if (watched.has(sq)) {
        classes.push("watched");
        g.setAttribute("class", classes.join(" "));
        // A glyph as well as a shade, as in the terminal.
        g.append(svg("text", { x: CELL - 6, y: 11, class: "mj-watched", fill: colour("watched") }, glyph("watched")));
      }
      if (thief && thief.route && thief.route.includes(sq)) g.append(svg("rect", { width: CELL, height: CELL, class: "mj-route-square" }));
      if (targets.has(sq)) g.append(svg("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, class: "mj-target" }));
      g.addEventListener("pointerenter", () => showInfo(view, sq, root));
      g.addEventListener("click", (event) => {
        showInfo(view, sq, root);
        if (targets.has(sq)) openMenu(payload, ctx, root, sq, targets.get(sq), event);
      });
      // Press and hold on a touch screen tells what is there without acting.
      let timer = null;
      g.addEventListener("touchstart", () => (timer = setTimeout(() => showInfo(view, sq, root), 450)), { passive: true });
      g.addEventListener("touchend", () => clearTimeout(timer));
      squares.append(g);
    }
  }
  map.append(squares);

  const things = svg("g", { class: "mj-things", "pointer-events": "none" });
  // The Office label.
  if (b.office.length) {
    const xs = b.office.map((s) => centre(b, s));
    const cx = xs.reduce((a, p) => a + p[0], 0) / xs.length;
    const cy = xs.reduce((a, p) => a + p[1], 0) / xs.length;
    things.append(svg("text", { x: cx, y: cy + 4, class: "mj-office-label", fill: colour("office") }, "OFFICE"));
  }
  for (const post of b.posts) {
    const [x, y] = centre(b, post);
    things.append(svg("text", { x: x - 10, y: y - 7, class: "mj-post", fill: colour("post") }, glyph("post")));
  }
  for (const exit of b.exits) {
    const [x, y] = centre(b, exit.at);
    const open = thief && thief.open_exits && thief.open_exits.includes(exit.at);
    const forced = view.evidence.some((e) => e.kind === "forced_exit" && e.at === exit.at);
    const kind = KIND[exit.kind] ? exit.kind : "door";
    things.append(
      svg("g", { class: `mj-exit${open ? " open" : ""}${forced ? " forced" : ""}`, "data-exit": exit.at, "data-kind": kind },
        svg("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: 3, stroke: colour(kind) }),
        svg("text", { x, y: y + 5, fill: colour(kind) }, glyph(kind)),
      ),
    );
  }
  for (const brk of b.breakers) {
    const [x, y] = centre(b, brk.at);
    const st = view.breakers.find((s) => s.wing === brk.wing);
    things.append(
      svg("g", { class: `mj-breaker ${st ? st.status : ""}`, "data-breaker": brk.wing, "data-kind": "breaker" },
        svg("rect", { x: x - 10, y: y - 12, width: 20, height: 24, rx: 2, stroke: colour("breaker") }),
        svg("text", { x, y: y + 5, fill: colour("breaker") }, glyph("breaker")),
      ),
    );
  }
  for (const cam of b.cameras) {
    const [x, y] = centre(b, cam.at);
    const st = view.cameras.find((s) => s.number === cam.number);
    things.append(
      svg("g", { class: `mj-camera ${st ? st.status : ""}`, "data-camera": cam.number, "data-kind": "camera" },
        svg("circle", { cx: x, cy: y, r: 13, fill: colour("camera") }),
        svg("text", { x, y: y + 4 }, glyph("camera", cam.number)),
      ),
    );
  }
  for (const pl of view.placards) {
    const [x, y] = centre(b, pl.case);
    const gone = pl.status === "gone";
    const kind = gone ? "empty" : pl.kind === "vault" ? "vault" : "case";
    things.append(
      svg("g", { class: `mj-case ${pl.kind}${gone ? " gone" : ""}`, "data-case": pl.case, "data-kind": kind },
        svg("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: pl.kind === "vault" ? 1 : 5, stroke: colour(kind) }),
        svg("text", { x: x - 2, y: y + 5, fill: colour(kind) }, glyph(kind)),
        gone ? null : svg("text", { x: x + 8, y: y + 10, class: "mj-value" }, pl.value),
      ),
    );
  }
  // Evidence tokens sit in the square's corner, several side by side.
  const perSquare = new Map();
  for (const ev of view.evidence) {
    const n = perSquare.get(ev.at) || 0;
    perSquare.set(ev.at, n + 1);
    const [c, r] = xy(b, ev.at);
    const x = c * CELL + 7 + (n % 3) * 10;
    const y = r * CELL + CELL - 7 - Math.floor(n / 3) * 10;
    const info = EVIDENCE[ev.kind] || { glyph: "?", colour: colour("last_seen") };
    const latest = view.last_seen && ev.kind === "last_seen" && ev.at === view.last_seen.at && ev.round === view.last_seen.round;
    things.append(
      svg("g", { class: `mj-evidence ${ev.kind}${latest ? " latest" : ""}`, "data-evidence": ev.kind },
        svg("circle", { cx: x, cy: y, r: 6, stroke: info.colour, fill: latest ? info.colour : "#fff" }),
        svg("text", { x, y: y + 3, fill: latest ? "#fff" : info.colour }, info.glyph),
      ),
    );
  }
  // The Thief's route and the Thief: only ever in the Thief's own payload (or at the end).
  if (thief && thief.route && thief.route.length > 1) {
    const points = thief.route.map((s) => centre(b, s).join(",")).join(" ");
    things.append(svg("polyline", { points, class: "mj-route" }));
  }
  for (const g of view.guards) {
    const [x, y] = centre(b, g.at);
    const moving = view.guard_to_move === g.number;
    things.append(
      svg("g", { class: `mj-guard${moving ? " moving" : ""}`, "data-guard": g.number, "data-kind": "guard" },
        svg("circle", { cx: x, cy: y, r: 13, fill: colour("guard") }),
        svg("text", { x, y: y + 5 }, glyph("guard", g.number)),
      ),
    );
  }
  if (thief && thief.at) {
    const [x, y] = centre(b, thief.at);
    things.append(
      svg("g", { class: "mj-thief", "data-thief": thief.at, "data-kind": "thief" },
        svg("circle", { cx: x, cy: y, r: 13, fill: colour("thief") }),
        svg("text", { x, y: y + 5 }, glyph("thief")),
      ),
    );
  }
  map.append(things);
  return map;
}

// -- the action menu of a square ----------------------------------------------------------

function openMenu(payload, ctx, root, square, options, event) {
  const old = root.querySelector(".mj-menu");
  if (old) old.remove();
  const box = root.querySelector(".mj-map-box");
  const rect = box.getBoundingClientRect();
  const menu = el("div", { class: "mj-menu", role: "menu", "data-square": square },
    el("div", { class: "mj-menu-title" }, square),
    options.map((action) =>
      el("div", { class: "mj-option-row", "data-label": typedForm(payload, action) },
        el("button", {
          type: "button",
          role: "menuitem",
          class: "mj-option",
          "data-action": JSON.stringify(action),
          onclick: (e) => {
            e.stopPropagation();
            ctx.act(action);
          },
        }, optionLabel(action, payload)),
      ),
    ),
    el("button", { type: "button", class: "mj-cancel", onclick: (e) => { e.stopPropagation(); menu.remove(); } }, "Cancel"),
  );
  const x = Math.min(Math.max(0, event.clientX - rect.left + 8), Math.max(0, rect.width - 200));
  const y = Math.max(0, event.clientY - rect.top + 8);
  // The menu's position is set through the CSSOM, which the page's Content-Security-Policy allows.
  menu.style.left = `${x}px`;
  menu.style.top = `${y}px`;
  box.append(menu);
  explain(menu, payload.title);
}

// The action as a terminal player types it (the server's label for it).
function typedForm(payload, action) {
  const i = payload.legal.indexOf(action);
  return i >= 0 && payload.labels ? payload.labels[i] || "" : "";
}

// Under each choice in `node` (marked with data-label), what it does.
function explain(node, title) {
  const fill = (topics) => {
    for (const row of node.querySelectorAll("[data-label]")) {
      if (row.querySelector(".mj-help")) continue;
      const help = explainChoice(topics, row.dataset.label);
      if (help) row.append(el("span", { class: "mj-help" }, help));
    }
  };
  const topics = rulesIfLoaded(title);
  if (topics) fill(topics);
  else loadRules(title).then(fill);
}

function showInfo(view, square, root) {
  hovered = square;
  const box = root.querySelector(".mj-info");
  if (!box) return;
  box.replaceChildren(...describeSquare(view, square).map((line, i) => el(i ? "div" : "strong", {}, line)));
  root.querySelectorAll(".mj-square.hovered").forEach((n) => n.classList.remove("hovered"));
  const g = root.querySelector(`.mj-square[data-square="${square}"]`);
  if (g) g.classList.add("hovered");
}

// -- the legend: every symbol of the map, opened by a tap (phones cannot hover) -----------

function swatch(sym, number) {
  const node = el("span", { class: "mj-glyph", "aria-hidden": "true" }, number === undefined ? sym.glyph : sym.glyph.replace("1", String(number)));
  node.style.color = sym.colour; // CSSOM, which the CSP allows (a style="" attribute it would not)
  return node;
}

function legend() {
  const box = el("details", { class: "mj-legend", "aria-label": "legend" },
    el("summary", {}, "Legend"),
    el("h4", {}, "On the map"),
    el("ul", { class: "mj-legend-squares" }, SYMBOLS.squares.map((sym) =>
      el("li", { "data-kind": sym.kind }, swatch(sym), el("span", {}, el("strong", { class: "mj-legend-name" }, sym.name), ` — ${sym.meaning}`)))),
    el("h4", {}, "Evidence (small marks in a square's corner)"),
    el("ul", { class: "mj-legend-evidence" }, SYMBOLS.evidence.map((sym) =>
      el("li", { "data-kind": sym.kind }, swatch(sym), el("span", {}, el("strong", { class: "mj-legend-name" }, sym.name), ` — ${sym.meaning}`)))),
    el("h4", {}, "Wings (the floor's tint)"),
    el("div", { class: "mj-wings" }, Object.entries(SYMBOLS.wings).map(([name, tint]) => {
      const chip = el("span", { class: "mj-wing" }, name);
      chip.style.backgroundColor = tint;
      return chip;
    })),
    el("p", { class: "muted" }, "A tinted square is one a working camera covers; a dashed outline is a square you can act on. Tap a square to see what is there."),
  );
  box.open = legendOpen;
  box.addEventListener("toggle", () => (legendOpen = box.open));
  return box;
}

// -- the panels around the map -------------------------------------------------------------

function dawnTrack(view) {
  // "Dawn in d" counts the rounds still to play, this one included.
  const total = view.round + view.dawn - 1;
  const cells = [];
  for (let r = 1; r <= total; r++) {
    const cls = r < view.round ? "past" : r === view.round ? "now" : "future";
    cells.push(el("span", { class: `mj-dawn-cell ${cls}`, title: `round ${r}` }, r));
  }
  cells.push(el("span", { class: "mj-dawn-cell sun", title: "dawn" }, "☀"));
  return el("div", { class: "mj-dawn", "aria-label": "dawn track" },
    el("span", { class: "mj-dawn-label" }, `Round ${view.round} · dawn in ${view.dawn}`), el("div", { class: "mj-dawn-cells" }, cells));
}

function thiefPanel(view) {
  const t = view.thief;
  if (!t) return null;
  return el("section", { class: "mj-panel mj-thief-panel", "aria-label": "your satchel" },
    el("h3", {}, "You, the Thief"),
    t.at ? el("p", {}, `You are at ${t.at}; you broke in at ${t.entry}.`) : el("p", {}, "Choose an exit to break in."),
    t.walk !== undefined ? el("p", {}, `You may walk ${t.walk} this turn.`) : null,
    el("p", {}, `Satchel worth ${t.satchel_value} (you need ${t.escape_value} to escape).`),
    t.carrying.length
      ? el("ul", { class: "mj-satchel" }, t.carrying.map((a) => el("li", {}, `${a.name} — ${a.value}${a.heavy ? " (heavy)" : ""}`)))
      : el("p", { class: "muted" }, "Your satchel is empty."),
    t.cut_cameras.length || t.cut_breakers.length
      ? el("p", {}, "Cut: ",
          [...t.cut_cameras.map((c) => `camera ${c.number} (round ${c.round}${c.found ? ", found" : ""})`),
            ...t.cut_breakers.map((c) => `${c.wing} breaker (round ${c.round}${c.found ? ", found" : ""})`)].join(", "))
      : null,
    t.open_exits.length ? el("p", {}, `Open exits: ${t.open_exits.join(", ")}`) : null,
  );
}

function revealPanel(view) {
  const r = view.reveal;
  if (!r) return null;
  return el("section", { class: "mj-panel mj-reveal", "aria-label": "the night revealed" },
    el("h3", {}, "The night revealed"),
    el("p", {}, `The Thief broke in at ${r.entry || "?"} and ended at ${r.at || "?"}; route: ${r.route.join(" → ")}.`),
    el("p", {}, `Satchel: ${r.satchel.map((a) => `${a.name} (${a.value})`).join(", ") || "empty"}; worth ${r.satchel_value}.`),
  );
}

function placards(view) {
  return el("section", { class: "mj-panel mj-placards", "aria-label": "placards" },
    el("h3", {}, "Placards"),
    el("ul", {}, view.placards.map((p) =>
      el("li", { class: p.status === "gone" ? "gone" : "", "data-case": p.case },
        el("strong", {}, p.name), ` — ${p.value}${p.heavy ? ", heavy" : ""}, ${p.kind} case ${p.case}: `,
        p.status === "gone" ? `gone (round ${p.taken_round})` : "on display"),
    )),
  );
}

function equipment(view) {
  return el("section", { class: "mj-panel mj-equipment", "aria-label": "cameras and breakers" },
    el("h3", {}, "Cameras and breakers"),
    el("ul", {},
      view.cameras.map((c) => el("li", { class: c.status }, `Camera ${c.number}: ${c.status}${c.checked_round ? ` (checked round ${c.checked_round})` : ""}`)),
      view.breakers.map((b) => el("li", { class: b.status }, `${b.wing} breaker: ${b.status}${b.checked_round ? ` (checked round ${b.checked_round})` : ""}`)),
    ),
    el("p", { class: "muted" }, `Office monitors ${view.monitors_watched ? "are watched" : "are not watched"}.`),
  );
}

function history(lines) {
  return el("section", { class: "mj-panel mj-history", "aria-label": "history" },
    el("h3", {}, "History"),
    el("ol", { reversed: true, class: "history-lines" }, [...lines].reverse().map((l) => el("li", {}, l))),
  );
}

function actionBar(payload, ctx) {
  const simple = payload.legal.filter((a) => !squareOf(a));
  const mapActions = payload.legal.length - simple.length;
  const bar = el("div", { class: "mj-actions", "aria-label": "actions" });
  if (!payload.legal.length) {
    bar.append(el("span", { class: "muted" }, payload.outcome ? "The heist is over." : payload.seat ? "Waiting for the others." : "You are watching."));
    return bar;
  }
  if (mapActions) bar.append(el("span", { class: "mj-hint" }, "Tap an outlined square to act there."));
  for (const action of simple) {
    bar.append(
      el("span", { class: "mj-simple-row", "data-label": typedForm(payload, action) },
        el("button", { type: "button", class: "mj-simple", "data-action": JSON.stringify(action), onclick: () => ctx.act(action) }, optionLabel(action, payload)),
      ),
    );
  }
  explain(bar, payload.title);
  return bar;
}

export function render(root, payload, ctx) {
  const styled = ensureStyles();
  const view = payload.view;
  const you = view.you || {};
  let role = "a spectator";
  if (you.role === "Thief") role = "the Thief";
  else if (you.role === "Security") {
    const guards = you.guards || [];
    role = guards.length ? `Security (guard${guards.length > 1 ? "s" : ""} ${guards.join(", ")})` : "Security";
  }
  const mapBox = el("div", { class: "mj-map-box" });
  const scroller = el("div", { class: "mj-map-scroll" });
  scroller.addEventListener("scroll", () => (scrolled = scroller.scrollLeft), { passive: true });
  mapBox.append(scroller);
  const frame = el("div", { class: `mj ${you.role ? you.role.toLowerCase() : ""}` },
    el("div", { class: "mj-top" },
      el("span", { class: "mj-phase" }, view.phase_text),
      el("span", { class: "muted" }, ` · you are ${role}`),
      view.guard_to_move ? el("span", { class: "muted" }, ` · guard ${view.guard_to_move} to move`) : null,
    ),
    dawnTrack(view),
    el("div", { class: "mj-body" },
      el("div", { class: "mj-main" }, mapBox, legend(), actionBar(payload, ctx), el("div", { class: "mj-info", "aria-live": "polite" }, "Tap (or point at) a square to see what is there.")),
      el("div", { class: "mj-side" }, thiefPanel(view), revealPanel(view), history(payload.history)),
    ),
    el("div", { class: "mj-below" }, placards(view), equipment(view)),
  );
  scroller.append(drawMap(payload, ctx, frame));
  // Shown by the stylesheet only where the map scrolls (a phone): the columns off
  // the screen are easy to forget.
  const columns = view.board.columns;
  mapBox.append(el("div", { class: "mj-swipe muted" }, `Swipe the map sideways for columns ${columns[0]} to ${columns[columns.length - 1]}.`));
  root.replaceChildren(frame);
  const place = () => {
    if (!scroller.isConnected || scroller.scrollWidth <= scroller.clientWidth) return;
    if (scrolled === null) {
      // First drawn on a narrow screen: show the part of the map where this seat acts.
      const here = (view.thief && view.thief.at) || [...actionsBySquare(payload).keys()][0];
      if (!here) return;
      const [c] = xy(view.board, here);
      scrolled = Math.max(0, ((c + 0.5) / view.board.width) * scroller.scrollWidth - scroller.clientWidth / 2);
    }
    scroller.scrollLeft = scrolled;
  };
  place();
  styled.then(place); // the first time, the map takes its size once the stylesheet applies
  if (hovered) showInfo(view, hovered, frame);
}
