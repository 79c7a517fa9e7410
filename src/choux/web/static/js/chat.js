// Table chat: one room for the seated players, another for spectators (the server decides).
// Text is only ever put in the page with textContent (dom.js `h`), never as HTML.
// Hiding someone is this viewer's choice, kept in this browser (localStorage); the host's
// « retirer la parole » is kept by the server and refuses that person's messages.
import { clear, h } from "./dom.js";
import { ofName } from "./widgets.js";

export const QUICK_REACTIONS = ["Bien joué !", "Oups", "Merci"];
const MAX_CHARS = 280;

export class TableChat {
  constructor(box, code, send) {
    this.box = box;
    this.code = code;
    this.send = send;
    this.lines = [];
    // lines sent and not yet back from the server ({ text, failed }): shown « envoi… »,
    // then « non envoyé » if the socket closes first (the server died, the network went)
    this.outgoing = [];
    this.serverMuted = new Set();
    this.me = null;
    this.host = false;
    this.room = "players";
    this.hidden = new Set(this.loadHidden());
    this.build();
  }

  storageKey() {
    return `choux.chat.hidden.${this.code}`;
  }

  loadHidden() {
    try {
      const stored = JSON.parse(localStorage.getItem(this.storageKey()) || "[]");
      return Array.isArray(stored) ? stored.filter((x) => typeof x === "string") : [];
    } catch (error) {
      return [];
    }
  }

  saveHidden() {
    try {
      localStorage.setItem(this.storageKey(), JSON.stringify([...this.hidden]));
    } catch (error) { /* private mode: the choice lasts for this page */ }
  }

