// @ts-check
// The lobby: pick a title and the players, mark bot seats, create the match and
// hand out one secret link per seat. The matches created in this browser are kept
// in localStorage with their links (and the host token that can reissue them), so
// a reload or a closed tab never loses a seat.

import { api } from "./api.js";
import { byId, el, clear, confirmTap, copyText, messageOf } from "./dom.js";
import { mountRules } from "./rules.js";
import { forget, keep, kept, replaceLink } from "./kept.js";

const select = byId("title-select", HTMLSelectElement);
const players = byId("players", HTMLInputElement);
const seatsBox = byId("seats");
const errorBox = byId("error");
/** @type {any[]} */
let titles = [];
/** @type {string | null} */
let currentMatch = null; // the match whose links the Links card shows

/**
 * A seat row's bot box and bot name.
 * @param {Element} row
 */
function botChoice(row) {
  const check = /** @type {HTMLInputElement} */ (row.querySelector(".bot-check"));
  const name = /** @type {HTMLSelectElement} */ (row.querySelector(".bot-name"));
  return { check, name };
}

function current() {
  return titles.find((t) => t.name === select.value);
}

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

// A label such as "Security 2" names seat 2's side, not a second Security player:
// the lobby shows the role ("Security") with "seat 2" beside it.
// A title that names its seats only "Seat 1", "Seat 2" has no role to show; one that
// names them "Seat 1 (The Cat)" has the name in brackets as its role.
function roleOf(label, seat) {
  const text = String(label).trim();
  const numbered = text.match(new RegExp(`^seat\\s+${seat}(?:\\s+(.*))?$`, "i"));
  if (numbered) return (numbered[1] || "").replace(/^\((.*)\)$/, "$1").trim();
  const role = text.replace(new RegExp(`\\s${seat}(?=\\s|$)`), "").trim();
  return /^seat$/i.test(role) ? "" : role;
}

function seatName(label, seat) {
  const role = roleOf(label, seat);
  if (!role) return el("span", { class: "seat-role" }, `Seat ${seat}`);
  return [el("span", { class: "seat-role" }, role), " ", el("span", { class: "seat-number" }, `seat ${seat}`)];
}

function drawSeats() {
  const title = current();
  if (!title) return;
  const count = Math.max(title.min_players, Math.min(title.max_players, Number(players.value) || title.min_players));
  const previous = new Map(
    [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const { check, name } = botChoice(row);
      return [/** @type {HTMLElement} */ (row).dataset.seat, { bot: check.checked, name: name.value }];
    }),
  );
  clear(seatsBox);
  // The title names its seats for this many players (when they do not depend on the seed).
  const labels = (title.seat_labels || {})[String(count)] || [];
  for (let seat = 1; seat <= count; seat++) {
    const before = previous.get(String(seat));
    const check = el("input", { type: "checkbox", class: "bot-check", name: `bot-${seat}`, checked: before && before.bot });
    const names = el(
      "select",
      { class: "bot-name", name: `bot-name-${seat}`, "aria-label": `bot for seat ${seat}` },
      title.bots.map((b) => el("option", { value: b, selected: b === (before ? before.name : title.default_bot) }, b)),
    );
    names.disabled = !check.checked;
    check.addEventListener("change", () => (names.disabled = !check.checked));
    seatsBox.append(
      el("div", { class: "seat-row", dataset: { seat: String(seat) } },
        el("span", { class: "seat-name" }, labels[seat - 1] ? seatName(labels[seat - 1], seat) : `seat ${seat}`),
        el("label", {}, check, " bot"),
        names,
      ),
    );
  }
}

function chooseTitle() {
  const title = current();
  if (!title) return;
  byId("title-summary").textContent = title.summary;
  players.min = String(title.min_players);
  players.max = String(title.max_players);
  if (Number(players.value) < title.min_players) players.value = String(title.min_players);
  if (Number(players.value) > title.max_players) players.value = String(title.max_players);
  drawSeats();
}

