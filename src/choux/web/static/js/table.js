// The table page: keeps the seat's view in sync over the WebSocket and draws it.
import { clear, french, h } from "./dom.js";
import { SeatChannel, tableSocketUrl } from "./net.js";
import { TableChat } from "./chat.js";
import { pushSwitch } from "./push.js";
import { mailForm } from "./mail.js";
import { Cues } from "./cues.js";
import { clockText, pointsText, secondsLeft } from "./widgets.js";
import * as generic from "./games/generic.js";
import { headline, joinNames, matchWord, placeLine } from "./outcome.js";
import { announce, announceAsked, announceTurn } from "./announce.js";

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
cues.waitingOn = (view) => waitingOn(view);  // « your turn » chimes only when the game waits for you
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
    // what a game says aloud when it happens (« on redistribue »), besides its log line
    const news = before !== message && !message.full && typeof renderer.news === "function" ? renderer.news(before.view, message.view) : null;
    if (news) showNotice(news, "info");
  },
  onNotice: showNotice,
  onBusy: (busy) => root.classList.toggle("busy", busy),
  onOther: (message) => {
    if ((message.type === "chat" || message.type === "chat_refused") && chat) chat.receive(message);
  },
  onDown: () => { if (chat) chat.lost(); },
});
chat = chatBox ? new TableChat(chatBox, code, (message) => channel.send(message)) : null;

// A refused move or a short news: a toast pinned to the screen (the page may be scrolled far
// from the board), read out by its role="alert", gone after a few seconds or at a tap.
/** A refusal (red), or with kind « info » a confirmation (green: « Vos tours seront
 * annoncés à … » read as an error in red). */
function showNotice(text, kind = "error") {
  clearTimeout(showNotice.fade);
  clearTimeout(showNotice.timer);
  notice.textContent = french(text);
  notice.classList.toggle("info", kind === "info");
  notice.setAttribute("role", kind === "info" ? "status" : "alert");
  notice.classList.remove("fading");
  notice.hidden = !text;
  if (!text) return;
  const shown = Math.min(9000, 4000 + text.length * 40);  // long reasons stay longer
  showNotice.fade = setTimeout(() => notice.classList.add("fading"), shown);
  showNotice.timer = setTimeout(() => showNotice(""), shown + 400);
}
notice.addEventListener("click", () => showNotice(""));

function act(action) {
  if (channel.busy) return;
  showNotice("");
  if (channel.act(action) === false) showNotice("Hors ligne : le coup partira dès la reconnexion.");
}

function names() {
  return current.seats.map((s) => s.name);
}

/**
 * The seats the game waits for, whose decision moves it on: the renderer's hook
 * `waitingOn(view)` (an array of seat numbers) when it has one, else `view.actors`. In Cul de
 * Chouette every seat may call a bévue or shout, yet the game waits for one player only.
 */
function waitingOn(view) {
  const seats = typeof renderer.waitingOn === "function" ? renderer.waitingOn(view) : view.actors;
  return Array.isArray(seats) ? seats : [];
}

/** « absent », and when the server says so, how long before a robot takes the seat (the
 * others did not know how long they would wait): counted down without new messages. */
function absentTag(seat) {
  const left = (current.bot_in || {})[String(seat)];
  if (typeof left !== "number") return h("span", { class: "seat-tag", text: "absent" });
  const tag = h("span", { class: "seat-tag bot-soon", dataset: { botAt: String(Date.now() + left * 1000) } });
  tickAbsent(tag);
  return tag;
}

function tickAbsent(tag) {
  const left = Math.max(0, Math.ceil((Number(tag.dataset.botAt) - Date.now()) / 1000));
  const when = left >= 60 ? `${Math.ceil(left / 60)} min` : `${left} s`;
  tag.textContent = left ? `absent · robot dans ${when}` : "absent · un robot arrive";
  tag.title = "Sans retour de sa part, un robot joue à sa place.";
}
setInterval(() => document.querySelectorAll(".seat-tag.bot-soon").forEach(tickAbsent), 1000);

