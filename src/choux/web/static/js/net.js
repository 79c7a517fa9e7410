// The table's wire: one WebSocket per seat, reconnecting by itself with a banner while it is
// down (TableSocket), and the seat's stream of views with its action in flight (SeatChannel).
import { newId } from "./dom.js";

const BANNER_TEXT = "Connexion perdue, reconnexion…";
// the moves made meanwhile are queued and sent on return; the game does not wait (the others
// play on, the clocks run, and after the grace a robot takes an absent seat)
const OFFLINE_TEXT = "Hors ligne : vos coups partiront au retour du réseau, mais la partie ne vous attend pas.";

export class TableSocket {
  constructor(url, { onMessage, onOpen, onClose, onTooLong, banner }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onClose = onClose;  // the socket is gone: what was sent and not answered may be lost
    this.onTooLong = onTooLong;
    this.banner = banner;
    this.delay = 500;
    this.ws = null;
    this.lastSeen = Date.now();
    this.closedByUs = false;
    this.connect();
    this.watchdog = setInterval(() => this.check(), 5000);
    // the banner sits at the bottom of the screen: the page keeps room for it (--banner-h),
    // so that it covers no control (at the top it hid the title and the secret choice)
    if (banner && typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => document.documentElement.style.setProperty("--banner-h", `${Math.ceil(banner.getBoundingClientRect().height)}px`)).observe(banner);
    }
    // the browser knows at once that the network is gone: say so (the socket's silence took
    // 45 s to notice, and a card tapped meanwhile only stayed raised), then start afresh
    // when it is back (a socket that lived through it may be dead without knowing)
    window.addEventListener("offline", () => this.showBanner(true, OFFLINE_TEXT));
    window.addEventListener("online", () => this.reconnectNow(true));
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
      if (this.ws !== ws) return;
      this.delay = 500;
      this.lastSeen = Date.now();
      this.showBanner(false);
      if (this.onOpen) this.onOpen();
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;  // replaced (`reconnectNow`)
      this.lastSeen = Date.now();
      // « offline » said, yet the socket speaks: the network is there after all
      if (navigator.onLine && this.banner && this.banner.textContent === OFFLINE_TEXT) this.showBanner(false);
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
      if (this.onClose) this.onClose();
      if (event.code === 4404) {
        this.showBanner(true, "Cette table n'existe plus.");
        return;
      }
      if (event.code === 4403) {
        this.showBanner(true, "Cette table est privée : ouvrez-la par son lien d'invitation.");
        return;
      }
      if (event.code === 4401) {  // the account's session ended elsewhere: no seat until logged in again
        this.showBanner(true, "Vous avez été déconnecté·e de votre compte (déconnexion ou mot de passe changé sur un autre appareil) : ",
          { href: `/connexion?suite=${encodeURIComponent(location.pathname)}`, text: "reconnectez-vous pour reprendre votre place" });
        return;
      }
      if (event.code === 1009 && this.onTooLong) this.onTooLong();  // then reconnect as usual
      if (event.code === 4429) {  // too many sockets from this address: try again later
        this.delay = 5000;
        this.scheduleReconnect();
        this.showBanner(true, "Trop de connexions depuis votre adresse : fermez d'autres onglets de Choux.");
        return;
      }
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    this.showBanner(true, navigator.onLine === false ? OFFLINE_TEXT : BANNER_TEXT);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 5000);
  }

  reconnectNow(fresh = false) {
    const old = this.ws;
    if (old && old.readyState === WebSocket.OPEN && !fresh) return;
    if (old) {  // one socket at a time: the old one's events are ignored from now on
      this.ws = null;
      old.close();
    }
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
      if (this.onClose) this.onClose();
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

  /** The connection's banner; `link` ({ href, text }): the way out, after the text. */
  showBanner(show, text = BANNER_TEXT, link = null) {
    if (!this.banner) return;
    this.banner.hidden = !show;
    this.banner.textContent = show ? text : "";
    if (show && link) {
      const a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.text;
      this.banner.append(a, ".");
    }
    document.body.classList.toggle("offline", show);
  }
}

