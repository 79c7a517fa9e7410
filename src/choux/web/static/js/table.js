// The table page: keeps the seat's view in sync over the WebSocket and draws it.
import { clear, h } from "./dom.js";
import { SeatChannel, tableSocketUrl } from "./net.js";
import { TableChat } from "./chat.js";
import { pushSwitch } from "./push.js";
import { mailForm } from "./mail.js";
import { Cues } from "./cues.js";
import * as generic from "./games/generic.js";
import { headline, placeLine } from "./outcome.js";
import { announce, announceTurn } from "./announce.js";

const root = document.getElementById("table");
const code = root.dataset.code;
const mySeat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
const banner = document.getElementById("banner");
const board = document.getElementById("board");
const actionsBox = document.getElementById("actions");
const seatsBox = document.getElementById("seats");
const logBox = document.getElementById("log");
const notice = document.getElementById("notice");

let renderer = generic;
try {
  renderer = await import(root.dataset.renderer);
} catch (error) {
  console.warn("interface du jeu indisponible, interface générique", error);
}

let current = JSON.parse(document.getElementById("initial-state").textContent);
let announcedTo = current.log_to;
const cues = new Cues(root.dataset.game, mySeat);
const chatBox = document.getElementById("chat");
let chat = null;
const channel = new SeatChannel(tableSocketUrl(code), {
  banner,
  initial: current,
  onState: (message) => {
    // new log lines are said once (an ack re-delivers the same state; a full resync is not news)
    if (!message.full && message.log_to !== announcedTo) announce(message.log.map((line) => line.text));
    announcedTo = message.log_to;
    const before = current;
    current = message;
    cues.beforeDraw();
    draw();
    if (before !== message) cues.afterDraw(before, current);  // sounds and motion: news only
  },
  onNotice: showNotice,
  onBusy: (busy) => root.classList.toggle("busy", busy),
  onOther: (message) => {
    if ((message.type === "chat" || message.type === "chat_refused") && chat) chat.receive(message);
  },
});
chat = chatBox ? new TableChat(chatBox, code, (message) => channel.send(message)) : null;

function showNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
  clearTimeout(showNotice.timer);
  if (text) showNotice.timer = setTimeout(() => { notice.hidden = true; }, 6000);
}

function act(action) {
  if (channel.busy) return;
  showNotice("");
  if (channel.act(action) === false) showNotice("Hors ligne : le coup partira dès la reconnexion.");
}

function names() {
  return current.seats.map((s) => s.name);
}

function drawSeats() {
  clear(seatsBox);
  const actors = new Set(current.view.actors || []);
  const scores = current.view.scores || null;
  for (const s of current.seats) {
    const classes = ["seat-chip"];
    if (actors.has(s.seat)) classes.push("acting");
    if (s.seat === mySeat) classes.push("me");
    if (!s.connected) classes.push("away");
    if (s.kind === "open") classes.push("free");
    const label = s.kind === "open" ? "place libre" : s.name;
    seatsBox.append(
      h("li", { class: classes.join(" "), dataset: { seat: s.seat } },
        h("span", { class: "seat-name", text: label }),
        scores && scores[s.seat] !== undefined ? h("span", { class: "seat-score", text: String(scores[s.seat]) }) : null,
        s.seat === current.view.arbiter ? h("span", { class: "seat-tag arbiter", text: "Arbitre" }) : null,
        s.kind === "bot" ? h("span", { class: "seat-tag", text: "robot" }) : null,
        s.kind === "human" && !s.connected ? h("span", { class: "seat-tag", text: "absent" }) : null,
      ),
    );
  }
}

function drawLog() {
  clear(logBox);
  const shown = channel.logLines.slice(-80);
  for (const line of shown) logBox.append(h("li", { text: line.text }));
  logBox.scrollTop = logBox.scrollHeight;
}

let firstDraw = true;
const baseTitle = document.title;