function drawSeats() {
  clear(seatsBox);
  // before the start nobody is waited for: a free place in gold read as « its turn »
  const actors = new Set(current.status === "open" ? [] : waitingOn(current.view));
  const scores = current.view.scores || null;
  for (const s of current.seats) {
    const classes = ["seat-chip"];
    if (actors.has(s.seat)) classes.push("acting");
    if (s.seat === mySeat) classes.push("me");
    if (!s.connected) classes.push("away");
    if (s.kind === "open") classes.push("free");
    // a person replaced is named « Denis (robot) »: the chip's own tag says it already
    const label = s.kind === "open" ? "place libre" : s.kind === "bot" ? s.name.replace(/ \(robot\)$/, "") : s.name;
    seatsBox.append(
      h("li", { class: classes.join(" "), dataset: { seat: s.seat } },
        h("span", { class: "seat-name", text: label }),
        scores && scores[s.seat] !== undefined ? h("span", { class: "seat-score", text: String(scores[s.seat]) }) : null,
        s.seat === current.view.arbiter ? h("span", { class: "seat-tag arbiter", text: "Arbitre" }) : null,
        s.kind === "bot" ? h("span", { class: "seat-tag", text: "robot" }) : null,
        s.kind === "human" && !s.connected ? absentTag(s.seat) : null,
      ),
    );
  }
}

// on a phone the names make one row that scrolls sideways: reachable by keyboard when it does
function seatsScrollable() {
  if (seatsBox.scrollWidth > seatsBox.clientWidth + 1) seatsBox.setAttribute("tabindex", "0");
  else seatsBox.removeAttribute("tabindex");
}
addEventListener("resize", seatsScrollable);

function drawLog() {
  clear(logBox);
  // the game's journal from its start (the box scrolls; the server sends it all on a full
  // message), bounded so that a game of thousands of turns stays quick to redraw
  for (const line of channel.logLines.slice(-1500)) logBox.append(h("li", { text: line.text }));
  logBox.scrollTop = logBox.scrollHeight;
}

/** Whether the table ended before its game began: a seat was still free (a game starts
 * only once every seat is taken). */
function neverStarted() {
  return current.status === "over" && current.seats.some((s) => s.kind === "open");
}

let firstDraw = true;
const baseTitle = document.title;

function drawResult() {
  const box = document.getElementById("result");
  const result = current.result;
  const abandoned = current.status === "over" && !result;  // a game over days, out of time
  const appearing = box.hidden && (!!result || abandoned);
  box.hidden = !result && !abandoned;
  box.classList.toggle("abandoned", abandoned);
  if (abandoned) {  // no winner, no ranking: the way out (rematch, lobby) all the same
    const unplayed = neverStarted();
    document.getElementById("result-title").textContent = unplayed ? "Table fermée" : "Partie abandonnée";
    document.getElementById("result-place").textContent = french(unplayed
      ? "La table s'est fermée avant que toutes les places soient prises : aucune partie n'a été jouée."
      : "Le temps d'un coup s'est écoulé : la partie s'arrête là, sans classement.");
    document.getElementById("result-reason").textContent = "";
    clear(document.getElementById("result-list"));
    if (appearing && !firstDraw) box.scrollIntoView({ behavior: "smooth", block: "start" });
    drawNextTable();
    return;
  }
  if (!result) return;
  if (appearing && !firstDraw) box.scrollIntoView({ behavior: "smooth", block: "start" });
  const arbiter = current.view.arbiter;
  const title = headline(result, mySeat, names(), arbiter, matchWord(renderer, current.view, result));
  if (appearing) announce([title]);
  document.getElementById("result-title").textContent = french(title);
  document.getElementById("result-place").textContent = french(placeLine(result, mySeat, arbiter, current.view.teams));
  document.getElementById("result-reason").textContent = french(sentence(result.reason || ""));
  const list = clear(document.getElementById("result-list"));
  const order = result.ranks.map((rank, seat) => ({ rank, seat }))
    .filter(({ seat }) => seat !== current.view.arbiter)  // a referee plays for no score
    .sort((a, b) => a.rank - b.rank);
  for (const { rank, seat } of order) {
    list.append(h("li", { class: rank === 1 ? "winner" : "" },
      h("span", { class: "rank", text: rank === 1 ? "1er" : `${rank}e` }),
      h("span", { class: "who", text: names()[seat] + (seat === mySeat ? " (vous)" : "") }),
      h("span", { class: "points", text: renderer.scoreLabel ? renderer.scoreLabel(result.scores[seat]) : pointsText(result.scores[seat]) })));
  }
  const replay = document.getElementById("replay-link");
  if (current.record_id) {
    replay.hidden = false;
    replay.href = `/parties/${current.record_id}`;
    // what the replay shows is what was won: a Chouine manche or match, else the game
    replay.textContent = `Revoir ${matchWord(renderer, current.view, result)}`;
  }
  drawNextTable();
}

