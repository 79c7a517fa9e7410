// Sound and motion cues, so that a player who looks away knows what happened:
// a chime when it becomes your turn, a snap for a played card, a rattle for dice, a rising
// sweep when a race opens. Sounds are made with WebAudio (no files), never before the person
// has touched the page, and can be switched off (remembered on this device). Played cards
// slide to the trick and a finished trick flies to its winner, unless the person prefers
// reduced motion.
import { h } from "./dom.js";

const MUTE_KEY = "choux.cues.muted";
const PLAYED = ".cq-played, .cx-played, .trick-plays > *";
const DICE_GAMES = new Set(["cul-de-chouette"]);

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null;
  }
}

export class Cues {
  constructor(game, seat) {
    this.game = game;
    this.seat = seat;
    this.muted = stored(MUTE_KEY) === "1";
    this.audio = null;
    this.touched = false;
    this.snapshot = [];
    this.reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    const wake = () => {
      this.touched = true;  // browsers allow sound only after a gesture: wait for one
      if (this.audio && this.audio.state === "suspended") this.audio.resume();
    };
    for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, wake, { capture: true });
    window.chouxCues = this;  // tests read what was (or was not) played
    this.played = [];
    this.moved = 0;  // cards set in motion (tests)
  }

  switchButton(box) {
    if (!box) return null;
    const button = h("button", { type: "button", class: "button cues-switch", id: "sound-switch" });
    const show = () => {
      button.setAttribute("aria-pressed", this.muted ? "false" : "true");
      button.textContent = this.muted ? "Son coupé" : "Son activé";
    };
    button.addEventListener("click", () => {
      this.muted = !this.muted;
      try {
        localStorage.setItem(MUTE_KEY, this.muted ? "1" : "0");
      } catch (error) { /* private mode: for this page only */ }
      show();
    });
    show();
    box.append(button);
    return button;
  }

  get motion() {
    return !(this.reduced && this.reduced.matches);
  }

  // ------------------------------------------------------------------ sound

  play(kind) {
    if (this.muted || !this.touched) return false;
    if (!this.audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return false;
      this.audio = new Context();
    }
    this.played.push(kind);
    const now = this.audio.currentTime;
    if (kind === "turn") {
      this.tone(660, now, 0.12, "sine", 0.18);
      this.tone(880, now + 0.13, 0.18, "sine", 0.18);
    } else if (kind === "card") {
      this.noise(now, 0.06, 0.25);
    } else if (kind === "dice") {
      for (let i = 0; i < 4; i += 1) this.noise(now + i * 0.07 + Math.random() * 0.02, 0.035, 0.3);
    } else if (kind === "race") {
      this.tone(300, now, 0.35, "triangle", 0.2, 900);
    }
    return true;
  }

  tone(freq, start, length, type, volume, to = null) {
    const osc = this.audio.createOscillator();
    const gain = this.audio.createGain();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, start);
    if (to) osc.frequency.exponentialRampToValueAtTime(to, start + length);
    gain.gain.setValueAtTime(volume, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + length);
    osc.connect(gain).connect(this.audio.destination);
    osc.start(start);
    osc.stop(start + length + 0.02);
  }

  noise(start, length, volume) {
    const frames = Math.max(1, Math.floor(this.audio.sampleRate * length));
    const buffer = this.audio.createBuffer(1, frames, this.audio.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
    const source = this.audio.createBufferSource();
    const gain = this.audio.createGain();
    gain.gain.value = volume;
    source.buffer = buffer;
    source.connect(gain).connect(this.audio.destination);
    source.start(start);
  }

  // ------------------------------------------------------------------ a new state

  // Before the board is redrawn: where the trick's cards are (to fly them to the winner).
  beforeDraw() {
    this.snapshot = [...document.querySelectorAll(PLAYED)].map((node) => ({
      node: node.cloneNode(true),
      rect: node.getBoundingClientRect(),
    }));
  }

  // After: the sound of what changed, and the cards' motion.
  afterDraw(before, now) {
    if (!before || now.version === before.version && now.status === before.status) return;
    // the seats the game waits for (a renderer's `waitingOn`, else its actors): in Cul de
    // Chouette everyone may shout or press −10 at any time, which is nobody's turn
    const actors = (m) => {
      if (!m.view) return [];
      const waiting = typeof this.waitingOn === "function" ? this.waitingOn(m.view) : m.view.actors;
      return Array.isArray(waiting) ? waiting : [];
    };
    const mine = (m) => this.seat !== null && m.status === "live" && actors(m).includes(this.seat);
    if (mine(now) && !mine(before)) this.play("turn");
    else if (DICE_GAMES.has(this.game) && now.deadline !== null && before.deadline === null) this.play("race");
    else if (now.version > before.version) this.play(DICE_GAMES.has(this.game) ? "dice" : "card");
    if (!this.motion) return;
    const trick = (m) => (m.view && Array.isArray(m.view.trick) ? m.view.trick : []);
    const was = trick(before);
    const is = trick(now);
    const nodes = [...document.querySelectorAll(PLAYED)];
    if (is.length > was.length) {
      for (const [index, played] of is.entries()) {
        if (index < was.length || !nodes[index]) continue;
        nodes[index].style.setProperty("--from-y", played.seat === this.seat ? "90px" : "-90px");
        nodes[index].classList.add("cue-played");
        this.moved += 1;
      }
    } else if (was.length && is.length < was.length && now.view.last_trick) {
      this.gather(now.view.last_trick.winner);
    }
  }

  // The cards of the trick just won fly to the winner's place.
  gather(winner) {
    const target = document.querySelector(`#seats [data-seat="${winner}"]`);
    if (!target || !this.snapshot.length) return;
    const goal = target.getBoundingClientRect();
    this.moved += this.snapshot.length;
    for (const { node, rect } of this.snapshot) {
      node.classList.add("cue-gather", "cue-ghost");
      Object.assign(node.style, {
        position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`,
        width: `${rect.width}px`, height: `${rect.height}px`, margin: "0", zIndex: "50", pointerEvents: "none",
      });
      node.style.setProperty("--to-x", `${goal.left + goal.width / 2 - rect.left - rect.width / 2}px`);
      node.style.setProperty("--to-y", `${goal.top + goal.height / 2 - rect.top - rect.height / 2}px`);
      node.setAttribute("aria-hidden", "true");
      node.addEventListener("animationend", () => node.remove());
      setTimeout(() => node.remove(), 1000);
      document.body.append(node);
    }
  }
}
