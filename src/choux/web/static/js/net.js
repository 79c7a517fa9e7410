// One WebSocket per table page, reconnecting by itself with a banner while it is down.

const BANNER_TEXT = "Connexion perdue, reconnexion…";

export class TableSocket {
  constructor(url, { onMessage, onOpen, banner }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.banner = banner;
    this.delay = 500;
    this.ws = null;
    this.lastSeen = Date.now();
    this.closedByUs = false;
    this.connect();
    this.watchdog = setInterval(() => this.check(), 5000);
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.check();
    });
  }

  connect() {
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (error) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 500;
      this.lastSeen = Date.now();
      this.showBanner(false);
      if (this.onOpen) this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      this.lastSeen = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message.type === "ping") {
        this.send({ type: "pong" });
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === 4404) {
        this.showBanner(true, "Cette table n'existe plus.");
        return;
      }
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    this.showBanner(true);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  reconnectNow() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    this.delay = 500;
    clearTimeout(this.timer);
    this.connect();
  }

  check() {
    const ws = this.ws;
    if (!ws) return;
    if (ws.readyState === WebSocket.OPEN && Date.now() - this.lastSeen > 45000) {
      ws.close();  // silent for too long: assume it is dead
      this.ws = null;
      this.scheduleReconnect();
    } else if (ws.readyState === WebSocket.OPEN) {
      this.send({ type: "ping" });
    }
  }

  get open() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  showBanner(show, text = BANNER_TEXT) {
    if (!this.banner) return;
    this.banner.hidden = !show;
    this.banner.textContent = show ? text : "";
    document.body.classList.toggle("offline", show);
  }
}