function drawNextTable() {
  // a friend already opened the rematch: one way in for the players, not « Rejouer » beside
  // it (both led to the same table, where a player of this one gets their seat back). A
  // spectator follows it as a spectator: its seats wait for the former players.
  if (!current.next_code) return;
  const next = document.getElementById("next-table");
  const rematch = document.getElementById("rematch-form");
  next.hidden = false;
  next.href = `/t/${current.next_code}`;
  next.classList.add("primary");
  if (rematch) {
    rematch.hidden = true;
    next.textContent = "Rejoindre la revanche";
  } else {
    next.textContent = "Regarder la revanche";
  }
}

function statusLine() {
  const line = document.getElementById("status-line");
  const view = current.view;
  const live = current.status === "live";
  const waiting = waitingOn(view);
  const acting = view.actors || [];
  const myTurn = mySeat !== null && live && waiting.includes(mySeat);
  let text;
  if (current.status === "open") {
    const maySit = !!document.querySelector('form[action$="/rejoindre"]');
    text = mySeat === null
      ? (maySit ? "La table attend ses joueurs : prenez une place libre pour jouer." : "La table attend ses joueurs.")
      : "En attente des autres joueurs… Envoyez-leur le lien d'invitation.";
  }
  // over without a result: a table closed before its start (nobody came, or its host
  // closed it), or a correspondence game abandoned at its deadline (not rated)
  else if (current.status === "over" && !current.result) {
    text = neverStarted() ? "Table fermée avant le début de la partie." : "Partie abandonnée : temps écoulé, non classée.";
  }
  else if (current.status === "over") text = (renderer.overText && renderer.overText(view)) || "Partie terminée.";
  else if (myTurn) {
    // a game may say what is asked (« À vous de voter ! ») rather than « de jouer »
    text = (renderer.statusText && renderer.statusText(view, mySeat, names()))
      || (mySeat === view.arbiter ? "À vous d'arbitrer !" : "À vous de jouer !");
  }
  else if (waiting.length) {
    const who = joinNames(waiting.map((s) => names()[s]));
    text = (renderer.waitingText && renderer.waitingText(view, who)) || `À ${who} de jouer.`;
    // what this seat may do meanwhile (« Vous pouvez coincher ! ») after whom it waits for
    const meanwhile = mySeat !== null && acting.includes(mySeat) && renderer.statusText && renderer.statusText(view, mySeat, names());
    if (meanwhile) text = `${text} ${meanwhile}`;
  }
  else if (mySeat !== null && acting.includes(mySeat) && renderer.statusText) text = renderer.statusText(view, mySeat, names()) || "";
  else text = (renderer.phaseText && renderer.phaseText(view, mySeat)) || "";
  if (mySeat === null) text = `Vous regardez la partie. ${text}`;
  line.textContent = french(text);
  clearInterval(statusLine.timer);
  // the window's clock, else the move's (a correspondence table's): counted from when the
  // page first saw it, following the server when it arms it again (`secondsLeft`)
  const message = current;
  const key = message.deadline !== null && message.deadline !== undefined ? "deadline" : "move_clock";
  if (secondsLeft(message, key) !== null && live) {
    // nobody is asked anything: the clock runs until the game goes on by itself (next deal)
    const pause = !acting.length && !waiting.length;
    // a CSS-drawn clock: the ⏱ emoji has no glyph without an emoji font (an empty box)
    const figure = h("span", { class: "countdown-figure" });
    const clock = h("span", { class: "countdown" }, h("span", { class: "clock-icon", "aria-hidden": "true" }),
      pause ? null : h("span", { class: "sr-only", text: "temps restant : " }), figure);
    line.append(text.trim() ? " " : "", pause ? h("span", { class: "pause-label", text: `${pauseLabel(view)} dans` }) : "", " ", clock);
    const tick = () => {
      const left = Math.ceil(secondsLeft(message, key) ?? 0);
      figure.textContent = clockText(left);
      if (!left) clearInterval(statusLine.timer);
    };
    tick();
    statusLine.timer = setInterval(tick, 250);
  }
  root.classList.toggle("my-turn", myTurn);
  announceTurn(myTurn, text);
  // asked without being waited for (an optional « Moi ! »): still said to a screen reader
  announceAsked(mySeat !== null && live && !myTurn && !waiting.length && acting.includes(mySeat), text);
  document.title = (myTurn ? "● À vous · " : "") + baseTitle;
  return myTurn;
}

