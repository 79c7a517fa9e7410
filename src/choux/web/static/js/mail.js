// « Ou par e-mail »: the address this visitor's turns are mailed to, when the server sends
// e-mails (asked to the server; nothing shown otherwise).
import { h } from "./dom.js";

export async function mailForm(box, notify) {
  if (!box) return null;
  let state;
  try {
    state = await (await fetch("/notifications/email", { credentials: "same-origin" })).json();
  } catch (error) {
    return null;
  }
  if (!state.enabled) return null;
  const input = h("input", {
    type: "email", name: "email", id: "email-address", autocomplete: "email",
    placeholder: "vous@exemple.fr", "aria-label": "Adresse e-mail pour être prévenu·e",
  });
  input.value = state.address || "";
  // an address given but not confirmed yet: nothing goes there before its owner opens the link
  const pending = h("p", { class: "hint", id: "email-pending",
    text: "Adresse à confirmer : ouvrez le lien reçu par e-mail." });
  pending.hidden = !state.address || state.confirmed;
  const form = h("form", { class: "email-form", id: "email-form" },
    h("label", { for: "email-address", text: "Ou par e-mail :" }), input,
    h("button", { class: "button", type: "submit", text: "Enregistrer" }), pending);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const meta = document.querySelector('meta[name="csrf-token"]');
    const response = await fetch("/notifications/email", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": meta ? meta.content : "" },
      body: JSON.stringify({ address: input.value }),
    });
    const answer = await response.json().catch(() => ({}));
    if (response.ok) pending.hidden = !answer.address || !!answer.confirmed;
    notify(answer.message || "Adresse non enregistrée.", response.ok ? "info" : "error");
  });
  box.append(form);
  return form;
}
