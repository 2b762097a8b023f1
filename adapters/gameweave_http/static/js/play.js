// @ts-check
// The seat page: /play/<match>#token=<seat token>. The token stays in the URL
// fragment, which the browser never sends to the server; it goes out only in the
// X-Seat-Token header (and in the live updates' query, which the server never logs).
//
// The page keeps live over the seat socket (seatsocket.js), which carries its moves
// too; where there is none (a browser without WebSocket, a server or a proxy that
// refuses it), over the event stream, with moves posted.
//
// A link pasted over this one (the fragment changes, the page does not reload by
// itself) opens that seat at once; a link whose seat was given a new one says so
// in plain words, with the way back to the lobby and to the spectators' view.

import { api, ApiError, loadRenderer } from "./api.js";
import { byId, el, clear, messageOf } from "./dom.js";
import { REVOKED, SeatSocket, socketUrl } from "./seatsocket.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const token = new URLSearchParams(location.hash.slice(1)).get("token") || null;

const board = byId("board");
const errorBox = byId("error");
/** @type {any} */
let payload = null;
/** @type {any} */
let renderer = null;
let busy = false;
// Whether the title can be searched (it offers the ismcts bot): then a seat may ask for a hint.
let searchable = false;
let hinting = false;
// Set once this page's token stops opening its seat: nothing more is drawn over that.
let revoked = false;
/** @type {EventSource | null} */
let source = null;
/** @type {SeatSocket | null} */
let socket = null;
// Whether a seat socket ever opened on this page. Until one has, a refused one may
// mean the server (or a proxy before it) offers none: the event stream serves instead.
let socketWorks = false;
/** @type {number | undefined} */
let reconnecting;
// The event stream's retry, which the server sets: a socket waits as long to reconnect.
const RETRY_MS = 2000;
// The version the hint shown was asked at: a hint is for that position only.
let hintVersion = null;

// Made here rather than in play.html: the hint and the thinking line belong to this script.
const thinkingLine = el("p", { id: "thinking", class: "muted", role: "status", hidden: true });
// Shown while the live updates are lost: the dot alone is easy to miss.
const connectionLine = el("p", { id: "connection", class: "connection", role: "status", hidden: true },
  "Lost touch with the server: trying again. This page catches up once it is back.");
const hintButton = el("button", { id: "hint-button", type: "button", hidden: true }, "Hint");
const hintText = el("p", { id: "hint", class: "hint", role: "status", hidden: true });
byId("banner").after(connectionLine, thinkingLine, el("div", { class: "hint-box" }, hintButton, hintText));

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

// The fragment is the seat: another one pasted into this tab is another page.
window.addEventListener("hashchange", () => location.reload());

/** The spectators' view of this match (no token). */
const spectatorUrl = `/play/${encodeURIComponent(matchId)}`;

/**
 * This page's link opens no seat: say why in plain words (whoever created the match
 * gave the seat a new link, or the link never opened a seat: mistyped or cut
 * short, as the server tells the two apart), stop the live updates and the
 * buttons, and offer the ways on.
 * @param {string} [detail] the server's own words, kept for whoever reports it
 */
function linkRevoked(detail) {
  revoked = true;
  if (source) source.close();
  if (socket) socket.close();
  window.clearTimeout(reconnecting);
  // The server says "it never opened one" of a token no seat ever had.
  const mistyped = Boolean(detail && /never opened/.test(detail));
  setLive("off", mistyped ? "no live updates: this link opens no seat" : "no live updates: this link no longer opens a seat");
  const seat = payload && payload.seat ? seatName(payload, payload.seat) : "a seat";
  const banner = byId("banner");
  banner.className = "banner stuck";
  banner.textContent = "";
  banner.dataset.revoked = mistyped ? "mistyped" : "replaced";
  banner.append(
    (mistyped
      ? "This link opens no seat of this match: it looks mistyped or cut short (a seat's link ends in " +
        "#token= and a long code). Copy it again, whole, from whoever sent it, or: "
      : `This link no longer opens ${seat} of this match: whoever created the match gave that seat a new link. ` +
        "Ask them for it, or: "),
    el("a", { href: spectatorUrl, class: "watch" }, "watch as a spectator"),
    " · ",
    el("a", { href: "/", class: "lobby" }, "back to the lobby"),
  );
  // The server's own words stay below, small, for whoever reports a problem.
  showError(detail ? `Details: ${detail}` : "");
  board.classList.add("revoked");
  byId("seat-link").hidden = true; // the link it offers to keep is the dead one
  for (const b of board.querySelectorAll("button")) /** @type {HTMLButtonElement} */ (b).disabled = true;
  hintButton.hidden = true;
}

/** Whether a refusal means the token is not this match's (403 with no Origin at fault). */
function isRevocation(err) {
  return err instanceof ApiError && err.status === 403 && /token/.test(err.message);
}