/** What the clock counts down to when nobody has to act: the renderer's hook
 * `pauseLabel(view)` (« Partie suivante »), else « Suite ». */
function pauseLabel(view) {
  const label = typeof renderer.pauseLabel === "function" ? renderer.pauseLabel(view) : null;
  return typeof label === "string" && label.trim() ? label.trim() : "Suite";
}

// ------------------------------------------------------------------ the turn in view
// When the turn comes to this seat, a phone may have the hand below the fold: the page scrolls
// just enough to show it, once per turn, and not while the player is scrolling or typing.
let userScrolledAt = 0;
const SCROLL_KEYS = new Set(["PageDown", "PageUp", "ArrowDown", "ArrowUp", "Home", "End", " "]);
for (const type of ["wheel", "touchmove"]) addEventListener(type, () => { userScrolledAt = Date.now(); }, { passive: true });
addEventListener("keydown", (event) => { if (SCROLL_KEYS.has(event.key)) userScrolledAt = Date.now(); });
let turnShown = false;

/** The nodes a player acts with: the renderer's hook `turnArea(board, actions)` (a node, a
 * list of nodes, or none when its decisions sit in a docked panel), else the hand and the
 * action buttons when there are some, with the trick to answer (a phone turned sideways
 * showed the hand and scrolled the trick off the top). */
function turnArea() {
  if (typeof renderer.turnArea === "function") return [renderer.turnArea(board, actionsBox)].flat().filter(Boolean);
  const area = board.querySelector("[data-turn-area], .cq-hand, .cx-hand");
  const trick = area ? board.querySelector(".cq-felt, .cx-felt") : null;
  return [trick, area, actionsBox.childElementCount ? actionsBox : null].filter(Boolean);
}

function bringTurnIntoView(myTurn) {
  const fresh = myTurn && !turnShown;
  turnShown = myTurn;
  if (!fresh || document.getElementById("lesson") || Date.now() - userScrolledAt < 2500) return;
  if (document.activeElement?.matches("input, textarea, select")) return;  // typing in the chat
  const rects = turnArea().filter((node) => getComputedStyle(node).position !== "fixed")  // a dock is in view
    .map((node) => node.getBoundingClientRect()).filter((r) => r.height > 0);
  if (!rects.length) return;
  const top = Math.min(...rects.map((r) => r.top));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  // a dock fixed at the bottom of the screen (the decisions) covers what is below its top
  const dock = [actionsBox, ...actionsBox.children].find((node) => getComputedStyle(node).position === "fixed");
  const limit = dock ? Math.min(innerHeight, dock.getBoundingClientRect().top) : innerHeight;
  let delta = 0;
  if (top < 0) delta = top - 8;
  else if (bottom > limit - 8) delta = Math.min(bottom - limit + 8, top - 8);
  if (Math.abs(delta) < 4) return;
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  scrollBy({ top: delta, behavior: still ? "auto" : "smooth" });
}

// ------------------------------------------------------------------ the invitation
// While places are free the link is shown; once the table plays, a small « Inviter » button
// (spectators may still come) keeps the top of a phone's screen for the game.
const invite = document.getElementById("invite");
const inviteToggle = document.getElementById("invite-toggle");
const inviteBody = document.getElementById("invite-body");
let inviteOpen = false;

