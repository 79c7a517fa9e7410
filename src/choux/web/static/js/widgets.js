// Widgets shared by the games' interfaces: buttons that act on press, countdowns, the news
// strip, remembered <details>, and the game's constants sent by the server with the page.
import { h } from "./dom.js";

let constants = null;

/**
 * The game's constants the interface needs (shout texts, birds, limits), sent by the server
 * with the page (`Game.client_constants`, in #game-constants) so that no script copies them.
 */
export function gameConstants() {
  if (constants === null) {
    const node = document.getElementById("game-constants");
    try {
      constants = node ? JSON.parse(node.textContent) : {};
    } catch (error) {
      constants = {};
    }
  }
  return constants;
}

const loaded = new Set();

/** Add the game's stylesheet to the page once (CSP: same-origin styles only). */
export function useStylesheet(href) {
  if (loaded.has(href) || document.querySelector(`link[href="${href}"]`)) return;
  loaded.add(href);
  document.head.append(h("link", { rel: "stylesheet", href }));
}

// « de » and « que » drop their vowel before a name that starts with one: « Carte d'Odette »,
// « bévue d'Ángel », and before a « y » a consonant follows (« d'Yvonne », but « de Yann »).
// Not before an h (« de Hector »): most French names keep it aspirate. As engine/base.py
// `elides`.
const ELIDED = { de: "d'", De: "D'", que: "qu'", Que: "Qu'" };
const VOWELS = "aeiouæœ";

export function elides(name) {
  const bare = String(name).slice(0, 2).toLowerCase().normalize("NFKD").replace(/[^\p{L}]/gu, "");
  if (!bare) return false;
  if (bare[0] === "y") return bare.length > 1 && !(VOWELS + "y").includes(bare[1]);
  return VOWELS.includes(bare[0]);
}

/**
 * Replace {p0}-style placeholders of engine labels by the players' names, eliding « de » and
 * « que » before a vowel. Returns plain text: callers put it in textContent, never innerHTML.
 */
export function withNames(text, names) {
  const nameOf = (n) => names[Number(n)] ?? `Place ${Number(n) + 1}`;
  return String(text).replace(/(^|[^\p{L}])(de|De|que|Que) \{p(\d+)\}|\{p(\d+)\}/gu,
    (_, before, word, elidedSeat, seat) => {
      if (word === undefined) return nameOf(seat);
      const name = nameOf(elidedSeat);
      return before + (elides(name) ? ELIDED[word] : `${word} `) + name;
    });
}

/** « de Bob », « d'Alice »: the preposition before a name, elided before a vowel. */
export function ofName(name) {
  return elides(name) ? `d'${name}` : `de ${name}`;
}

/** A counted word in French: 0 and 1 take the singular (« 0 point », « 1 pli », « 2 cartes »). */
export function counted(n, word) {
  return `${n} ${word}${Math.abs(Number(n)) >= 2 ? "s" : ""}`;
}

export function pointsText(n) {
  return counted(n, "point");
}

/** The legal actions grouped by their type. */
export function byType(legal) {
  const groups = new Map();
  for (const item of legal || []) {
    const type = item.action.type;
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(item);
  }
  return groups;
}

/**
 * A button that acts on pointer-down: a press sends at once, even if the board is redrawn
 * between the press and the release (races!). Keyboard activation still works via click.
 */
export function pressButton(attrs, onPress, ...children) {
  let pressedAt = 0;
  const button = h("button", { type: "button", ...attrs }, ...children);
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || button.disabled) return;
    pressedAt = performance.now();
    onPress(event);
  });
  button.addEventListener("click", (event) => {
    if (performance.now() - pressedAt < 800) return;  // already sent on pointer-down
    onPress(event);
  });
  return button;
}

/**
 * The countdowns of the open window: `seconds` left when the message was built. Every node
 * made since the last `resetCountdowns()` (called at the start of each draw) ticks down.
 */
let ticking = null;
let clocks = [];
export function resetCountdowns() {
  clocks = [];
  if (ticking) clearInterval(ticking);
  ticking = null;
}

