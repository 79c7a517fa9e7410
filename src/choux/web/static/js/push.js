// « Me prévenir quand c'est mon tour »: this device's opt-in to web push notifications.
// The subscription is the browser's; the server keeps it under this visitor's identity.
import { h } from "./dom.js";

function csrf() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || "Notifications indisponibles.");
  return data;
}

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export async function current() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

export async function enable() {
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error("Notifications refusées par le navigateur.");
  }
  const registration = await navigator.serviceWorker.ready;
  const { key } = await (await fetch("/push/cle", { credentials: "same-origin" })).json();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  return post("/push/abonnement", subscription.toJSON());
}

export async function disable() {
  const subscription = await current();
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return post("/push/desabonnement", { endpoint });
}

// The switch on a table page, for a seated person on a device that can receive pushes.
export function pushSwitch(box, notify) {
  if (!box || !supported()) return null;
  const button = h("button", {
    type: "button", class: "button push-switch", id: "push-switch", "aria-pressed": "false",
    text: "Me prévenir quand c'est mon tour",
  });
  const show = (on) => {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? "Notifications activées (désactiver)" : "Me prévenir quand c'est mon tour";
  };
  current().then((s) => show(!!s)).catch(() => {});
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const on = button.getAttribute("aria-pressed") !== "true";
      const answer = on ? await enable() : await disable();
      show(on);
      if (answer && answer.message) notify(answer.message, "info");
    } catch (error) {
      notify(error.message || "Notifications indisponibles.");
    } finally {
      button.disabled = false;
    }
  });
  box.append(button);
  return button;
}
