// Choux's service worker: an offline page, and « À vous de jouer » notifications.
// A notification is not shown when the table's page is open and visible on this device.
const CACHE = "choux-offline-v2";
const OFFLINE = "/hors-ligne";
// the offline page and everything it is drawn with (its top bar takes accounts.css too)
const KEEP = [OFFLINE, "/static/css/choux.css", "/static/css/accounts.css", "/static/icons/choux-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  // only page loads fall back to the offline page (form posts go to the network untouched)
  if (event.request.mode !== "navigate" || event.request.method !== "GET") return;
  event.respondWith(fetch(event.request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    return;
  }
  const url = new URL(data.url || "/", self.location.origin);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const watching = open.some((c) => new URL(c.url).pathname === url.pathname && c.visibilityState === "visible");
    if (watching) return;  // the person is looking at that table already
    await self.registration.showNotification(data.title || "Choux", {
      body: data.body || "",
      tag: data.tag,
      icon: "/static/icons/choux-192.png",
      badge: "/static/icons/choux-192.png",
      data: { url: url.pathname },
    });
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((c) => new URL(c.url).pathname === path);
    if (same) return same.focus();
    return self.clients.openWindow(path);
  })());
});
