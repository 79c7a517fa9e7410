// Shared screen: the other seats this device plays (a tablet in the middle of the table).
// Each seat has its own SeatChannel (`/t/<code>/ws?seat=N`, authorised by the device's
// cookie): its own view (its legal actions) and its own action in flight, so that two players
// pressing on the same tablet send two independent presses.
import { SeatChannel, tableSocketUrl } from "../../net.js";

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
    this.channels = new Map();
    this.onChange = () => {};
    this.onNotice = () => {};
    for (const seat of this.seats) {
      this.channels.set(seat, new SeatChannel(tableSocketUrl(this.code, seat), {
        seat,
        onState: () => this.onChange(),
        onNotice: (text) => this.onNotice(seat, text),
      }));
    }
  }

  get active() {
    return this.seats.length > 0;
  }

  view(seat) {
    const channel = this.channels.get(seat);
    return channel && channel.current ? channel.current.view : null;
  }

  act(seat, action) {
    const channel = this.channels.get(seat);
    if (channel) channel.act(action);
  }
}