function linkRow(label, url, cls, seat) {
  const text = seat ? [roleOf(label, seat), `seat ${seat}`].filter(Boolean).join(", ") : label;
  const input = el("input", { type: "text", readonly: true, value: url, class: "link-url", "aria-label": `${text} link` });
  const status = el("span", { class: "copied muted", "aria-live": "polite" });
  const item = el("li", { class: cls },
    el("span", { class: "link-label" }, seat ? seatName(label, seat) : label),
    input,
    el("button", {
      type: "button",
      class: "copy",
      onclick: async () => (status.textContent = (await copyText(input.value, input)) ? "copied" : "select and copy"),
    }, "Copy"),
    el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "open" }, "Open"),
    status,
  );
  if (seat) item.dataset.seat = String(seat);
  return { item, input, status };
}

function drawLinks(created) {
  const list = clear(byId("link-list"));
  for (const seat of created.seats) {
    if (seat.bot) {
      list.append(el("li", { class: "bot-seat", dataset: { seat: String(seat.seat) } },
        el("span", { class: "link-label" }, seatName(seat.label, seat.seat)), el("span", { class: "muted" }, `played by the ${seat.bot} bot`)));
    } else {
      list.append(linkRow(seat.label, seat.url, "seat-link", seat.seat).item);
    }
  }
  list.append(linkRow("Spectator", created.spectator_url, "spectator-link").item);
  byId("links").hidden = false;
}

// -- the matches created in this browser --------------------------------------------------

async function reissue(match, seat, row) {
  row.status.textContent = "making a new link…";
  try {
    const fresh = await api.reissue(match.id, seat.seat, match.host_token);
    replaceLink(match.id, seat.seat, fresh.url);
    row.input.value = fresh.url;
    /** @type {HTMLAnchorElement} */ (row.item.querySelector(".open")).href = fresh.url;
    row.status.textContent = "new link made: the old one no longer works";
    // The links shown for the match just created, if it is this one.
    const shown = /** @type {HTMLInputElement | null} */ (
      document.querySelector(`#link-list .seat-link[data-seat="${seat.seat}"] .link-url`)
    );
    if (shown && currentMatch === match.id) shown.value = fresh.url;
  } catch (err) {
    row.status.textContent = messageOf(err);
  }
}

function drawKept() {
  const matches = kept();
  const list = clear(byId("mine"));
  byId("mine-card").hidden = matches.length === 0;
  const names = new Map(titles.map((t) => [t.name, t.display_name]));
  for (const match of matches) {
    const when = new Date(match.created);
    const seats = el("ul", { class: "links" });
    for (const seat of match.seats) {
      if (!seat.url) {
        seats.append(el("li", { class: "kept-bot", dataset: { seat: String(seat.seat) } },
          el("span", { class: "link-label" }, seatName(seat.label, seat.seat)), el("span", { class: "muted" }, seat.bot ? `played by the ${seat.bot} bot` : "a bot")));
        continue;
      }
      const row = linkRow(seat.label, seat.url, "kept-seat", seat.seat);
      if (match.host_token) {
        // The old link stops working at once: on a phone, a second tap confirms it.
        const button = el("button", { type: "button", class: "new-link" }, "New link");
        row.item.insertBefore(confirmTap(button, "Tap again: the old link stops working", () => reissue(match, seat, row)), row.status);
      }
      seats.append(row.item);
    }
    seats.append(linkRow("Spectator", `${location.origin}/play/${encodeURIComponent(match.id)}`, "kept-spectator").item);
    list.append(el("li", { class: "kept-match", dataset: { match: match.id } },
      el("div", { class: "mine-head" },
        el("strong", {}, names.get(match.title) || match.title),
        el("span", { class: "muted" }, Number.isNaN(when.getTime()) ? "" : `created ${when.toLocaleString()}`),
        el("span", { class: "kept-status muted" }),
        el("button", {
          type: "button",
          class: "forget",
          onclick: () => {
            forget(match.id);
            drawKept();
          },
        }, "Forget"),
      ),
      seats,
    ));
  }
  markKept();
}