/**
 * The server's clocks (`deadline`, `move_clock`: seconds left when it built the message) as
 * ends on this page's clock. A message's end is counted from when the page first saw it, so a
 * later redraw of the same message (a card picked, an ack, a shared-screen seat's update)
 * does not start the clock again from its full length. The end is kept for a version, the
 * server keeping its deadlines steady within one window; but a new message at the same
 * version whose end lies more than `DRIFT_MS` away is a window armed again (a restarted
 * server reopens a race after a quiet moment, at the same version): the clock follows it
 * (it read « 0.0 s » while the race was open, and a robot won it).
 */
const DRIFT_MS = 1000;
const arrivals = new WeakMap();
const kept = {};

function arrivedAt(message) {
  if (!arrivals.has(message)) arrivals.set(message, performance.now());
  return arrivals.get(message);
}

function clockOf(message, key) {
  const seconds = message[key];
  if (seconds === null || seconds === undefined) return null;
  const end = arrivedAt(message) + seconds * 1000;
  const clock = kept[key];
  if (!clock || clock.version !== message.version || Math.abs(end - clock.end) > DRIFT_MS) {
    kept[key] = { version: message.version, end, length: seconds };
  }
  return kept[key];
}

/** The window's full length as first seen for this window (redraws keep the bar's scale). */
export function windowLength(message) {
  const clock = clockOf(message, "deadline");
  return Math.max(clock ? clock.length : 0, message.deadline || 0);
}

/**
 * The seconds left on the clock `key` of `message` (its open window's `deadline` unless
 * said otherwise), counted from when this page first saw the window (see `clockOf`).
 */
export function secondsLeft(message, key = "deadline") {
  const clock = clockOf(message, key);
  return clock ? Math.max(0, (clock.end - performance.now()) / 1000) : null;
}

/**
 * A clock's seconds left as read: « 42 s », « 59 min 57 s » (a one-hour correspondence move
 * read « 3597 s »), « 11 h 59 min », « 2 j 5 h ».
 */
export function clockText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  if (left < 60) return `${left} s`;
  if (left < 3600) return `${Math.floor(left / 60)} min ${left % 60} s`;
  const days = Math.floor(left / 86400);
  const hours = Math.floor((left % 86400) / 3600);
  return days ? `${days} j ${hours} h` : `${hours} h ${Math.floor((left % 3600) / 60)} min`;
}

/** The countdown of the message's open window, with its full length as first seen. */
export function clockFor(message, label) {
  return countdown(secondsLeft(message), windowLength(message), label);
}

export function countdown(seconds, total, label) {
  if (seconds === null || seconds === undefined) return null;
  const end = performance.now() + seconds * 1000;
  const full = Math.max(total || seconds, 0.1);
  const figure = h("span", { class: "cd-figure" });
  const bar = h("span", { class: "cd-bar" });
  const node = h("div", { class: "game-countdown", role: "timer", "aria-live": "off" },
    h("span", { class: "clock-icon", "aria-hidden": "true" }), h("span", { class: "cd-label", text: label || "Délai" }), figure, h("span", { class: "cd-track" }, bar));
  const tick = () => {
    const left = Math.max(0, (end - performance.now()) / 1000);
    figure.textContent = `${left.toFixed(left < 10 ? 1 : 0)} s`;
    bar.style.setProperty("width", `${Math.min(100, (100 * left) / full)}%`);
    node.classList.toggle("urgent", left < Math.min(3, full / 3));
    return left > 0;
  };
  tick();
  clocks.push(tick);
  if (!ticking) {
    ticking = setInterval(() => {
      const alive = clocks.map((t) => t()).some(Boolean);
      if (!alive) { clearInterval(ticking); ticking = null; }
    }, 100);
  }
  return node;
}

/** Keep a few recent log lines for a prominent "what just happened" strip. */
export class NewsFeed {
  constructor(size = 4) { this.size = size; this.lines = []; this.seenTo = -1; this.fresh = []; }

  update(message) {
    if (message === this.last) return this.lines;  // a redraw of the same message
    this.last = message;
    const lines = message.log || [];
    if (message.full) { this.lines = []; this.fresh = []; }
    const added = message.full ? [] : lines;
    this.lines = [...this.lines, ...lines].slice(-this.size);
    this.fresh = added.map((l) => l.text);
    return this.lines;
  }
}

/** A <details> whose open/closed state, once the player toggles it, survives redraws. */
const remembered = new Map();
export function keepOpen(details, key) {
  if (remembered.has(key)) details.open = remembered.get(key);
  details.addEventListener("toggle", () => remembered.set(key, details.open));
  return details;
}
