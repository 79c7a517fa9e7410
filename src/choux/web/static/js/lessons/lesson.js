// The lesson panel of a guided first game: one rule at each step, chosen from what the
// table shows now. It reads the table page's current message (window.chouxTable), so the
// game itself is the usual one: same engine, same table page, same robot.
import { clear, h } from "../dom.js";

/**
 * steps: [{ id, title, text(view) -> string, when(view, seat) -> bool }] in priority order:
 * the first step whose `when` holds is shown (the last one should always hold).
 */
export function startLesson(steps) {
  const title = document.getElementById("lesson-title");
  const text = document.getElementById("lesson-text");
  const progress = document.getElementById("lesson-progress");
  const seen = new Set();
  let shown = null;
  let version = null;

  function update() {
    const table = window.chouxTable;
    const message = table && table.current;
    if (!message || message.version === version && shown !== null) return;
    version = message.version;
    const step = steps.find((s) => s.when(message.view, message.seat, message)) || steps[steps.length - 1];
    seen.add(step.id);
    document.getElementById("lesson").dataset.version = String(version);  // read up to here
    progress.textContent = `${seen.size} règle${seen.size > 1 ? "s" : ""} vue${seen.size > 1 ? "s" : ""} sur ${steps.length}`;
    if (shown === step.id) return;
    shown = step.id;
    document.getElementById("lesson").dataset.step = step.id;
    title.textContent = step.title;
    const peek = document.getElementById("lesson-peek-title");  // a phone's line above the game
    if (peek) peek.textContent = step.title;
    clear(text);
    for (const paragraph of step.text(message.view, message).split("\n")) text.append(h("p", { text: paragraph }));
  }

  update();
  setInterval(update, 250);
}
