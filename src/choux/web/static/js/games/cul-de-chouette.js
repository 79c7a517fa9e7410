// Cul de Chouette at the table: the dice, every player's sheet, the shouts, bets and challenges.
// View keys: see src/choux/games/cul_de_chouette/state.py. User text only via textContent.
import { french, h } from "../dom.js";
import { SharedSeats } from "./cdc/shared.js";
import { NewsFeed, byType, clockFor, counted, gameConstants, ofName, pointsText, resetCountdowns, pressButton, useStylesheet, withNames } from "../widgets.js";

useStylesheet("/static/css/games/cul-de-chouette.css");

// the race cries and the Sirotage birds come from the server (Game.client_constants)
const CRIES = (gameConstants().cries || []).map((cry) => ({ cry, short: cry }));
const BIRDS = gameConstants().birds || {};
const CALLS = gameConstants().calls || {};
const PASSE_GRELOT = CALLS.passe_grelot;
const BOUCLIETTE = CALLS.boucliette;
const RACE_STEPS = new Set(["pelican", "chouette_velute", "suite", "contre_sirop"]);
const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

const news = new NewsFeed(4);
let shownDice = [];
let shownKey = "";
let openDialog = null;  // which optional dialog the player opened ("grelottine", "passe")
let dialogSeat = null;  // the seat whose dialogs are being built (shared screen)
let lastCtx = null;

// What a player is typing (real dice, a stake) survives the redraws that other players' moves
// cause: the fields are rebuilt at every message, which used to wipe them mid-typing.
const typed = new Map();  // draft key -> {values: [...]} or {combination, stake}
let typingFocus = null;   // [draft key, field index] of the field that had the focus

function rememberFocus() {
  if (typed.size > 40) typed.clear();
  const active = document.activeElement;
  typingFocus = active && active.dataset && active.dataset.draft ? [active.dataset.draft, Number(active.dataset.index || 0)] : null;
}

function draftKey(name, ctx) {
  const v = ctx.message.view;
  return JSON.stringify([name, ctx.seat, v.turn, v.step, v.tiebreak ? v.tiebreak.purpose : null, v.challenge ? v.challenge.throw : null]);
}

function restoreFocus(key, fields) {
  if (!typingFocus || typingFocus[0] !== key) return;
  const field = fields[typingFocus[1]];
  typingFocus = null;
  if (field) requestAnimationFrame(() => field.focus({ preventScroll: true }));
}

// Shared screen: other seats played from this device, each with its own socket and view.
const shared = new SharedSeats();
let redrawQueued = false;
shared.onChange = () => {
  if (redrawQueued || !lastCtx || !lastCtx.redraw) return;
  redrawQueued = true;
  requestAnimationFrame(() => { redrawQueued = false; lastCtx.redraw(); });
};
shared.onNotice = (seat, text) => {
  const notice = document.getElementById("notice");
  if (!notice || !lastCtx) return;
  notice.textContent = french(`${lastCtx.names[seat]} : ${text}`);
  notice.hidden = false;
};

/** The seats this device plays: its own, then the shared-screen ones. */
function controlled(ctx) {
  const seats = ctx.seat === null ? [] : [ctx.seat];
  for (const s of shared.seats) if (!seats.includes(s)) seats.push(s);
  return seats;
}

/** A context acting for `seat` (the page's own seat, or a shared-screen one). */
function seatCtx(ctx, seat) {
  if (seat === ctx.seat) return ctx;
  const view = shared.view(seat) || { ...ctx.message.view, legal: [], seat };
  return { ...ctx, seat, act: (action) => shared.act(seat, action), message: { ...ctx.message, view } };
}

function legalOf(ctx, seat) {
  if (ctx.message.status !== "live") return [];
  if (seat === ctx.seat) return ctx.message.view.legal || [];
  const view = shared.view(seat);
  return view ? view.legal || [] : [];
}

function die(value, role, rolling, delay) {
  const face = h("span", { class: `die${rolling ? " rolling" : ""}${value ? "" : " empty"}`, role: "img", "aria-label": value ? `dé : ${value}` : "dé pas encore lancé", dataset: { value: value || "" } });
  if (delay) face.style.setProperty("animation-delay", `${delay}ms`);
  for (let i = 1; i <= 9; i++) face.append(h("i", { class: value && PIPS[value].includes(i) ? "pip on" : "pip" }));
  return h("figure", { class: `die-slot ${role}` }, face, h("figcaption", { text: role === "cul" ? "le Cul" : role === "chouette" ? "Chouette" : "" }));
}

