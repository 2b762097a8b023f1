// The lobby: pick a title and the players, mark bot seats, create the match and
// hand out one secret link per seat.

import { api } from "./api.js";
import { el, clear, copyText } from "./dom.js";

const select = document.getElementById("title-select");
const players = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const errorBox = document.getElementById("error");
let titles = [];

function current() {
  return titles.find((t) => t.name === select.value);
}

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

function drawSeats() {
  const title = current();
  if (!title) return;
  const count = Math.max(title.min_players, Math.min(title.max_players, Number(players.value) || title.min_players));
  const previous = new Map(
    [...seatsBox.querySelectorAll(".seat-row")].map((row) => [
      row.dataset.seat,
      { bot: row.querySelector(".bot-check").checked, name: row.querySelector(".bot-name").value },
    ]),
  );
  clear(seatsBox);
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
        el("span", { class: "seat-name" }, `Seat ${seat}`),
        el("label", {}, check, " bot"),
        names,
      ),
    );
  }
}

function chooseTitle() {
  const title = current();
  if (!title) return;
  document.getElementById("title-summary").textContent = title.summary;
  players.min = title.min_players;
  players.max = title.max_players;
  if (Number(players.value) < title.min_players) players.value = title.min_players;
  if (Number(players.value) > title.max_players) players.value = title.max_players;
  drawSeats();
}

function drawLinks(created) {
  const list = clear(document.getElementById("link-list"));
  const row = (label, url, cls) => {
    const input = el("input", { type: "text", readonly: true, value: url, class: "link-url", "aria-label": `${label} link` });
    const status = el("span", { class: "copied muted" });
    return el("li", { class: cls },
      el("span", { class: "link-label" }, label),
      input,
      el("button", {
        type: "button",
        class: "copy",
        onclick: async () => (status.textContent = (await copyText(url, input)) ? "copied" : "select and copy"),
      }, "Copy"),
      el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "open" }, "Open"),
      status,
    );
  };
  for (const seat of created.seats) {
    if (seat.bot) {
      list.append(el("li", { class: "bot-seat", dataset: { seat: String(seat.seat) } },
        el("span", { class: "link-label" }, seat.label), el("span", { class: "muted" }, `played by the ${seat.bot} bot`)));
    } else {
      const item = row(seat.label, seat.url, "seat-link");
      item.dataset.seat = String(seat.seat);
      list.append(item);
    }
  }
  list.append(row("Spectator", created.spectator_url, "spectator-link"));
  document.getElementById("links").hidden = false;
}

async function drawRecent() {
  const list = clear(document.getElementById("recent"));
  let found = [];
  try {
    found = await api.matches();
  } catch {
    return;
  }
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
  const body = { title: select.value, players: Number(players.value) };
  const bots = {};
  for (const row of seatsBox.querySelectorAll(".seat-row")) {
    if (row.querySelector(".bot-check").checked) bots[row.dataset.seat] = row.querySelector(".bot-name").value;
  }
  body.bots = bots;
  // Only a server in development mode takes a seed (it shows the field then).
  const seed = document.getElementById("dev-options").hidden ? "" : document.getElementById("seed").value.trim();
  if (seed) {
    if (!/^[0-9]+$/.test(seed) || !Number.isSafeInteger(Number(seed))) {
      return showError(`the seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`);
    }
    body.seed = Number(seed);
  }
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    drawLinks(await api.create(body));
    drawRecent();
  } catch (err) {
    showError(err.message);
  } finally {
    button.disabled = false;
  }
}

async function start() {
  try {
    titles = await api.titles();
  } catch (err) {
    showError(err.message);
    return;
  }
  if (!titles.length) showError("no titles are installed");
  for (const t of titles) select.append(el("option", { value: t.name }, t.display_name));
  const wanted = new URLSearchParams(location.search).get("title");
  if (wanted && titles.some((t) => t.name === wanted)) select.value = wanted;
  select.addEventListener("change", chooseTitle);
  players.addEventListener("input", drawSeats);
  document.getElementById("create").addEventListener("submit", create);
  chooseTitle();
  drawRecent();
  let dev = false;
  try {
    dev = (await api.server()).dev === true;
  } catch {
    /* not in development mode, as far as the lobby can tell */
  }
  document.getElementById("dev-options").hidden = !dev;
  document.body.dataset.dev = String(dev);
}

start();
