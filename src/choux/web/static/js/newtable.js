// Create-table form: show only as many seat rows as there are players.
const players = document.getElementById("players");
function update() {
  const n = Number(players.value);
  for (const row of document.querySelectorAll(".seat-choice")) {
    const visible = Number(row.dataset.seat) < n;
    row.hidden = !visible;
    row.querySelector("select").disabled = !visible;
  }
}
players?.addEventListener("change", update);
update();