function diceTray(view, ctx) {
  const names = ctx.names;
  let dice = view.dice || [];
  let faded = false;
  if (!dice.length && view.last_roll) { dice = view.last_roll.dice || []; faded = true; }
  const key = JSON.stringify([view.turn, view.step, view.dice, view.last_roll && view.last_roll.dice]);
  const changed = key !== shownKey;
  const prefix = shownDice.length <= dice.length && shownDice.every((d, i) => d === dice[i]);
  const tray = h("div", { class: `dice-tray${faded ? " faded" : ""}` });
  // the two Chouettes and the Cul of the turn (challenges, tie-breaks and re-rolls are plain dice)
  const turnDice = !view.challenge && !view.tiebreak && view.step !== "bleu_rouge_jet" && !(view.bleu_rouge && view.bleu_rouge.announced);
  const triple = turnDice && ((view.chouettes || []).length === 2 || dice.length === 3);
  const slots = Math.max(3, dice.length);
  for (let i = 0; i < slots; i++) {
    const fresh = changed && !faded && dice[i] !== undefined && (!prefix || i >= shownDice.length);
    const role = triple ? (i < 2 ? "chouette" : "cul") : "plain";
    tray.append(die(dice[i], role, fresh, fresh ? 90 * (i - (prefix ? shownDice.length : 0)) : 0));
  }
  if (changed) { shownKey = key; shownDice = faded ? [] : dice.slice(); }
  // the caption says what the dice shown are: this roll's reading only when they are its dice
  // (a challenge's throw, a re-roll or the next turn's Chouettes are not); an older roll is
  // labelled as such
  const last = view.last_roll && view.last_roll.name ? view.last_roll : null;
  const lastShown = last && sameDice(last.dice || [], dice);
  let caption = null;
  const rollCaption = (roll, past) => {
    const who = roll.seat !== undefined && roll.seat !== null ? names[roll.seat] : names[view.roller];
    // points only once they are the roll's own: not while a Sirotage may still win or lose
    // them, nor under « Dernier lancer » (a Sirotage, a purchase may have changed them since;
    // the journal says what was scored)
    const pending = view.step === "siroter" || view.step === "paris_sirotage";
    const pts = roll.points && !past && !pending ? ` : +${roll.points}` : "";
    return h("p", { class: `reading${past ? " past" : ""}` }, past ? h("span", { class: "past-label", text: "Dernier lancer : " }) : null,
      h("span", { class: "who", text: who, title: who }), ` ${article(roll.name)}`, h("strong", { text: roll.name }), pts);
  };
  if (last && lastShown) {
    caption = rollCaption(view.reading && !faded ? { ...last, name: view.reading.name, points: view.reading.points } : last, faded);
  } else if (view.awaiting) {
    const who = view.awaiting.seat === ctx.seat ? "Vous" : names[view.awaiting.seat];
    const verb = view.dice_mode === "reels" ? (view.awaiting.seat === ctx.seat ? "saisissez" : "saisit") : (view.awaiting.seat === ctx.seat ? "lancez" : "lance");
    // a scribe types someone else's dice: whose
    const owner = awaitedOwner(view);
    const count = view.awaiting.count;
    const what = owner === view.awaiting.seat ? counted(count, "dé")
      : owner === ctx.seat ? (count > 1 ? `vos ${count} dés` : "votre dé")
      : `${counted(count, "dé")} ${ofName(names[owner])}`;
    caption = h("p", { class: "reading waiting" }, h("span", { class: "who", text: who, title: who }), ` ${verb} ${what}…`);
  } else if (dice.length && view.challenge && view.challenge.throw) {
    caption = h("p", { class: "reading waiting" }, h("span", { class: "who", text: names[view.challenge.target], title: names[view.challenge.target] }), ` : jet ${view.challenge.throw} du défi`);
  } else if (last && !dice.length) {
    caption = rollCaption(last, true);
  }
  return h("section", { class: "cdc-dice", "aria-label": "Les dés" }, tray, caption);
}