  build() {
    this.title = h("h2", { class: "chat-title", text: "Discussion" });
    this.list = h("ol", { class: "chat-log", id: "chat-log", "aria-live": "polite" });
    this.note = h("p", { class: "chat-note", id: "chat-note", role: "alert", hidden: true });
    this.input = h("input", {
      name: "message", maxlength: String(MAX_CHARS), autocomplete: "off",
      "aria-label": "Votre message", placeholder: "Votre message…", id: "chat-input",
    });
    this.form = h("form", { class: "chat-form", id: "chat-form" },
      this.input, h("button", { class: "button", type: "submit", text: "Envoyer" }));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (this.say(this.input.value)) this.input.value = "";
    });
    this.quick = h("div", { class: "chat-quick", role: "group", "aria-label": "Réactions rapides" },
      QUICK_REACTIONS.map((text) => h("button", {
        class: "button chat-reaction", type: "button", text, onclick: () => this.say(text),
      })));
    this.hiddenBox = h("div", { class: "chat-hidden", id: "chat-hidden" });
    clear(this.box).append(this.title, this.list, this.note, this.quick, this.form, this.hiddenBox);
  }

  say(text) {
    const clean = String(text).trim();
    if (!clean) return false;
    if (clean.length > MAX_CHARS) {
      this.showNote(`Message trop long : ${MAX_CHARS} caractères au plus.`);
      return false;
    }
    if (!this.send({ type: "chat", text: clean })) {
      this.showNote("Hors ligne : message non envoyé.");
      return false;
    }
    // sent again after it failed: one line for it
    this.outgoing = this.outgoing.filter((o) => !(o.failed && o.text === clean));
    this.outgoing.push({ text: clean, failed: false });
    this.draw();
    return true;
  }

  /** The server has the line `text` of this page's author: it is sent. */
  confirm(text) {
    const same = this.outgoing.findIndex((o) => o.text === text.normalize("NFC"));
    // the server cleans a text (controls, NFC): else the oldest line on its way
    const at = same >= 0 ? same : this.outgoing.findIndex((o) => !o.failed);
    if (at >= 0) this.outgoing.splice(at, 1);
  }

  /** The socket closed: the lines on their way may never have reached the server. The
   * line says so and its text goes back in the field, to be sent again. */
  lost() {
    const sending = this.outgoing.filter((o) => !o.failed);
    if (!sending.length) return;
    for (const line of sending) line.failed = true;
    if (!this.input.value.trim()) this.input.value = sending[sending.length - 1].text;
    this.showNote("Message non envoyé : la connexion a été coupée. Il est remis dans le champ, renvoyez-le.");
    this.draw();
  }

  receive(message) {
    if (message.type === "chat_refused") {
      // a line refused (too many, the word taken): its text back in the field
      const refused = this.outgoing.findIndex((o) => !o.failed);
      if (refused >= 0) {
        const [line] = this.outgoing.splice(refused, 1);
        if (!this.input.value.trim() && !this.input.disabled) this.input.value = line.text;
        this.draw();
      }
      this.showNote(message.message);
      return;
    }
    const before = new Set(this.lines.map((l) => l.id));
    for (const line of message.lines) if (line.who === message.me && !before.has(line.id)) this.confirm(line.text);
    if (message.full) this.lines = [];
    const known = new Set(this.lines.map((l) => l.id));
    for (const line of message.lines) if (!known.has(line.id)) this.lines.push(line);
    this.lines = this.lines.slice(-200);
    this.serverMuted = new Set(message.muted || []);
    this.me = message.me;
    this.host = !!message.host;
    this.room = message.room;
    this.title.textContent = this.room === "spectators" ? "Discussion des spectateurs" : "Discussion";
    this.draw();
  }

  showNote(text) {
    this.note.textContent = text;
    this.note.hidden = !text;
    clearTimeout(this.noteTimer);
    if (text) this.noteTimer = setTimeout(() => { this.note.hidden = true; }, 6000);
  }

  toggleHidden(who) {
    if (this.hidden.has(who)) this.hidden.delete(who);
    else this.hidden.add(who);
    this.saveHidden();
    this.draw();
  }

  draw() {
    clear(this.list);
    const names = new Map();
    for (const line of this.lines) {
      names.set(line.who, line.name);
      if (this.hidden.has(line.who)) continue;
      const mine = line.who === this.me;
      const tools = [];
      if (!mine) {
        tools.push(h("button", {
          type: "button", class: "chat-tool chat-hide", text: "Masquer",
          title: `Ne plus voir les messages ${ofName(line.name)}`, onclick: () => this.toggleHidden(line.who),
        }));
        if (this.host) {
          const silenced = this.serverMuted.has(line.who);
          tools.push(h("button", {
            type: "button", class: "chat-tool chat-silence",
            text: silenced ? "Rendre la parole" : "Retirer la parole",
            onclick: () => this.send({ type: "chat_mute", who: line.who, muted: !silenced }),
          }));
        }
      }
      this.list.append(h("li", { class: mine ? "chat-line mine" : "chat-line", dataset: { who: line.who } },
        h("span", { class: "chat-name", text: line.name + (this.serverMuted.has(line.who) ? " (sans parole)" : "") }),
        h("span", { class: "chat-text", text: line.text }),
        tools));
    }
    for (const line of this.outgoing) {
      this.list.append(h("li", { class: `chat-line mine ${line.failed ? "unsent" : "sending"}` },
        h("span", { class: "chat-name", text: "Vous" }),
        h("span", { class: "chat-text", text: line.text }),
        h("span", { class: "chat-state", text: line.failed ? "non envoyé" : "envoi…" })));
    }
    this.list.scrollTop = this.list.scrollHeight;
    clear(this.hiddenBox);
    for (const who of this.hidden) {
      const name = names.get(who);
      if (!name) continue;
      this.hiddenBox.append(h("button", {
        type: "button", class: "chat-tool chat-unhide", text: `Afficher ${name}`,
        onclick: () => this.toggleHidden(who),
      }));
    }
    if (this.host) {
      const closed = this.serverMuted.has("spectators");
      this.hiddenBox.append(h("button", {
        type: "button", class: "chat-tool chat-spectators", id: "chat-spectators",
        text: closed ? "Rouvrir la discussion des spectateurs" : "Fermer la discussion des spectateurs",
        onclick: () => this.send({ type: "chat_mute", who: "spectators", muted: !closed }),
      }));
    }
    const silenced = this.serverMuted.has(this.me) || (this.room === "spectators" && this.serverMuted.has("spectators"));
    this.input.disabled = silenced;
    this.input.placeholder = silenced ? "L'hôte a retiré la parole." : "Votre message…";
  }
}
