// Create-table form: show only as many seat rows as there are players.
const players = document.getElementById("players");
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
}
players?.addEventListener("change", update);
update();