function seatLabel(p, seat) {
  const found = p.seats.find((s) => s.seat === seat);
  return found ? found.label : `Seat ${seat}`;
}

function seatName(p, seat) {
  const label = seatLabel(p, seat);
  return label === `Seat ${seat}` ? label : `Seat ${seat} (${label})`;
}

function drawThinking(p) {
  const seats = p.outcome ? [] : p.thinking || [];
  thinkingLine.hidden = seats.length === 0;
  thinkingLine.textContent = seats.map((s) => `${seatName(p, s)} is thinking…`).join(" ");
}

function drawHint(p) {
  const myTurn = Boolean(p.seat && !p.outcome && p.awaiting.includes(p.seat));
  hintButton.hidden = !(token && searchable && p.seat && !p.outcome);
  hintButton.disabled = !myTurn || hinting;
  if (hintVersion !== null && hintVersion !== p.version && !hinting) {
    // The position moved on: the hint shown was for the old one.
    hintVersion = null;
    hintText.hidden = true;
    hintText.textContent = "";
  }
}

const percent = (share) => `${Math.round(share * 100)}%`;

function hintWords(h) {
  if (!h.iterations) {
    const many = payload ? payload.legal.length : 1;
    const why = many > 1 ? `the one move of ${many} that the title's own bot proposes; no search ran` : "the only legal action";
    return `Hint: ${h.text} (${why})`;
  }
  let words =
    `Hint: ${h.text}, chosen in ${percent(h.share)} of ${h.iterations} searches of worlds ` +
    `your seat cannot tell apart`;
  if (h.others.length) words += `; then: ${h.others.map((o) => `${o.text} ${percent(o.share)}`).join("; ")}`;
  return words;
}

async function askHint() {
  if (!token || hinting) return;
  hinting = true;
  hintVersion = payload.version;
  hintButton.disabled = true;
  hintText.hidden = false;
  hintText.textContent = "Searching from your seat's view…";
  delete hintText.dataset.action;
  try {
    const found = await api.hint(matchId, token);
    hintText.textContent = hintWords(found);
    hintText.dataset.action = JSON.stringify(found.action);
  } catch (err) {
    hintText.textContent = `No hint: ${messageOf(err)}`;
  } finally {
    hinting = false;
    if (payload) drawHint(payload);
  }
}

hintButton.addEventListener("click", askHint);

function drawHeader(p) {
  document.title = `${p.display_name} — Gameweave`;
  byId("title").textContent = p.display_name;
  byId("whoami").textContent = p.seat ? seatLabel(p, p.seat) : "Spectator";
  byId("step").textContent = `step ${p.version}`;
  const banner = byId("banner");
  banner.className = "banner";
  if (p.outcome) {
    banner.textContent = `Over: ${p.outcome.summary}`;
    banner.classList.add("over");
  } else if (p.bot_error) {
    banner.textContent = p.bot_error;
    banner.classList.add("stuck");
  } else if (p.seat && p.awaiting.includes(p.seat)) {
    banner.textContent = "Your turn";
    banner.classList.add("yours");
  } else {
    const names = p.awaiting.map((s) => seatLabel(p, s) + (p.bots.includes(s) ? " (bot)" : ""));
    banner.textContent = `Waiting for ${names.join(", ")}`;
  }
  drawThinking(p);
  drawHint(p);
  const after = clear(byId("after"));
  if (p.outcome) {
    after.append(
      el("a", { href: `/api/matches/${encodeURIComponent(matchId)}/log`, download: "" }, "Download the log"),
      " · ",
      el("a", { href: `/replay?match=${encodeURIComponent(matchId)}` }, "Replay it"),
    );
  }
}

function draw() {
  if (revoked) return;
  drawHeader(payload);
  document.body.dataset.version = String(payload.version);
  try {
    renderer.module.render(board, payload, ctx);
  } catch (err) {
    console.error(err);
    showError(`the renderer failed: ${messageOf(err)}`);
  }
}

function accept(next) {
  // The reply to a post and the event stream race; the newer payload wins.
  // At one version, a bot may start or stop thinking: that is news too.
  const thinkingChanged = payload && String(next.thinking || []) !== String(payload.thinking || []);
  if (!payload || next.version > payload.version || next.bot_error !== payload.bot_error || (next.version === payload.version && thinkingChanged)) {
    payload = next;
    draw();
  }
}

