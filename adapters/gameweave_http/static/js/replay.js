// @ts-check
// The replay page: open a log (a file, or ?match=<id> for a finished match), step
// through it with the slider and view any step as any seat or as a spectator.
// The server replays the log to the step and sends that seat's payload, so what is
// shown is exactly what the seat saw then.

import { api, loadRenderer } from "./api.js";
import { byId, el, messageOf } from "./dom.js";

const slider = byId("slider", HTMLInputElement);
const seatSelect = byId("seat", HTMLSelectElement);
const board = byId("board");
const errorBox = byId("error");
/** @type {string | null} */
let logText = null;
/** @type {any} */
let renderer = null;
/** @type {string | null} */
let rendererTitle = null;
let pending = 0;

/** @param {string} message */
function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

const ctx = {
  /** @type {number | null} */
  seat: null,
  readonly: true,
  async act() {
    showError("this is a replay: nothing can be played here");
    return false;
  },
};

/** The least time between two replays asked for, in milliseconds. */
const MIN_GAP_MS = 100;
/** A replay is being asked for; the slider or the seat changed meanwhile. */
let asking = false;
let changedSince = false;

/**
 * Show the chosen step. One replay is asked for at a time, and at most one every
 * MIN_GAP_MS, the latest choice last: dragging the slider asks for the steps the
 * page can show, not for every step it passes, which keeps a reader well within
 * the replays the server allows one client a minute (its replays_per_minute).
 */
async function show() {
  if (asking) {
    changedSince = true;
    return;
  }
  asking = true;
  const started = performance.now();
  try {
    await showStep();
  } finally {
    const rest = MIN_GAP_MS - (performance.now() - started);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    asking = false;
  }
  if (changedSince) {
    changedSince = false;
    await show();
  }
}

async function showStep() {
  if (logText === null) return;
  const ticket = ++pending;
  const seat = seatSelect.value ? Number(seatSelect.value) : null;
  let result;
  try {
    result = await api.replay(logText, Number(slider.value), seat);
  } catch (err) {
    if (ticket === pending) showError(messageOf(err));
    return;
  }
  if (ticket !== pending) return; // a newer request superseded this one
  showError("");
  const p = result.payload;
  if (rendererTitle !== p.title) {
    renderer = await loadRenderer(p.title);
    rendererTitle = p.title;
  }
  slider.max = String(result.steps);
  slider.disabled = false;
  drawSeatChoice(p.seats);
  const acted = result.step > 0 ? result.actions[result.step - 1] : null;
  byId("title").textContent = `Replay: ${p.display_name}`;
  byId("step-label").textContent =
    `step ${result.step} of ${result.steps}` + (acted ? ` (seat ${acted.seat} acted)` : " (the start)");
  byId("banner").textContent = p.outcome
    ? `Over: ${p.outcome.summary}`
    : `Waiting for ${p.awaiting.map((s) => p.seats[s - 1].label).join(", ")}`;
  document.body.dataset.step = String(result.step);
  ctx.seat = seat;
  renderer.module.render(board, p, ctx);
}

/**
 * The "View as" choices: the spectator and this log's seats by their labels now
 * (a new log, or a step at which a seat's label changed, redraws them); the seat
 * chosen stays chosen while the log has it.
 * @param {{ seat: number, label: string }[]} seats
 */
function drawSeatChoice(seats) {
  const wanted = ["Spectator", ...seats.map((s) => s.label)];
  const shown = [...seatSelect.options].map((o) => o.textContent);
  if (String(wanted) === String(shown)) return;
  const chosen = seatSelect.value;
  seatSelect.replaceChildren(
    el("option", { value: "" }, "Spectator"),
    ...seats.map((s) => el("option", { value: String(s.seat) }, s.label)),
  );
  seatSelect.value = seats.some((s) => String(s.seat) === chosen) ? chosen : "";
}

/**
 * @param {string} text the log
 * @param {boolean} toEnd open it at its last step (else at the start)
 */
async function open(text, toEnd) {
  logText = text;
  slider.value = "0";
  slider.max = "0";
  if (toEnd) {
    try {
      const all = await api.replay(logText, null, null);
      slider.max = String(all.steps);
      slider.value = String(all.steps);
    } catch (err) {
      showError(messageOf(err));
      return;
    }
  }
  await show();
}

const fileInput = byId("file", HTMLInputElement);
fileInput.addEventListener("change", async () => {
  const file = fileInput.files ? fileInput.files[0] : null;
  if (file) await open(await file.text(), false);
});
slider.addEventListener("input", show);
seatSelect.addEventListener("change", show);
byId("prev").addEventListener("click", () => {
  slider.value = String(Math.max(0, Number(slider.value) - 1));
  show();
});
byId("next").addEventListener("click", () => {
  slider.value = String(Math.min(Number(slider.max), Number(slider.value) + 1));
  show();
});

const fromMatch = new URLSearchParams(location.search).get("match");
if (fromMatch) {
  api.log(fromMatch).then((text) => open(text, true), (err) => showError(messageOf(err)));
}