function sameDice(a, b) {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

function article(name) {
  if (/^(Néant)/.test(name)) return "fait un ";
  if (/^(Chouette|Velute|Soufflette|Suite)/.test(name)) return "fait une ";
  return "fait un ";
}

function headLine(view, ctx, message) {
  const names = ctx.names;
  const roller = view.roller === ctx.seat ? "vous" : names[view.roller];
  const step = view.over ? null : RACE_STEPS.has(view.step)
    ? (ctx.seat === null ? "Course ouverte : les joueurs crient." : outOfRace(view, ctx.seat) ? "Course ouverte pour les autres joueurs : votre cri serait une Bévue (−10)." : "Course ouverte : criez le bon cri !")
    : view.step_label;
  const box = h("header", { class: `cdc-head${RACE_STEPS.has(view.step) && !outOfRace(view, ctx.seat) ? " race-open" : ""}` },
    h("div", { class: "cdc-turn" },
      h("span", { class: "turn-no", text: view.over ? "Fin" : view.step === "ouverture" ? "Ouverture" : `Tour ${view.turn || 1}` }),
      view.step === "ouverture" ? null : view.over ? winnerLine(view, ctx)
        : h("span", { class: "turn-who" }, "La main est à ", h("strong", { text: roller }))),
    step ? h("p", { class: "cdc-step", text: step }) : null);
  const win = (view.windows || [])[0];
  if (win && message.status === "live") {
    const label = RACE_STEPS.has(view.step) ? "Temps pour crier" : "Fenêtre ouverte";
    const timer = clockFor(message, label);
    if (timer) box.append(timer);
  }
  return box;
}

function winnerLine(view, ctx) {
  if (view.winner === null || view.winner === undefined) return h("span", { class: "turn-who", text: "Partie terminée" });
  if (view.winner === ctx.seat) return h("span", { class: "turn-who" }, h("strong", { text: "Vous gagnez" }), ` avec ${view.sheets[view.winner].score} points !`);
  return h("span", { class: "turn-who" }, "Victoire de ", h("strong", { text: ctx.names[view.winner] }), ` (${view.sheets[view.winner].score} points)`);
}

function newsStrip(ctx) {
  const strip = h("ol", { class: "cdc-news", "aria-live": "polite" });
  const fresh = new Set(news.fresh);
  for (const line of news.lines) strip.append(h("li", { class: fresh.has(line.text) ? "fresh" : "", text: line.text }));
  return strip;
}

function situation(view, ctx) {
  if (view.over) return null; // the turn that ended the game is over too (its last roll stays shown)
  const names = ctx.names;
  const parts = [];
  if (view.race) {
    const done = view.race.order.map((s) => names[s]).join(", ");
    if (done) parts.push(h("p", {}, "Ont crié : ", h("strong", { text: done })));
  }
  if (view.bought_by !== null && view.bought_by !== undefined) parts.push(h("p", {}, h("strong", { text: names[view.bought_by] }), " a acheté le Cul."));
  if (view.civet_bet) parts.push(h("p", {}, `Civet : ${pointsText(view.civet_bet.stake)} sur ${view.civet_bet.combination}.`));
  if (view.sirotage) {
    const bets = Object.entries(view.sirotage.bets).map(([s, f]) => `${names[s]} → ${BIRDS[f]}`);
    parts.push(h("p", {}, `Sirotage sur un ${view.sirotage.value}`, bets.length ? ` · paris : ${bets.join(", ")}` : ""));
  }
  if (view.challenge) {
    const c = view.challenge;
    const what = challengeWhat(c);
    parts.push(h("p", {}, h("strong", { text: names[c.challenger] }), " défie ", h("strong", { text: names[c.target] }), ` : ${what}`,
      c.throw ? ` · jet ${c.throw}` : "", c.kept && c.kept.length ? ` · gardés : ${c.kept.join("-")}` : ""));
  }
  if (view.bleu_rouge) {
    const b = view.bleu_rouge;
    const bets = Object.entries(b.bets).map(([s, t]) => `${names[s]} → ${t}`);
    parts.push(h("p", {}, `Bleu-Rouge : totaux annoncés ${b.totals.length ? b.totals.join(", ") : "aucun"}`, bets.length ? ` · paris : ${bets.join(", ")}` : ""));
  }
  if (view.tiebreak) {
    const vals = Object.entries(view.tiebreak.values).map(([s, v]) => `${names[s]} : ${v}`);
    parts.push(h("p", {}, view.tiebreak.purpose === "ouverture" ? "Lancer d'ouverture" : "Départage", vals.length ? ` · ${vals.join(", ")}` : ""));
  }
  return parts.length ? h("div", { class: "cdc-situation" }, parts) : null;
}

function leftText(count) {
  return counted(count, "restant");
}

function challengeWhat(c) {
  return c.kind === "soufflette" ? "la Soufflette (4-2-1)" : `${c.combination} pour ${pointsText(c.stake)}`;
}

function sheet(view, s, ctx, bevueBy) {
  const names = ctx.names;
  const classes = ["sheet"];
  if (s.seat === view.roller) classes.push("roller");
  if (s.seat === ctx.seat) classes.push("me");
  if (view.winner === s.seat) classes.push("winner");
  const pct = Math.min(100, (100 * s.score) / (view.target || 343));
  const bar = h("span", { class: "score-fill" });
  bar.style.setProperty("width", `${pct}%`);
  const mark = (on, text, title, extra = "") => h("span", { class: `mark${on ? " on" : ""}${extra}`, title, role: "img", "aria-label": `${title} : ${on ? "oui" : "non"}` }, text);
  const pg = s.passe_grelot_used ? "utilisé" : s.passe_grelot_earned ? "disponible" : "pas encore gagné";
  const declarer = bevueBy.get(s.seat);
  const canBevue = declarer !== undefined;
  // a table without the −10 button (its option) shows none
  const bevue = view.over || ctx.replay || view.bevue_button === false ? null : pressButton({
    class: "bevue-button",
    disabled: !canBevue,
    title: canBevue ? `Signaler une bévue ${ofName(names[s.seat])} (−10)` : "Une bévue par joueur signalé et par tour, jamais sur soi-même.",
    dataset: { target: s.seat },
  }, () => canBevue && seatCtx(ctx, declarer).act({ type: "bevue", target: s.seat }), "−10 Bévue");
  const own = shared.active && controlled(ctx).includes(s.seat) && ctx.message.status === "live"
    ? shoutBar(view, byType(legalOf(ctx, s.seat)), seatCtx(ctx, s.seat), true) : null;
  let tag = null;
  if (view.winner === s.seat) tag = h("span", { class: "sheet-tag win", text: "gagne !" });
  else if (!view.over && s.seat === view.roller) tag = h("span", { class: "sheet-tag", text: "lance" });
  else if (!view.over && view.awaiting && view.awaiting.seat === s.seat) tag = h("span", { class: "sheet-tag soft", text: view.dice_mode === "reels" ? "saisit" : "lance" });
  return h("li", { class: classes.join(" "), dataset: { seat: s.seat } },
    h("div", { class: "sheet-top" },
      h("span", { class: "sheet-name", text: names[s.seat] + (s.seat === ctx.seat ? " (vous)" : ""), title: names[s.seat] },
        s.partner !== null && s.partner !== undefined ? h("span", { class: "sheet-partner", text: ` · équipe avec ${names[s.partner]}` }) : null),
      h("span", { class: "sheet-score", text: String(s.score) })),
    h("div", { class: "score-track", title: `${s.score} / ${view.target}` }, bar),
    h("div", { class: "sheet-marks" },
      tag,
      mark(s.grelottine, "Grelottine", "Grelottine"),
      mark(s.civet, "Civet", "Civet"),
      mark(s.boucliette, "Boucliette", "Boucliette", " shield"),
      mark(s.passe_grelot_earned && !s.passe_grelot_used, "Passe-Grelot", `Passe-Grelot ${pg}`, s.passe_grelot_used ? " used" : ""),
      bevue),
    own);
}

/** What the page brings into view when the turn comes (table.js): the dice, above the dock
 * where the decision sits (a phone turned sideways had them under it). */
export function turnArea(board) {
  return board.querySelector(".cdc-dice");
}

/**
 * Whom the game waits for (table.js: status line, highlighted chips, tab title, turn
 * notices): the server's `waiting` (who must roll, type, choose, or the players a fair window
 * still waits for), not the actors, who include every holder of a −10 button. A race waits
 * for no one in particular: its own banner and gold buttons say it.
 */
export function waitingOn(view) {
  if (view.over) return [];
  return Array.isArray(view.waiting) ? view.waiting : (view.actors || []);
}

/** What is asked of `seat`, said the Cul de Chouette way (null: the generic text). */
/** Who plays the roll's consequences (a Néant's Grelottine, a Bleu-Rouge's total): the
 * buyer of the Cul when there is one, else the roller (the engine's `scorer`). */
export function scorerOf(view) {
  return view.bought_by ?? view.roller;
}

/** Whose throw the awaited dice are: the scribe types everyone's (an older view has no
 * owner: the typer's own). */
function awaitedOwner(view) {
  return view.awaiting.owner ?? view.awaiting.seat;
}

export function statusText(view, seat, names = []) {
  const mine = (type) => (view.legal || []).some((l) => l.action.type === type);
  if (view.over || !waitingOn(view).includes(seat)) return null;
  const real = view.dice_mode === "reels";
  if (view.tiebreak) {
    const which = view.tiebreak.purpose === "ouverture" ? "d'ouverture" : "de départage";
    if (!real) return `À vous de lancer votre dé ${which} !`;
    const owner = view.tiebreak.pending[0];
    return owner === seat ? `À vous : saisissez votre dé ${which} !` : `À vous : saisissez les dés ${which}, un par joueur !`;
  }
  const c = view.challenge;
  if (view.step === "annonce" && c && c.target === seat) {
    const ways = [mine("boucliette") ? "Boucliette" : null, mine("passe_grelot") ? "Passe-Grelot" : null].filter(Boolean);
    return ways.length ? `Vous êtes défié : ${ways.join(", ")} ou acceptez le défi` : "Vous êtes défié : à vous de lancer !";
  }
  if (view.step === "soufflette_cible") return "À vous : qui défiez-vous à la Soufflette ?";
  if (view.step === "siroter") return "À vous : siroter ou garder la Chouette ?";
  if (view.step === "grelottine") return "À vous : « Grelottine ! » ou passez";
  if (view.step === "achat") return "À vous : achetez le Cul ou passez";
  if (view.step === "bleu_rouge" && scorerOf(view) === seat && mine("annoncer_total")) return "À vous : annoncez un total ou lancez";
  if (view.step === "annonce" && !(view.awaiting && view.awaiting.seat === seat)) return "Défi en cours : Boucliette, pari ou « Je passe »";
  if (["paris_sirotage", "bleu_rouge"].includes(view.step) && !(view.awaiting && view.awaiting.seat === seat)) return "À vous : pariez ou passez";
  if (view.step === "debut" && mine("civet")) return "À vous : misez votre Civet ou lancez !";
  if (view.awaiting && view.awaiting.seat === seat) {
    const owner = awaitedOwner(view);
    const dice = view.awaiting.count > 1 ? "les dés" : "le dé";
    if (real && owner !== seat) return `À vous : saisissez ${dice} ${ofName(names[owner] ?? `Place ${owner + 1}`)} !`;
    if (real) return view.awaiting.count > 1 ? "À vous de saisir les dés !" : "À vous de saisir le dé !";
    return view.awaiting.count > 1 ? "À vous de lancer les dés !" : "À vous de lancer le dé !";
  }
  return null;
}

/** The replay page draws views without a live message: give it a quiet one. */
function normalise(ctx, view) {
  if (ctx.message) return ctx;
  return { ...ctx, message: { view, status: "replay", log: [], deadline: null, version: -1, full: true } };
}

let raceBuzzed = "";

/** A phone buzzes briefly when a race opens: the shout must come fast. */
function buzzOnRace(view, ctx) {
  const key = view.race ? `${view.turn}:${view.race.kind}` : "";
  const mine = ctx.seat !== null && !outOfRace(view, ctx.seat);  // not the sipper's Contre-Sirop
  if (key && key !== raceBuzzed && ctx.message.status === "live" && mine && navigator.vibrate) {
    try { navigator.vibrate(60); } catch (error) { /* not allowed before a first touch */ }
  }
  raceBuzzed = key;
}

/** The page's « Écran partagé » form (drawn once at load) is only useful while a seat is free. */
function hideSharedForm(message) {
  const panel = document.querySelector(".shared-panel");
  if (!panel || !Array.isArray(message.seats)) return;
  panel.hidden = message.status === "over" || !message.seats.some((s) => s.kind === "open");
}

export function render(board, view, ctx) {
  ctx = normalise(ctx, view);
  rememberFocus();
  hideSharedForm(ctx.message);
  buzzOnRace(view, ctx);
  resetCountdowns();
  news.update(ctx.message);
  lastCtx = ctx;
  // who presses each −10 button: a seat of this device that may, preferably not the target
  const bevueBy = new Map();
  for (const seat of controlled(ctx)) {
    for (const l of legalOf(ctx, seat)) {
      if (l.action.type !== "bevue") continue;
      const t = l.action.target;
      if (!bevueBy.has(t) || bevueBy.get(t) === t) bevueBy.set(t, seat);
    }
  }
  const order = view.order && view.order.length ? view.order : view.sheets.map((s) => s.seat);
  const sheets = h("ol", { class: "cdc-sheets", "aria-label": "Les feuilles de score" });
  for (const seat of order) sheets.append(sheet(view, view.sheets[seat], ctx, bevueBy));
  board.append(h("div", { class: `cdc${shared.active ? " shared-screen" : ""}` },
    headLine(view, ctx, ctx.message),
    diceTray(view, ctx),
    ctx.replay ? null : newsStrip(ctx),
    situation(view, ctx),
    sheets,
    h("p", { class: "cdc-target", text: `Premier à ${view.target} points sur ses propres dés. Gains hors de son tour plafonnés à ${view.cap}.` })));
}

// ------------------------------------------------------------------ actions

// the moment (turn and step) when the player unfolded the shouts outside a race: they fold
// again when the game moves on
let shoutsOpenAt = null;

/**
 * The seven shouts. In a race they are gold and the bar is always unfolded; outside a race a
 * shout is a Bévue (−10): the buttons stay clickable (the rules keep them on screen) but look
 * idle, and the dock folds them into one row so that the score sheets stay in sight.
 */
/** Is `seat` left out of the race that runs (the Contre-Sirop of its own Sirotage)? */
function outOfRace(view, seat) {
  const eligible = view.race && view.race.eligible;
  return seat !== null && seat !== undefined && Array.isArray(eligible) && !eligible.includes(seat);
}

function shoutBar(view, groups, ctx, compact = false) {
  const live = ctx.message.status === "live";
  // a race this seat may not run in looks like no race at all: its cries are Bévues
  const race = RACE_STEPS.has(view.step) && !outOfRace(view, ctx.seat);
  const hasGrel = groups.has("grelottine");
  const passes = groups.get("passe_grelot") || [];
  const shield = (groups.get("boucliette") || [])[0];
  const ready = hasGrel || passes.length > 0 || Boolean(shield);
  const moment = `${view.turn}:${view.roller}:${view.step}`;
  // the race that just ended: its cry still counts as « trop tard » (no Bévue) until the next
  // dice, so the bar stays unfolded under a late thumb rather than folding away mid-click
  const late = view.late || null;
  const lateOpen = Boolean(late && ctx.seat !== null && late.seats.includes(ctx.seat));
  const done = shoutedCry(view, ctx.seat);  // the cry this seat has had counted, if any
  const folded = !compact && !race && !ready && !lateOpen && shoutsOpenAt !== moment;
  const cries = h("div", { class: "cries", id: compact ? null : "cdc-cries" });
  const calls = h("div", { class: "calls" });
  const who = ctx.names[ctx.seat];
  // in a race the clock sits on the shout bar too: a phone scrolled down sees how long is left
  const clock = race && live && !compact && (view.windows || []).length ? clockFor(ctx.message, "Temps pour crier") : null;
  const classes = [compact ? "sheet-shouts" : "shout-bar", race ? "race-open" : "no-race"];
  if (folded) classes.push("folded");
  let toggle = null;
  if (!compact && !race && !ready && !lateOpen) {
    toggle = pressButton({
      class: "shout shout-toggle", "aria-expanded": String(!folded), "aria-controls": "cdc-cries",
      title: "Aucune course ouverte : un cri maintenant est une Bévue (−10)",
    }, () => {
      const open = shoutsOpenAt !== moment;
      shoutsOpenAt = open ? moment : null;
      const bar = toggle.closest(".shout-bar");
      if (bar) bar.classList.toggle("folded", !open);
      toggle.setAttribute("aria-expanded", String(open));
      toggle.querySelector(".toggle-label").textContent = open ? "Replier les cris" : "Les cris";
    }, h("span", { class: "toggle-label", text: folded ? "Les cris" : "Replier les cris" }), h("span", { class: "toggle-note", text: " · hors course : Bévue" }));
  }
  const bar = h("div", { class: classes.join(" "), role: "group", "aria-label": compact ? `Les cris ${ofName(who)}` : "Les cris", dataset: { seat: ctx.seat } }, clock, toggle, heardLine(view, ctx), cries, calls);
  const idleTitle = RACE_STEPS.has(view.step) && !race
    ? "Cette course est pour les autres joueurs : crier est une Bévue (−10)"
    : "Aucune course ouverte : crier maintenant est une Bévue (−10)";
  for (const { cry, short } of CRIES) {
    const counted = done === cry;
    const tooLate = !race && lateOpen && late.cry === cry;
    const active = race && !done;  // a cry that may still win (or save) the race
    const classes = ["shout", "cry"];
    if (counted) classes.push("shouted");
    else if (tooLate) classes.push("late");
    else if (!active) classes.push("idle");
    const title = counted ? "Votre cri a été entendu" : tooLate ? "La course est finie : ce cri arrive trop tard (sans pénalité)" : active ? null : idleTitle;
    cries.append(pressButton({ class: classes.join(" "), disabled: !live, title, "aria-pressed": counted ? "true" : null, dataset: { cry } },
      () => ctx.act({ type: "crier", cry }), short, counted ? h("span", { class: "shout-state", text: " · crié ✓" }) : null));
  }
  calls.append(pressButton({ class: `shout grelottine${hasGrel ? " ready" : " idle"}`, disabled: !live, title: hasGrel ? null : "Sans Grelottine, crier « Grelottine ! » est une Bévue (−10)", dataset: { cry: "Grelottine !" } }, () => {
    if (hasGrel) { openDialog = ["grelottine", ctx.seat]; focusDialog("grelottine", ctx.seat); } else ctx.act({ type: "crier", cry: "Grelottine !" });
  }, "Grelottine !"));
  // the two calls are shouts too (rules): where they do not apply, pressing one is a Bévue,
  // offered while the server lists it (once a turn, at tables with the −10 button)
  const outOfPlace = new Set((groups.get("crier") || []).map((item) => item.action.cry));
  const passeOut = !passes.length && outOfPlace.has(PASSE_GRELOT);
  calls.append(pressButton({
    class: `shout passe${passes.length ? " ready" : " idle"}`, disabled: !live || !(passes.length || passeOut), dataset: { cry: PASSE_GRELOT },
    title: passes.length ? "Passer le défi à un autre joueur" : passeOut ? "Aucun défi à passer : crier « Passe-Grelot ! » maintenant est une Bévue (−10)" : "Seulement quand un défi de Grelottine vous vise, et si vous avez gagné un Passe-Grelot.",
  }, () => {
    if (!passes.length) ctx.act({ type: "crier", cry: PASSE_GRELOT });
    else if (passes.length === 1) ctx.act(passes[0].action); else { openDialog = ["passe", ctx.seat]; focusDialog("passe", ctx.seat); }
  }, "Passe-Grelot !"));
  const mine = ctx.seat !== null && view.sheets[ctx.seat] ? view.sheets[ctx.seat].boucliette : false;
  const shieldOut = !shield && outOfPlace.has(BOUCLIETTE);
  const shieldTitle = shield ? "Annule un défi (Soufflette ou Grelottine) quand il est annoncé"
    : shieldOut ? (mine ? "Aucun défi à annuler : crier « Boucliette ! » maintenant est une Bévue (−10)" : "Vous n'avez plus de Boucliette : la crier est une Bévue (−10)")
    : mine ? "Annule un défi (Soufflette ou Grelottine) quand il est annoncé" : "Vous n'avez plus de Boucliette";
  calls.append(pressButton({ class: `shout boucliette${shield ? " ready" : " idle"}`, disabled: !live || !(shield || shieldOut), title: shieldTitle, dataset: { cry: BOUCLIETTE } },
    () => ctx.act(shield ? shield.action : { type: "crier", cry: BOUCLIETTE }), h("span", { class: "shield-icon", "aria-hidden": "true" }), "Boucliette"));
  return bar;
}

/** The race cry `seat` has had counted (in the race, or in the race that just ended). */
function shoutedCry(view, seat) {
  if (seat === null || seat === undefined) return null;
  if (view.race && view.race.order.includes(seat)) return view.race.cry;
  if (!view.race && view.late && view.late.heard.includes(seat)) return view.late.cry;
  return null;
}

/** « Ont crié : … » beside the shout buttons (on a phone the board is out of sight). */
function heardLine(view, ctx) {
  const order = view.race ? view.race.order : view.late ? view.late.heard : [];
  if (!view.race && !order.length) return null;
  const names = order.map((s) => (s === ctx.seat ? "vous" : ctx.names[s]));
  return h("p", { class: "shout-heard", "aria-live": "polite" },
    view.race ? "Ont crié : " : "Course finie · ont crié : ", h("strong", { text: names.length ? names.join(", ") : "personne pour l'instant" }));
}

function focusDialog(name, seat) {
  const node = document.querySelector(`[data-dialog="${name}"][data-seat="${seat}"]`);
  if (node) { node.classList.add("flash"); node.scrollIntoView({ block: "nearest" }); node.querySelector("input,select,button")?.focus(); }
}

function dialog(name, title, ...body) {
  return h("section", { class: "cdc-dialog", dataset: { dialog: name, seat: dialogSeat } }, h("h3", { text: title }), ...body);
}

function buttons(items, ctx, label, cls = "") {
  return h("div", { class: `choice-row ${cls}` }, items.map((item) => pressButton({ class: "button choice", dataset: { action: JSON.stringify(item.action) } }, () => ctx.act(item.action), label(item))));
}

function stakeForm(name, title, entries, ctx, build, note, start = "max") {
  // entries: [{combination, min, max}] ; build(combination, stake) -> action ; start: the
  // stake shown before anything is typed, the entry's "min" or "max"
  const key = draftKey(name, ctx);
  const saved = typed.get(key);
  const select = h("select", { name: "combination", "aria-label": "Combinaison", dataset: { draft: key, index: 0 } }, entries.map((e) => h("option", { value: e.combination, text: `${e.combination} (max ${e.max})` })));
  const input = h("input", { type: "number", name: "stake", min: String(entries[0].min), inputmode: "numeric", "aria-label": "Mise", value: String(entries[0][start]), dataset: { draft: key, index: 1 } });
  if (saved && entries.some((e) => e.combination === saved.combination)) { select.value = saved.combination; input.value = saved.stake; }
  const keep = () => typed.set(key, { combination: select.value, stake: input.value });
  select.addEventListener("change", keep);
  input.addEventListener("input", keep);
  restoreFocus(key, [select, input]);
  const max = h("span", { class: "max-note" });
  const sync = () => {
    const entry = entries.find((e) => e.combination === select.value) || entries[0];
    input.min = String(entry.min);
    input.max = String(entry.max);
    max.textContent = french(`maximum : ${pointsText(entry.max)}`);
    if (!input.value) input.value = String(entry[start]);
    else if (Number(input.value) > entry.max) input.value = String(entry.max);
    else if (Number(input.value) < entry.min) input.value = String(entry.min);
  };
  select.addEventListener("change", sync);
  sync();
  const form = h("form", { class: "stake-form", novalidate: true }, select, input, max, h("button", { class: "button primary", type: "submit", text: "Valider" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    typed.delete(key);
    ctx.act(build(select.value, Number.parseInt(input.value, 10)));
  });
  return dialog(name, title, note ? h("p", { class: "dialog-note", text: note }) : null, form);
}

/** Each combination of the legal stakes, with its smallest and largest stake. */
function stakeBounds(items) {
  const bounds = new Map();
  for (const { action } of items) {
    const b = bounds.get(action.combination);
    if (!b) bounds.set(action.combination, { combination: action.combination, min: action.stake, max: action.stake });
    else { b.min = Math.min(b.min, action.stake); b.max = Math.max(b.max, action.stake); }
  }
  return [...bounds.values()];
}

function diceEntry(count, ctx, title) {
  const inputs = [];
  const key = draftKey(`des${count}`, ctx);
  const saved = typed.get(key) || { values: [] };
  for (let i = 0; i < count; i++) {
    const input = h("input", { type: "number", min: "1", max: "6", inputmode: "numeric", required: true, class: "die-input", "aria-label": `Dé ${i + 1}`, dataset: { draft: key, index: i } });
    input.value = saved.values[i] || "";
    input.addEventListener("input", () => typed.set(key, { values: inputs.map((n) => n.value) }));
    inputs.push(input);
  }
  restoreFocus(key, inputs);
  const form = h("form", { class: "dice-entry", novalidate: true }, inputs, h("button", { class: "button primary", type: "submit", text: "Valider les dés" }));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    typed.delete(key);  // a new roll of the same step (a tie) starts empty
    ctx.act({ type: "des", dice: inputs.map((i) => Number.parseInt(i.value, 10)) });
  });
  return dialog("des", title, h("p", { class: "dialog-note", text: "Tapez les valeurs des vrais dés posés sur la table (1 à 6)." }), form);
}

