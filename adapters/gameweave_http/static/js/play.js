// The seat page: /play/<match>#token=<seat token>. The token stays in the URL
// fragment, which the browser never sends to the server; it goes out only in the
// X-Seat-Token header (and in the event stream's query, which the server never logs).

import { api, loadRenderer } from "./api.js";
import { el, clear } from "./dom.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const token = new URLSearchParams(location.hash.slice(1)).get("token") || null;

const board = document.getElementById("board");
const errorBox = document.getElementById("error");
let payload = null;
let renderer = null;
let busy = false;

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

function seatLabel(p, seat) {
  const found = p.seats.find((s) => s.seat === seat);
  return found ? found.label : `Seat ${seat}`;
}

function drawHeader(p) {
  document.title = `${p.display_name} — Gameweave`;
  document.getElementById("title").textContent = p.display_name;
  document.getElementById("whoami").textContent = p.seat ? seatLabel(p, p.seat) : "Spectator";
  document.getElementById("step").textContent = `step ${p.version}`;
  const banner = document.getElementById("banner");
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
  const after = clear(document.getElementById("after"));
  if (p.outcome) {
    after.append(
      el("a", { href: `/api/matches/${encodeURIComponent(matchId)}/log`, download: "" }, "Download the log"),
      " · ",
      el("a", { href: `/replay?match=${encodeURIComponent(matchId)}` }, "Replay it"),
    );
  }
}

function draw() {
  drawHeader(payload);
  document.body.dataset.version = String(payload.version);
  try {
    renderer.module.render(board, payload, ctx);
  } catch (err) {
    console.error(err);
    showError(`the renderer failed: ${err.message}`);
  }
}

function accept(next) {
  // The reply to a post and the event stream race; the newer payload wins.
  if (!payload || next.version > payload.version || next.bot_error !== payload.bot_error) {
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
    if (busy) return false;
    busy = true;
    document.body.classList.add("busy");
    try {
      const next = await api.act(matchId, token, payload.version, action);
      showError("");
      accept(next);
      return true;
    } catch (err) {
      showError(err.message);
      if (err.status === 409) {
        try {
          accept(await api.read(matchId, token));
        } catch {
          /* keep the error already shown */
        }
      }
      return false;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  },
};

function listen() {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const source = new EventSource(`/api/matches/${encodeURIComponent(matchId)}/events${query}`);
  const live = document.getElementById("live");
  source.addEventListener("payload", (event) => {
    live.classList.add("on");
    accept(JSON.parse(event.data));
  });
  source.addEventListener("error", () => live.classList.remove("on"));
  source.addEventListener("open", () => live.classList.add("on"));
}

async function start() {
  try {
    payload = await api.read(matchId, token);
  } catch (err) {
    document.getElementById("title").textContent = "Cannot open this match";
    showError(err.message);
    return;
  }
  renderer = await loadRenderer(payload.title);
  if (renderer.failed) showError(`the title's renderer failed to load; showing the generic one`);
  document.body.dataset.renderer = renderer.generic ? "generic" : payload.title;
  draw();
  listen();
}

start();
