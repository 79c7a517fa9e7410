// Replay of a finished game: step through the spectator's view after each move.
import { clear, h } from "./dom.js";
import * as generic from "./games/generic.js";

const root = document.getElementById("table");
const data = JSON.parse(document.getElementById("replay-data").textContent);
data.steps = expand(data.steps);

// The server sends the first step's whole view, then each step's changed keys only
// (`web/replays.py: compact_steps`): a view is the previous one with those keys replaced.
function expand(steps) {
  let view = {};
  return steps.map((step) => {
    if (step.view) {
      view = step.view;
      return step;
    }
    view = Object.assign({}, view, step.changes);
    for (const key of step.gone || []) delete view[key];
    return { view, log: step.log, seat: step.seat, label: step.label };
  });
}
let renderer = generic;
try {
  renderer = await import(root.dataset.renderer);
} catch (error) {
  console.warn(error);
}
const slider = document.getElementById("slider");
slider.max = String(data.steps.length - 1);
let index = 0;
const bots = new Set(data.bots || []);  // the seats held by robots, when the page sends them

function show(i) {
  index = Math.max(0, Math.min(data.steps.length - 1, i));
  slider.value = String(index);
  const step = data.steps[index];
  const who = step.seat === null || step.seat === undefined ? "" : `${data.names[step.seat]} : `;
  document.getElementById("step-label").textContent =
    index ? `Coup ${index} / ${data.steps.length - 1} · ${who}${step.label}` : `Début de la partie · ${data.steps.length - 1} coups`;
  const seats = clear(document.getElementById("seats"));
  const actors = new Set(step.view.actors || []);
  data.names.forEach((name, seat) => {
    const score = step.view.scores ? step.view.scores[seat] : undefined;
    seats.append(h("li", { class: `seat-chip${actors.has(seat) ? " acting" : ""}` },
      h("span", { class: "seat-name", text: name }),
      score !== undefined ? h("span", { class: "seat-score", text: String(score) }) : null,
      bots.has(seat) ? h("span", { class: "seat-tag", text: "robot" }) : null));
  });
  const board = clear(document.getElementById("board"));
  const ctx = { seat: null, names: data.names, act: () => {}, pending: () => true, replay: true, h, clear, redraw: () => show(index) };
  (renderer.render || generic.render)(board, step.view, ctx);
  const log = clear(document.getElementById("log"));
  for (const line of step.log) log.append(h("li", { text: line }));
  if (!step.log.length) {
    const text = index === 0 ? "Début de la partie : avancez d'un coup pour la voir se jouer." : "Rien à signaler à ce coup.";
    log.append(h("li", { class: "replay-empty", text }));
  }
}

document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(index - 1));
document.getElementById("next").addEventListener("click", () => show(index + 1));
document.getElementById("last").addEventListener("click", () => show(data.steps.length - 1));
slider.addEventListener("input", () => show(Number(slider.value)));
const spectatorSteps = data.steps;
const cache = new Map();
const viewpoint = document.getElementById("viewpoint");
viewpoint.addEventListener("change", async (event) => {
  const value = event.target.value;
  if (value === "") {
    data.steps = spectatorSteps;
  } else {
    if (!cache.has(value)) {
      const response = await fetch(`/parties/${root.dataset.record}/etapes.json?place=${value}`);
      if (!response.ok) return;
      cache.set(value, expand((await response.json()).steps));
    }
    data.steps = cache.get(value);
  }
  show(index);
});
document.addEventListener("keydown", (event) => {
  // the slider and the viewpoint list move with the arrows themselves: not twice
  if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
  if (event.key === "ArrowRight") show(index + 1);
  if (event.key === "ArrowLeft") show(index - 1);
});
show(0);
// a player's own game opens on their own cards (the page selects their place)
if (viewpoint.value !== "") viewpoint.dispatchEvent(new Event("change"));