const ctx = {
  get seat() {
    return payload ? payload.seat || null : null;
  },
  readonly: !token,
  async act(action) {
    if (!token) {
      showError("spectators cannot act: open a seat's link to play");
      return false;
    }
    // One move at a time: the socket answers moves in order, and the page waits
    // for each answer before it offers the next choice.
    if (busy) return false;
    busy = true;
    document.body.classList.add("busy");
    try {
      const next = await move(payload.version, action);
      showError("");
      accept(next);
      return true;
    } catch (err) {
      await moveRefused(err);
      return false;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  },
};

/**
 * Make a move: over the seat socket while it is open, else posted (no socket, or
 * it is reconnecting). Either way it answers the new payload or throws an ApiError.
 * @param {number} version
 * @param {unknown} action
 */
function move(version, action) {
  if (socket && socket.isOpen) return socket.move(version, action);
  return api.act(matchId, token, version, action);
}

/**
 * Say why a move was refused; after a stale one (409), show the match as it is now.
 * @param {unknown} err
 */
async function moveRefused(err) {
  if (isRevocation(err)) {
    linkRevoked(messageOf(err));
    return;
  }
  showError(messageOf(err));
  if (err instanceof ApiError && err.status === 409) {
    try {
      accept(await api.read(matchId, token));
    } catch {
      /* keep the error already shown */
    }
  }
}

/**
 * The live-updates sign in the header: a dot and a word, both saying the same.
 * @param {"on" | "lost" | "off"} state
 * @param {string} words what the sign's tooltip and screen readers say
 */
function setLive(state, words) {
  const live = byId("live");
  live.classList.toggle("on", state === "on");
  live.classList.toggle("lost", state === "lost");
  live.title = words;
  live.setAttribute("aria-label", words);
  live.textContent = state === "lost" ? "● reconnecting…" : state === "off" ? "● offline" : "●";
  byId("connection").hidden = state !== "lost";
}

const CONNECTED = "live updates: connected";
const LOST = "not connected to the server: trying again; moves show once it is back";

/** Keep the page live: over the seat socket where the browser has WebSocket. */
function listen() {
  if (typeof window.WebSocket === "function") openSocket();
  else listenToEvents();
}

function openSocket() {
  try {
    socket = new SeatSocket(socketUrl(matchId, token), {
      open() {
        socketWorks = true;
        setLive("on", CONNECTED);
      },
      payload(next) {
        setLive("on", CONNECTED);
        accept(next);
      },
      close: socketClosed,
    });
  } catch (err) {
    console.error("cannot open the seat socket", err);
    listenToEvents();
  }
}

/**
 * A seat socket closed: the seat's link was replaced, or the server stopped, failed
 * or refused it. Unless the link was replaced, a new socket is tried after a while
 * (its first payload brings the page up to date); the moves meanwhile are posted.
 * @param {number} code the close code
 * @param {boolean} opened whether the socket had opened
 */
async function socketClosed(code, opened) {
  socket = null;
  if (revoked) return;
  if (code === REVOKED) {
    linkRevoked();
    return;
  }
  if (!opened) {
    // A refused handshake says nothing more to a page (1006): ask why, in words.
    try {
      await api.read(matchId, token);
    } catch (err) {
      if (isRevocation(err)) return linkRevoked(messageOf(err));
    }
    if (revoked) return;
    if (!socketWorks) {
      listenToEvents();
      return;
    }
  }
  setLive("lost", LOST);
  reconnecting = window.setTimeout(openSocket, RETRY_MS);
}

/** Keep the page live over the event stream (the seat socket's fallback). */
function listenToEvents() {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  source = new EventSource(`/api/matches/${encodeURIComponent(matchId)}/events${query}`);
  source.addEventListener("payload", (event) => {
    setLive("on", CONNECTED);
    accept(JSON.parse(/** @type {MessageEvent} */ (event).data));
  });
  // The server ends a seat's stream this way when the seat is given a new link.
  source.addEventListener("revoked", () => linkRevoked());
  source.addEventListener("open", () => setLive("on", CONNECTED));
  source.addEventListener("error", async () => {
    if (revoked || !source) return;
    if (source.readyState === EventSource.CLOSED) {
      // The server refused the stream outright: ask why, in words.
      try {
        await api.read(matchId, token);
      } catch (err) {
        if (isRevocation(err)) return linkRevoked(messageOf(err));
      }
    }
    setLive("lost", LOST);
  });
}

async function start() {
  try {
    payload = await api.read(matchId, token);
  } catch (err) {
    byId("title").textContent = "Cannot open this match";
    if (isRevocation(err)) {
      linkRevoked(messageOf(err));
      return;
    }
    showError(messageOf(err));
    return;
  }
  try {
    const titles = await api.titles();
    const mine = titles.find((t) => t.name === payload.title);
    searchable = Boolean(mine && mine.bots.includes("ismcts"));
  } catch {
    searchable = false; // no hint button; the match plays as ever
  }
  renderer = await loadRenderer(payload.title);
  if (renderer.failed) showError(`the title's renderer failed to load; showing the generic one`);
  document.body.dataset.renderer = renderer.generic ? "generic" : payload.title;
  draw();
  listen();
}

start();
