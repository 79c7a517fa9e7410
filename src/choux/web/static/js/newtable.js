// Create-table form: show only as many seat rows as there are players, offer only seated
// places for a seat-valued option (the scribe), and show an option only when it matters
// (the scribe with real dice).
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

players?.addEventListener("change", update);
form?.addEventListener("change", update);
update();