/**
 * The viewer's decisions and shouts share one dock fixed at the bottom of the screen: a bet,
 * a challenge or the dice to type are on screen at once, whatever the number of sheets above,
 * and the shouts stay under the thumb. The page keeps room below the board for the dock.
 */
let dockWatch = null;
function watchDock(box) {
  if (dockWatch || typeof ResizeObserver === "undefined") return;
  const root = document.documentElement;
  dockWatch = new ResizeObserver(() => {
    const docked = box.classList.contains("cdc-dock");
    root.style.setProperty("--cdc-dock-h", `${docked ? Math.ceil(box.getBoundingClientRect().height) : 0}px`);
  });
  dockWatch.observe(box);
}

export function renderActions(box, legal, ctx) {
  if (!ctx.message) return;
  const view = ctx.message.view;
  box.classList.toggle("cdc-dock", !shared.active);
  watchDock(box);
  if (!shared.active) {
    const panel = decisions(view, legal, ctx);
    if (panel) box.append(panel);
    if (ctx.seat !== null && ctx.message.status === "live") box.append(shoutBar(view, byType(legal), ctx));
  } else {
    // shared screen: one block of decisions per player of this device
    for (const seat of controlled(ctx)) {
      const sctx = seatCtx(ctx, seat);
      const panel = decisions(sctx.message.view, legalOf(ctx, seat), sctx);
      if (panel) box.append(h("section", { class: "seat-decisions" }, h("h3", { class: "seat-decisions-who", text: `Pour ${ctx.names[seat]}` }), panel));
    }
  }
  if (openDialog) { const [name, seat] = openDialog; openDialog = null; requestAnimationFrame(() => focusDialog(name, seat)); }
}

