// Shared screen: the other seats this device plays (a tablet in the middle of the table).
// Each seat has its own WebSocket (`/t/<code>/ws?seat=N`, authorised by the device's cookie),
// its own view (its legal actions) and its own action in flight, so that two players pressing
// on the same tablet send two independent presses.
import { newId } from "../../dom.js";
import { TableSocket } from "../../net.js";

export class SharedSeats {
  constructor() {
    const root = document.getElementById("table");
    let seats = [];
    try {
      seats = JSON.parse(root.dataset.shared || "[]");
    } catch (error) {
      seats = [];
    }
    this.code = root.dataset.code;
    this.seats = seats.filter((s) => Number.isInteger(s));
    this.views = new Map();
    this.pending = new Map();
    this.sockets = new Map();
    this.onChange = () => {};
    this.onNotice = () => {};
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    for (const seat of this.seats) {
      const socket = new TableSocket(`${scheme}//${location.host}/t/${this.code}/ws?seat=${seat}`, {
        onOpen: () => {
          const p = this.pending.get(seat);
          if (p) socket.send({ type: "action", id: p.id, action: p.action });
        },
        onMessage: (message) => this.receive(seat, message),
      });
      this.sockets.set(seat, socket);
    }
  }

  get active() {
    return this.seats.length > 0;
  }

  view(seat) {
    return this.views.get(seat) || null;
  }

  receive(seat, message) {
    if (message.type === "state") {
      if (message.seat !== seat) return;  // the cookie no longer holds this seat
      this.views.set(seat, message.view);
      this.onChange();
    } else if (message.type === "ack") {
      const p = this.pending.get(seat);
      if (p && p.id === message.id) this.pending.delete(seat);
    } else if (message.type === "refused") {
      const p = this.pending.get(seat);
      if (!message.id || (p && p.id === message.id)) this.pending.delete(seat);
      this.onNotice(seat, message.message);
    }
  }

  act(seat, action) {
    if (this.pending.has(seat)) return;
    const id = newId();
    this.pending.set(seat, { id, action });
    const socket = this.sockets.get(seat);
    if (socket) socket.send({ type: "action", id, action });
  }
}