function drawResult() {
  const box = document.getElementById("result");
  const result = current.result;
  const appearing = box.hidden && !!result;
  box.hidden = !result;
  if (!result) return;
  if (appearing && !firstDraw) box.scrollIntoView({ behavior: "smooth", block: "start" });
  const arbiter = current.view.arbiter;
  const title = headline(result, mySeat, names(), arbiter);
  if (appearing) announce([title]);
  document.getElementById("result-title").textContent = title;
  document.getElementById("result-place").textContent = placeLine(result, mySeat, arbiter, current.view.teams);
  document.getElementById("result-reason").textContent = result.reason || "";
  const list = clear(document.getElementById("result-list"));
  const order = result.ranks.map((rank, seat) => ({ rank, seat }))
    .filter(({ seat }) => seat !== current.view.arbiter)  // a referee plays for no score
    .sort((a, b) => a.rank - b.rank);
  for (const { rank, seat } of order) {
    list.append(h("li", { class: rank === 1 ? "winner" : "" },
      h("span", { class: "rank", text: rank === 1 ? "1er" : `${rank}e` }),
      h("span", { class: "who", text: names()[seat] + (seat === mySeat ? " (vous)" : "") }),
      h("span", { class: "points", text: renderer.scoreLabel ? renderer.scoreLabel(result.scores[seat]) : `${result.scores[seat]} pts` })));
  }
  const replay = document.getElementById("replay-link");
  if (current.record_id) {
    replay.hidden = false;
    replay.href = `/parties/${current.record_id}`;
  }
  const next = document.getElementById("next-table");
  if (current.next_code) {
    next.hidden = false;
    next.href = `/t/${current.next_code}`;
  }
}

function statusLine() {
  const line = document.getElementById("status-line");
  const view = current.view;
  const actors = view.actors || [];
  let text;
  if (current.status === "open") text = "En attente des autres joueurs… Envoyez-leur le lien d'invitation.";
  else if (current.status === "over") text = "Partie terminée.";
  else if (mySeat !== null && actors.includes(mySeat)) {
    // a game may say what is asked (« À vous de voter ! ») rather than « de jouer »
    text = (renderer.statusText && renderer.statusText(view, mySeat))
      || (mySeat === view.arbiter ? "À vous d'arbitrer !" : "À vous de jouer !");
  }
  else if (actors.length) text = `À ${actors.map((s) => names()[s]).join(", ")} de jouer.`;
  else text = "";
  if (mySeat === null) text = `Vous regardez la partie. ${text}`;
  line.textContent = text;
  clearInterval(statusLine.timer);
  const left = current.deadline ?? current.move_clock;
  if (left !== null && left !== undefined && current.status === "live") {
    const ends = Date.now() + left * 1000;
    // a CSS-drawn clock: the ⏱ emoji has no glyph without an emoji font (an empty box)
    const figure = h("span", { class: "countdown-figure" });
    const clock = h("span", { class: "countdown" }, h("span", { class: "clock-icon", "aria-hidden": "true" }), h("span", { class: "sr-only", text: "temps restant : " }), figure);
    line.append(" ", clock);
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      figure.textContent = left >= 3600 ? longDelay(left) : `${left} s`;
      if (!left) clearInterval(statusLine.timer);
    };
    tick();
    statusLine.timer = setInterval(tick, 250);
  }
  const myTurn = mySeat !== null && actors.includes(mySeat) && current.status === "live";
  root.classList.toggle("my-turn", myTurn);
  announceTurn(myTurn, text);
  document.title = (myTurn ? "● À vous · " : "") + baseTitle;
}

// a correspondence table's move time: « 2 j 5 h », « 11 h 59 min »
function longDelay(seconds) {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  return days ? `${days} j ${hours} h` : `${hours} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function draw() {
  const ctx = { seat: mySeat, names: names(), act, pending: () => channel.busy, message: current, h, clear, redraw: draw };
  drawSeats();
  statusLine();
  clear(board);
  (renderer.render || generic.render)(board, current.view, ctx);
  clear(actionsBox);
  const legal = current.status === "live" ? current.view.legal || [] : [];
  (renderer.renderActions || generic.renderActions)(actionsBox, legal, ctx);
  drawLog();
  drawResult();
  firstDraw = false;
}

document.getElementById("copy-invite")?.addEventListener("click", async () => {
  const input = document.getElementById("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    showNotice("Lien copié : envoyez-le à vos partenaires.");
  } catch (error) {
    input.select();
  }
});

cues.switchButton(document.getElementById("days-switches"));
if (mySeat !== null) {
  pushSwitch(document.getElementById("days-switches"), showNotice);
  mailForm(document.getElementById("days-switches"), showNotice);
}

draw();
window.chouxTable = { get current() { return current; }, act };