// the decisions taken in a window that the table clock closes (the others wait for one player)
const WINDOW_DECISIONS = new Set(["acheter", "parier_face", "grelottine", "parier_defi", "parier_total", "passe_grelot", "passer"]);

// the moves of the tables' options (Banque, Chante-Sloubi), named by the engine's labels
const OPTION_MOVES = new Set(["deposer", "retirer", "sloubi"]);
const BANK_CRIES = new Set(["Raitournelle !", "Artichette !"]);

/** The Banque (its balances, deposits, withdrawals, « Raitournelle ! », « Artichette ! »)
 * and the Chante-Sloubi's joining, as plain buttons with the engine's words. */
function optionMoves(view, legal, ctx) {
  const items = legal.filter((l) => OPTION_MOVES.has(l.action.type) || (l.action.type === "crier" && BANK_CRIES.has(l.action.cry)));
  const bank = view.banque;
  if (!items.length && !bank) return null;
  const box = h("section", { class: "option-moves", "aria-label": bank ? "La Banque" : "Rejoindre la partie" });
  if (bank) {
    const balances = bank.balances.map((points, seat) => `${ctx.names[seat]} ${pointsText(points)}`).join(" · ");
    box.append(h("p", { class: "bank-line" }, h("strong", { text: "Banque : " }), balances));
  }
  if (items.length) {
    box.append(h("div", { class: "option-buttons" }, items.map((item) => pressButton(
      { class: "button", dataset: { action: item.action.type } }, () => ctx.act(item.action), withNames(item.label, ctx.names)))));
  }
  return box;
}