function drawInvite() {
  if (!invite || !inviteToggle || !inviteBody) return;
  const compact = current.status !== "open";
  invite.classList.toggle("compact", compact);
  inviteToggle.hidden = !compact;
  inviteToggle.setAttribute("aria-expanded", String(inviteOpen));
  inviteBody.hidden = compact && !inviteOpen;
}

inviteToggle?.addEventListener("click", () => {
  inviteOpen = !inviteOpen;
  drawInvite();
  if (inviteOpen) document.getElementById("invite-link")?.select();
});

/** The join form of a visitor without a seat follows the free seats: a seat taken since
 * the page opened leaves the list, and the form goes once the table is full (it stayed the
 * whole game, and « S'asseoir » then answered « Cette table est complète »). */
function drawJoin() {
  const form = document.querySelector('form[action$="/rejoindre"]');
  if (!form) return;
  const panel = form.closest(".join-panel");
  const free = current.status !== "over" ? current.seats.filter((s) => s.kind === "open").map((s) => s.seat) : [];
  if (panel) panel.hidden = !free.length;
  const select = form.querySelector("select[name=place]");
  if (!select) return;
  const chosen = select.value;
  clear(select);
  const label = (seat) => (renderer.seatLabel ? renderer.seatLabel(current.view, seat, current.seats) : `Place ${seat + 1}`);
  for (const seat of free) select.append(h("option", { value: String(seat), text: label(seat) }));
  if (free.map(String).includes(chosen)) select.value = chosen;
}

// « Quitter la table »: drawn by the server for every seated person; the host of a table
// still waiting closes it instead (its own panel), and may leave once the game has started
function drawLeave() {
  const panel = document.getElementById("leave-panel");
  if (!panel) return;
  panel.hidden = current.status === "over" || (panel.dataset.host === "1" && current.status === "open");
}

function draw() {
  const ctx = { seat: mySeat, names: names(), act, pending: () => channel.busy, message: current, h, clear, redraw: draw, notice: showNotice };
  drawInvite();
  drawSeats();
  drawJoin();
  seatsScrollable();
  const myTurn = statusLine();
  clear(board);
  (renderer.render || generic.render)(board, current.view, ctx);
  waitingNote();
  clear(actionsBox);
  const legal = current.status === "live" ? current.view.legal || [] : [];
  (renderer.renderActions || generic.renderActions)(actionsBox, legal, ctx);
  drawLog();
  drawResult();
  drawLeave();
  drawDaysSwitches();
  keepPlayFocus();
  afterStylesheets(() => bringTurnIntoView(myTurn));
  firstDraw = false;
}

// Keyboard play: a card or an action button had the focus, the drawing replaced it (the
// card played, the button used, a new trick) and the focus fell to the page's body; it comes
// back to the hand (the same card if it is still there, else the first one that can be
// played), so that Tab is not needed again from the top of the page after every move.
const PLAY_AREA = ".cq-hand, .cx-hand, #actions, [data-turn-area]";
let focusInPlay = null;  // the `data-card` (or "") of the focused control, null: elsewhere
document.addEventListener("focusin", (event) => {
  const target = event.target;
  focusInPlay = target instanceof Element && target.closest(PLAY_AREA) ? (target.dataset?.card || "") : null;
});

document.addEventListener("pointerdown", (event) => {  // a click elsewhere: focus let go
  if (!(event.target instanceof Element && event.target.closest(PLAY_AREA))) focusInPlay = null;
});

// A hand is one Tab stop (a « roving » tabindex: only one of its cards is in the Tab order);
// arrow keys, Home and End move along its cards, so that a hand of twelve cards does not cost
// twelve Tabs to get past.
const HANDS = ".cq-hand, .cx-hand";
const HAND_CARDS = ".cq-hand button, .cx-hand button";

function roveTo(card) {
  for (const other of card.closest(HANDS).querySelectorAll("button")) other.tabIndex = other === card ? 0 : -1;
}

