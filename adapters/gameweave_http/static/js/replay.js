// The replay page: open a log (a file, or ?match=<id> for a finished match), step
// through it with the slider and view any step as any seat or as a spectator.
// The server replays the log to the step and sends that seat's payload, so what is
// shown is exactly what the seat saw then.

import { api, loadRenderer } from "./api.js";
import { el } from "./dom.js";

const slider = document.getElementById("slider");
const seatSelect = document.getElementById("seat");
const board = document.getElementById("board");
const errorBox = document.getElementById("error");
let logText = null;
let renderer = null;
let rendererTitle = null;
let pending = 0;

function showError(message) {
  errorBox.textContent = message;
  errorBox.hidden = !message;
}

const ctx = {
  seat: null,
  readonly: true,
  async act() {
    showError("this is a replay: nothing can be played here");
    return false;
  },
};

async function show() {
  if (logText === null) return;
  const ticket = ++pending;
  const seat = seatSelect.value ? Number(seatSelect.value) : null;
  let result;
  try {
    result = await api.replay(logText, Number(slider.value), seat);
  } catch (err) {
    if (ticket === pending) showError(err.message);
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
  if (seatSelect.options.length !== p.seats.length + 1) {
    const chosen = seatSelect.value;
    seatSelect.replaceChildren(
      el("option", { value: "" }, "Spectator"),
      ...p.seats.map((s) => el("option", { value: String(s.seat) }, `${s.label}`)),
    );
    seatSelect.value = chosen;
  }
  const acted = result.step > 0 ? result.actions[result.step - 1] : null;
  document.getElementById("title").textContent = `Replay: ${p.display_name}`;
  document.getElementById("step-label").textContent =
    `step ${result.step} of ${result.steps}` + (acted ? ` (seat ${acted.seat} acted)` : " (the start)");
  document.getElementById("banner").textContent = p.outcome
    ? `Over: ${p.outcome.summary}`
    : `Waiting for ${p.awaiting.map((s) => p.seats[s - 1].label).join(", ")}`;
  document.body.dataset.step = String(result.step);
  ctx.seat = seat;
  renderer.module.render(board, p, ctx);
}

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
      showError(err.message);
      return;
    }
  }
  await show();
}

document.getElementById("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) await open(await file.text(), false);
});
slider.addEventListener("input", show);
seatSelect.addEventListener("change", show);
document.getElementById("prev").addEventListener("click", () => {
  slider.value = String(Math.max(0, Number(slider.value) - 1));
  show();
});
document.getElementById("next").addEventListener("click", () => {
  slider.value = String(Math.min(Number(slider.max), Number(slider.value) + 1));
  show();
});

const fromMatch = new URLSearchParams(location.search).get("match");
if (fromMatch) {
  api.log(fromMatch).then((text) => open(text, true), (err) => showError(err.message));
}