/** « Réussi : Guenièvre fait une Chouette » says who must make what, unlike « défi réussi ». */
function challengeBet(view, item, names) {
  const c = view.challenge;
  if (!c || !c.combination) return withNames(item.label, names);
  const who = names[c.target];
  return item.action.made ? `Réussi : ${who} ${article(c.combination)}${c.combination}` : `Raté : ${who} ne fait pas de ${c.combination}`;
}

function decisions(view, legal, ctx) {
  const groups = byType(legal);
  const names = ctx.names;
  dialogSeat = ctx.seat;
  const panel = h("div", { class: "cdc-dialogs", dataset: { seat: ctx.seat } });
  const label = (item) => withNames(item.label, names);
  // a player scrolled down to the dialogs on a phone still sees how long the window stays open
  const open = (view.windows || []).length && ctx.message.status === "live" && legal.some((l) => WINDOW_DECISIONS.has(l.action.type));
  const clock = open ? clockFor(ctx.message, "Temps pour décider") : null;
  if (clock) panel.append(clock);
  // a challenge announced: who challenges whom, for what, where the decision is taken
  const c = view.challenge;
  const challenged = c && view.step === "annonce" && c.target === ctx.seat;
  if (c && view.step === "annonce" && legal.some((l) => WINDOW_DECISIONS.has(l.action.type))) {
    const target = challenged ? "vous" : names[c.target];
    panel.append(h("p", { class: `challenge-brief${challenged ? " me" : ""}` },
      h("strong", { text: names[c.challenger] }), challenged ? " vous défie : " : ` défie ${target} : `, h("strong", { text: challengeWhat(c) }),
      challenged ? h("span", { class: "brief-note", text: c.kind === "soufflette"
        ? " · réussi, vous gagnez 50, 40 ou 30 ; raté, vous perdez 30."
        : ` · réussi, vous gagnez ${pointsText(c.stake)} ; raté, vous perdez autant.` }) : null));
  }
  if (challenged && groups.has("passer")) {
    // the challenged player's « Je passe » takes the challenge on: say so, right under it
    panel.append(pressButton({ class: "button pass-button accept", dataset: { action: "passer" }, title: "Sans Boucliette ni Passe-Grelot : vous relevez le défi." },
      () => ctx.act({ type: "passer" }), "J'accepte le défi (je passe)"));
  }
  if (groups.has("lancer")) panel.append(pressButton({ class: "button primary big roll-button", dataset: { action: "lancer" } }, () => ctx.act({ type: "lancer" }), "Lancer les dés"));
  if (groups.has("des")) {
    const count = groups.get("des")[0].action.dice.length;
    // a scribe types everyone's dice, tie-break or not: whose die this one is
    const owner = view.tiebreak ? view.tiebreak.pending[0] : view.awaiting ? awaitedOwner(view) : null;
    const of = owner === null || owner === ctx.seat ? "" : ` ${ofName(names[owner])}`;
    const die = of ? "le dé" : "votre dé";
    const what = view.tiebreak ? (view.tiebreak.purpose === "ouverture" ? `Saisir ${die} d'ouverture${of} (le plus petit commence)` : `Saisir ${die} de départage${of} (le plus petit perd)`) : (count === 2 ? "Saisir les deux Chouettes" : count === 1 ? "Saisir le dé" : "Saisir les trois dés") + of;
    panel.append(diceEntry(count, ctx, what));
  }
  if (groups.has("acheter")) panel.append(dialog("achat", "Achat de dé", h("p", { class: "dialog-note", text: "Le Cul est à vendre : payez 30 points et jouez la combinaison à la place du lanceur." }), buttons(groups.get("acheter"), ctx, label)));
  if (groups.has("siroter")) panel.append(dialog("siroter", "Une Chouette ! Siroter ?", h("p", { class: "dialog-note", text: "Relancer le dé qui ne fait pas la paire : un Cul de Chouette si c'est gagné, la Chouette perdue sinon." }), buttons(groups.get("siroter"), ctx, label)));
  if (groups.has("parier_face")) panel.append(dialog("paris", "Pari sur le Sirotage (5 points, gain 25)", buttons(groups.get("parier_face"), ctx, (i) => `${BIRDS[i.action.face]} · ${i.action.face}`, "faces")));
  if (groups.has("souffler")) panel.append(dialog("soufflette", "Soufflette : qui défiez-vous ?", buttons(groups.get("souffler"), ctx, (i) => names[i.action.target])));
  if (groups.has("grelottine")) {
    const entries = stakeBounds(groups.get("grelottine"));
    const target = names[scorerOf(view)]; // the buyer of the Cul plays its Néant, not the roller
    panel.append(stakeForm("grelottine", `« Grelottine ! » contre ${target}`, entries, ctx,
      (combination, stake) => ({ type: "grelottine", combination, stake }),
      "Imposez une combinaison et une mise : le maximum dépend du plus petit des deux scores."));
  }
  if (groups.has("civet")) {
    // the Civet starts at the smallest stake: an even-money bet on a combination the dice
    // make less often than not, which one tap on « Valider » must not stake whole (102)
    panel.append(stakeForm("civet", "Miser votre Civet", stakeBounds(groups.get("civet")), ctx,
      (combination, stake) => ({ type: "civet", combination, stake }),
      "Avant vos dés : misez sur la combinaison que vous allez faire (ou lancez sans miser).", "min"));
  }
  if (groups.has("passe_grelot")) panel.append(dialog("passe", "« Passe-Grelot ! » à qui ?", buttons(groups.get("passe_grelot"), ctx, (i) => names[i.action.target])));
  if (groups.has("parier_defi")) panel.append(dialog("pari-defi", "Pari sur le défi (5 points, gain 25)", buttons(groups.get("parier_defi"), ctx, (i) => challengeBet(view, i, names))));
  if (groups.has("annoncer_total")) panel.append(dialog("annonce", `Bleu-Rouge : annoncez un total (${leftText(3 - (view.bleu_rouge ? view.bleu_rouge.announced : 0))})`, buttons(groups.get("annoncer_total"), ctx, (i) => String(i.action.total), "totals")));
  if (groups.has("parier_total")) panel.append(dialog("pari-total", "Bleu-Rouge : pariez 5 sur un total", buttons(groups.get("parier_total"), ctx, (i) => String(i.action.total), "totals")));
  if (groups.has("passer") && !challenged) {
    panel.append(pressButton({ class: "button pass-button", dataset: { action: "passer" }, title: "Rien à faire dans cette fenêtre : elle se ferme dès que chacun a joué ou passé." },
      () => ctx.act({ type: "passer" }), "Je passe"));
  }
  const options = optionMoves(view, legal, ctx);
  if (options) panel.append(options);
  return panel.childNodes.length > (clock ? 1 : 0) ? panel : null;
}