/** Where the focus belongs among `buttons`: the card it was on if still there, else the
 * first one that can be played, else the first. */
function focusTarget(buttons) {
  const same = focusInPlay && buttons.find((b) => b.dataset.card === focusInPlay);
  return same || buttons.find((b) => b.classList.contains("playable")) || buttons[0];
}

function roveHands() {
  for (const hand of board.querySelectorAll(HANDS)) {
    const cards = [...hand.querySelectorAll("button")];
    if (!cards.length) continue;
    hand.dataset.roving = "";
    roveTo(focusTarget(cards));
  }
}

board.addEventListener("focusin", (event) => {
  const card = event.target instanceof Element ? event.target.closest(HAND_CARDS) : null;
  if (card) roveTo(card);
});

board.addEventListener("keydown", (event) => {
  const card = event.target instanceof Element ? event.target.closest(HAND_CARDS) : null;
  if (!card || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const cards = [...card.closest(HANDS).querySelectorAll("button")];
  const at = cards.indexOf(card);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: cards.length - 1 }[event.key];
  if (to < 0 || to >= cards.length) return;
  event.preventDefault();
  cards[to].focus();
});

function keepPlayFocus() {
  roveHands();
  if (focusInPlay === null || (document.activeElement && document.activeElement !== document.body)) return;
  const next = focusTarget([...board.querySelectorAll(HAND_CARDS), ...actionsBox.querySelectorAll("button")]);
  if (next) next.focus({ preventScroll: true });
}

/** A reason read as a sentence: a full stop unless it ends with its own mark. */
function sentence(text) {
  const trimmed = text.trimEnd();
  return !trimmed || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** « Me prévenir quand c'est mon tour » and the e-mail form: no more turns once it is over. */
function drawDaysSwitches() {
  const over = current.status === "over";
  for (const node of document.querySelectorAll("#push-switch, #email-form")) node.hidden = over;
}

/** A game's stylesheet (`useStylesheet`) arrives after the first drawing: what covers the
 * page (a dock fixed at the bottom) is known once it has loaded, so the turn waits for it. */
function afterStylesheets(then) {
  const pending = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  if (!pending.length) return then();
  const loaded = (link) => new Promise((done) => {
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
  });
  Promise.race([Promise.all(pending.map(loaded)), new Promise((done) => setTimeout(done, 2000))]).then(then);
}

/** Before the start the board is the first deal, greyed, under a line that says when the
 * game starts: « La main est à Place 4 » read as if the game waited for a free place. */
function waitingNote() {
  const open = current.status === "open";
  board.classList.toggle("before-start", open);
  clearInterval(waitingNote.timer);
  if (!open) return;
  const free = current.seats.filter((s) => s.kind === "open").length;
  const text = free > 1 ? `La partie commence dès que les ${free} places libres sont prises.`
    : free === 1 ? "La partie commence dès que la dernière place libre est prise." : "La partie commence…";
  const note = h("p", { class: "start-note", text });
  board.prepend(note);
  // « Jouer maintenant »: robots take the free places after the wait the player chose
  if (typeof current.fill_in !== "number" || !free) return;
  const ends = Date.now() + current.fill_in * 1000;
  const robots = h("span", { class: "start-robots" });
  note.append(" ", robots);
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
    robots.textContent = left ? `Sinon, des robots les prennent dans ${left} s.` : "Des robots arrivent…";
    if (!left) clearInterval(waitingNote.timer);
  };
  tick();
  waitingNote.timer = setInterval(tick, 500);
}

document.getElementById("copy-invite")?.addEventListener("click", async () => {
  const input = document.getElementById("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    showNotice("Lien copié : envoyez-le à vos partenaires.", "info");
  } catch (error) {
    input.select();
  }
});

cues.switchButton(document.getElementById("days-switches"));
// turns are told by push or e-mail at a correspondence table only: elsewhere, nothing is sent
if (mySeat !== null && root.dataset.correspondence === "1") {
  pushSwitch(document.getElementById("days-switches"), showNotice);
  mailForm(document.getElementById("days-switches"), showNotice).then(drawDaysSwitches, () => {});
}

draw();
window.chouxTable = { get current() { return current; }, act };
