// Create-table form: show only as many seat rows as there are players, offer only seated
// places for a seat-valued option (the scribe), and show an option only when it matters
// (the scribe with real dice).
import { french } from "./dom.js";

const players = document.getElementById("players");
const form = document.getElementById("new-table");

function update() {
  const n = Number(players.value);
  for (const row of document.querySelectorAll(".seat-choice")) {
    const visible = Number(row.dataset.seat) < n;
    row.hidden = !visible;
    row.querySelector("select").disabled = !visible;
    // a seat with a role (the Parlote arbiter) needs an option: choose it for the player
    const needed = visible && row.dataset.option ? document.querySelector(`[name="${row.dataset.option}"]`) : null;
    if (needed) needed.value = row.dataset.value;
  }
  for (const select of document.querySelectorAll("select.seat-option")) {
    for (const option of select.options) {
      if (option.dataset.seat === undefined) continue;
      option.hidden = option.disabled = Number(option.dataset.seat) >= n;
    }
    if (select.selectedOptions[0]?.disabled) select.value = "-1";
  }
  for (const row of document.querySelectorAll(".option-row[data-shown-option]")) {
    const other = document.querySelector(`[name="${row.dataset.shownOption}"]`);
    const shown = !!other && other.value === row.dataset.shownValue;
    row.hidden = !shown;
    for (const field of row.querySelectorAll("input, select")) field.disabled = !shown;
  }
}

// Correspondence: the help says what the chosen time means; the timeout rule only matters
// with a time per move (hidden otherwise, still sent with its default).
function updateCorrespondence() {
  const time = document.getElementById("correspondence-time");
  const hint = document.getElementById("correspondence-hint");
  if (!time || !hint) return;
  const days = time.value !== "";
  hint.textContent = french(days ? hint.dataset.days : hint.dataset.live);  // as the server set it
  const timeout = document.getElementById("correspondence-timeout");
  if (timeout) timeout.hidden = !days;
}

// A long choice (« 3 parties (deux gagnantes à deux joueurs…) ») is cut in a narrow closed
// <select>: its full words are repeated under it while they do not fit.
const ruler = document.createElement("canvas").getContext("2d");
function echoLongChoices() {
  for (const select of form?.querySelectorAll("select") || []) {
    const label = select.selectedOptions[0]?.textContent.trim() || "";
    const style = getComputedStyle(select);
    ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;  // the arrow
    let echo = select.parentElement.querySelector(":scope > .choice-echo");
    const cut = select.clientWidth > 0 && ruler.measureText(label).width > room;
    if (!cut) { echo?.remove(); continue; }
    if (!echo) {
      echo = document.createElement("span");
      echo.className = "choice-echo";
      echo.setAttribute("aria-hidden", "true");  // the select already says it
      select.after(echo);
    }
    echo.textContent = label;
  }
}

function refresh() {
  update();
  updateCorrespondence();
  echoLongChoices();
}

players?.addEventListener("change", refresh);
form?.addEventListener("change", refresh);
addEventListener("resize", echoLongChoices);
refresh();