// How each kept match stands, where the server's list of recent matches says.
let recent = []; // the server's recent matches, as last fetched

function markKept(found = recent) {
  recent = found;
  const byMatch = new Map(found.map((m) => [m.id, m]));
  for (const item of document.querySelectorAll("#mine .kept-match")) {
    const m = byMatch.get(/** @type {HTMLElement} */ (item).dataset.match);
    if (!m) continue;
    const status = /** @type {HTMLElement} */ (item.querySelector(".kept-status"));
    status.replaceChildren(`step ${m.version}${m.over ? " · over · " : ""}`);
    if (m.over) status.append(el("a", { href: `/replay?match=${encodeURIComponent(m.id)}` }, "replay"));
  }
}

async function drawRecent() {
  const list = clear(byId("recent"));
  let found = [];
  try {
    found = await api.matches();
  } catch {
    return;
  }
  markKept(found);
  if (!found.length) list.append(el("li", { class: "muted" }, "No matches yet."));
  const names = new Map(titles.map((t) => [t.name, t.display_name]));
  for (const m of found.slice(0, 15)) {
    list.append(el("li", {},
      el("a", { href: `/play/${encodeURIComponent(m.id)}` }, `${names.get(m.title) || m.title}`),
      el("span", { class: "muted" }, ` · ${m.players} players · step ${m.version}${m.over ? " · over" : ""}`),
      m.over ? [" · ", el("a", { href: `/replay?match=${encodeURIComponent(m.id)}` }, "replay")] : null,
    ));
  }
}

async function create(event) {
  event.preventDefault();
  showError("");
  /** @type {{ title: string, players: number, bots?: Record<string, string>, seed?: number }} */
  const body = { title: select.value, players: Number(players.value) };
  /** @type {Record<string, string>} */
  const bots = {};
  for (const row of seatsBox.querySelectorAll(".seat-row")) {
    const { check, name } = botChoice(row);
    if (check.checked) bots[String(/** @type {HTMLElement} */ (row).dataset.seat)] = name.value;
  }
  body.bots = bots;
  // Only a server in development mode takes a seed (it shows the field then).
  const seed = byId("dev-options").hidden ? "" : byId("seed", HTMLInputElement).value.trim();
  if (seed) {
    if (!/^[0-9]+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      return showError(`the seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
    }
    body.seed = Number(seed);
  }
  const button = byId("create-button", HTMLButtonElement);
  button.disabled = true;
  try {
    const created = await api.create(body);
    currentMatch = created.id;
    keep(created);
    drawLinks(created);
    drawKept();
    drawRecent();
  } catch (err) {
    showError(messageOf(err));
  } finally {
    button.disabled = false;
  }
}

async function start() {
  try {
    titles = await api.titles();
  } catch (err) {
    showError(messageOf(err));
    return;
  }
  if (!titles.length) showError("no titles are installed");
  for (const t of titles) select.append(el("option", { value: t.name }, t.display_name));
  // ?title=NAME chooses the game; else The Museum Job, the game the README and
  // `make play` start with, when it is installed (else the first, by name).
  const wanted = new URLSearchParams(location.search).get("title") || "museum";
  if (titles.some((t) => t.name === wanted)) select.value = wanted;
  select.addEventListener("change", chooseTitle);
  players.addEventListener("input", drawSeats);
  byId("create").addEventListener("submit", create);
  chooseTitle();
  drawKept();
  drawRecent();
  mountRules(byId("rules-button"), byId("rules"), current);
  let dev = false;
  try {
    dev = (await api.server()).dev === true;
  } catch {
    /* not in development mode, as far as the lobby can tell */
  }
  byId("dev-options").hidden = !dev;
  document.body.dataset.dev = String(dev);
}

start();
