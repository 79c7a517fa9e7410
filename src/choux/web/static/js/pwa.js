// Registers Choux's service worker (offline page, notifications) on every page.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
    console.warn("service worker non enregistré", error);
  });
}