/**
 * One seat's stream of views over its own socket: the last state message, the log lines and
 * the one action in flight. An action carries an id (the server applies an id once); it is
 * sent again after a reconnection until acknowledged, and settles once acknowledged and seen
 * in a state (until then the board may still show the view from before it, so `act` refuses
 * a second one). A message that skips log lines or goes back in versions means something was
 * lost: the channel asks for the full state again (`sync`).
 *
 * Options: `initial` (the state message the page was rendered with), `seat` (when set, states
 * for another seat are ignored: the device no longer holds that seat), `banner`, and the
 * callbacks `onState(message)`, `onNotice(text)`, `onBusy(busy)`, `onOther(message)` and
 * `onDown()` (the socket closed: the chat's lines not yet confirmed may be lost).
 */
export class SeatChannel {
  constructor(url, { initial = null, seat, banner, onState, onNotice, onBusy, onOther, onDown } = {}) {
    this.current = initial;
    this.logLines = initial ? initial.log.slice() : [];
    this.logTo = initial ? initial.log_to : null;
    this.pending = null;
    this.seat = seat;
    this.onState = onState || (() => {});
    this.onNotice = onNotice || (() => {});
    this.onBusy = onBusy || (() => {});
    this.onOther = onOther || (() => {});  // any other message type (the table chat)
    this.socket = new TableSocket(url, {
      banner,
      onOpen: () => {
        const p = this.pending;
        if (p && p.acked === undefined) this.socket.send({ type: "action", id: p.id, action: p.action });
      },
      onMessage: (message) => this.receive(message),
      onClose: onDown,
      // a message too big for the server's socket (64 KB): sent again on reconnection, it
      // would close the socket again, for ever; the move is dropped with a word instead
      onTooLong: () => {
        if (!this.pending || this.pending.acked !== undefined) return;
        this.settle();
        if (this.current) this.onState(this.current);
        this.onNotice("Coup trop long pour être envoyé : il n'a pas été joué.");
      },
    });
  }

  get busy() {
    return this.pending !== null;
  }

  receive(message) {
    if (message.type === "state") {
      if (this.seat !== undefined && message.seat !== this.seat) return;
      const current = this.current;
      if (!message.full && (!current || message.log_from !== this.logTo || message.version < current.version)) {
        this.socket.send({ type: "sync" });  // a gap: ask for everything again
        return;
      }
      if (message.kept) {  // large parts unchanged since the message this page holds
        const held = current && current.view;
        if (!held || current.build !== message.kept_from || message.kept.some((key) => !(key in held))) {
          this.socket.send({ type: "sync" });
          return;
        }
        for (const key of message.kept) message.view[key] = held[key];
      }
      if (message.full) this.logLines = message.log.slice();
      else this.logLines.push(...message.log);
      this.logTo = message.log_to;
      this.current = message;
      if (this.pending && this.pending.acked !== undefined && message.version >= this.pending.acked) this.settle();
      this.onState(message);
    } else if (message.type === "ack") {
      if (!this.pending || this.pending.id !== message.id) return;
      this.pending.acked = message.version;
      if (this.current && this.current.version >= message.version) {  // the state came first
        this.settle();
        this.onState(this.current);
      }
    } else if (message.type === "error") {
      this.onNotice(message.message);
    } else if (message.type === "refused") {
      if (!message.id || (this.pending && this.pending.id === message.id)) {
        this.settle();
        if (this.current) this.onState(this.current);
      }
      this.onNotice(message.message);
    } else {
      this.onOther(message);
    }
  }

  /** Send a message that is not an action (the chat): false when offline. */
  send(message) {
    return this.socket.send(message);
  }

  settle() {
    this.pending = null;
    this.onBusy(false);
  }

  /** Send `action`: null when one is already in flight, false when offline (it will be
   * sent on reconnection), true when sent. */
  act(action) {
    if (this.pending) return null;
    this.pending = { id: newId(), action };
    this.onBusy(true);
    return this.socket.send({ type: "action", id: this.pending.id, action });
  }
}

/** The URL of the WebSocket of table `code` (for `seat`: a shared-screen seat). */
export function tableSocketUrl(code, seat = null) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/t/${code}/ws${seat === null ? "" : `?seat=${seat}`}`;
}
