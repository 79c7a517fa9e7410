// Rules page: switch between the deck of rule cards and the plain text.
const rules = document.getElementById("rules");
for (const button of document.querySelectorAll(".rules-switch [data-mode]")) {
  button.addEventListener("click", () => {
    const mode = button.dataset.mode;
    rules.classList.toggle("mode-cards", mode === "cards");
    rules.classList.toggle("mode-text", mode === "text");
    for (const other of document.querySelectorAll(".rules-switch [data-mode]")) {
      const active = other === button;
      other.classList.toggle("active", active);
      other.setAttribute("aria-pressed", String(active));
    }
    try { localStorage.setItem("choux-rules-mode", mode); } catch (error) { /* private mode */ }
  });
}
try {
  if (localStorage.getItem("choux-rules-mode") === "text") {
    document.querySelector('.rules-switch [data-mode="text"]').click();
  }
} catch (error) { /* private mode */ }
