// @ts-check
// The replay page: open a log (a file, or ?match=<id> for a finished match), step
// through it with the slider and view any step as any seat or as a spectator.
// The server replays the log to the step and sends that seat's payload, so what is
// shown is exactly what the seat saw then. A log opened is first verified by the
// server as `gameweave replay --verify` does (the core's one definition of a valid
// log): the page says whether it holds, and if not where and why it stopped, and
// shows only the steps before that.

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
/** The last step that may be shown: the steps the verification reproduced. */
let lastStep = 0;

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
  slider.max = String(Math.min(result.steps, lastStep));
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
 * What the verification found: a headline (verified, or where it stopped and why:
 * an entry edited, other rules, a log cut short, and which steps can be seen) and
 * the core's own words for the failure, shown smaller beneath it.
 * @param {any} v the answer of POST /api/replay/verify
 * @returns {[string, string]}
 */
function verdict(v) {
  const of = v.steps === null ? "" : ` of ${v.steps}`;
  const viewable = v.steps === null ? " Nothing can be shown." : ` Only steps 0 to ${v.good} are shown.`;
  const detail = v.message ? `gameweave replay --verify says: ${v.message}` : "";
  switch (v.problem) {
    case null:
      return [
        `Verified: all ${v.steps} steps replay to the states the log recorded ` +
          `(${v.checked} digests checked, as gameweave replay --verify does).`,
        v.rules ? `The log was ${v.rules}.` : "",
      ];
    case "edited":
      return [
        `Not verified: stopped at step ${v.at}${of}. This entry was edited: ` +
          (v.mismatch
            ? "the rules reach another state than the one the log recorded."
            : "the rules refuse the action it records.") +
          viewable,
        detail,
      ];
    case "rules":
      return [
        `Not verified: stopped at step ${v.at}${of}. The log was made with other rules, ` +
          `and from this step the installed ones no longer reproduce it.${viewable}`,
        `The log was ${v.rules}. ${detail}`,
      ];
    case "cut":
      return [
        `Not verified: stopped at step ${v.at}${of}. The log ends mid-entry: it was cut ` +
          `short and cannot be read to its end.${viewable}`,
        detail,
      ];
    default:
      return [`Not verified: ${v.message}. Its ${v.steps} steps are shown unverified.`, ""];
  }
}

/**
 * @param {string} text the log
 * @param {boolean} toEnd open it at its last step (else at the start)
 */
async function open(text, toEnd) {
  logText = null;
  slider.value = "0";
  slider.max = "0";
  slider.disabled = true;
  const box = byId("verify");
  box.hidden = true;
  let checked;
  try {
    checked = await api.verify(text);
  } catch (err) {
    showError(messageOf(err));
    return;
  }
  const [headline, detail] = verdict(checked);
  box.replaceChildren(
    el("p", { class: "headline" }, headline),
    detail ? el("p", { class: "detail" }, detail) : "",
  );
  box.className = checked.verified ? "verify ok" : "verify bad";
  box.hidden = false;
  document.body.dataset.verified = checked.verified ? "yes" : checked.problem;
  if (checked.steps === null) {
    // Not a log that reads to its end: there is nothing to step through.
    board.replaceChildren();
    showError("");
    return;
  }
  logText = text;
  lastStep = checked.good;
  slider.max = String(lastStep);
  if (toEnd) slider.value = String(lastStep);
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
