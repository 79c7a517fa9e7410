// Chouineurs: double-ended cards, the hidden orientation and bet, crybabies, the score sheet.
import { h } from "../dom.js";
import { counted, pointsText, useStylesheet } from "../widgets.js";

useStylesheet("/static/css/games/chouineurs.css");

const CHARACTERS = { noir: "Dragon", jaune: "Magicien", bleu: "Reine", rouge: "Roi" };
const PHASES = { choix: "Choix secrets : orientation de la main et pari", jeu: "Les plis", chouine: "On pleure !", fin: "Partie terminée" };
let showLast = false;
let shownAt = "";  // the table when the last trick was asked for: a new card puts the current one back
let draft = { orientation: "endroit", bet: undefined };
let draftRound = null;


function betTitle(view, name) {
  const card = (view.bet_cards || []).find((b) => b.name === name);
  return card ? card.title : name;
}

function hasLegal(view, type) {
  return (view.legal || []).some((item) => item.action.type === type);
}

/** What the page brings into view when the turn comes (table.js): the secret choice while it
 * is asked (it sits above the hand), else the hand and the buttons under the board. */
export function turnArea(board, actions) {
  const chooser = board.querySelector(".cx-chooser");
  if (chooser) return chooser;
  return [board.querySelector(".cx-seat.me .cx-hand"), actions && actions.childElementCount ? actions : null];
}

/** The status line's words when the viewer acts: what is asked of them right now. */
export function statusText(view, seat) {
  if (view.phase === "choix" && hasLegal(view, "prepare")) return "À vous de choisir l'orientation de votre main et votre pari !";
  if (view.phase === "chouine" && view.crybaby && view.crybaby.seat === seat) {
    return view.reserve > 0
      ? "Vous chouinez : retournez une carte de votre main ou prenez 1 point !"
      : "Vous chouinez : retournez une carte de votre main !";
  }
  if (view.phase === "jeu" && view.turn === seat) return view.trick.length ? "À vous de jouer une carte !" : "À vous d'entamer le pli !";
  return null;
}

function endEl(end, cls) {
  return h("span", { class: `cx-end ${cls} cx-${end.colour}` },
    h("b", { text: String(end.value) }),
    h("small", { text: CHARACTERS[end.colour] || end.colour }));
}

export function dcardEl(card, { tag = "div", playable = false, onclick = null, flipped = false, extraClass = "" } = {}) {
  const top = flipped ? card.bottom : card.top;
  const bottom = flipped ? card.top : card.bottom;
  const label = `${top.value} ${top.colour} (dos : ${bottom.value} ${bottom.colour})`;
  const attrs = { class: `dcard${playable ? " playable" : ""}${extraClass ? ` ${extraClass}` : ""}`, "aria-label": label, title: label, dataset: { card: card.card || "" } };
  if (tag !== "button") attrs.role = "img";  // a label on a plain div needs a role to be read
  if (tag === "button") {
    attrs.type = "button";
    if (!playable) attrs.disabled = true;
    if (onclick) attrs.onclick = onclick;
  }
  return h(tag, attrs, endEl(top, "top"), endEl(bottom, "bottom"));
}

function playedEl(end) {
  return h("div", { class: `dcard played cx-face-${end.colour}` }, endEl(end, "top single"));
}

function betChip(view, name, { big = false } = {}) {
  const card = (view.bet_cards || []).find((b) => b.name === name);
  if (!name || !card) return h("span", { class: "cx-bet none", text: "sans pari" });
  return h("span", { class: `cx-bet cx-bet-${name}${big ? " big" : ""}`, title: card.description },
    h("b", { text: card.title }), big ? h("small", { text: card.description }) : null);
}

/** A seat's name; « (robot) » (a person replaced) and « (vous) » stay whole: a long name
 * may break anywhere on a phone, and « Katia (robot) » broke into « (robo » / « t) ». */
function nameEl(name, me) {
  const [, bare, robot] = /^(.*?)(?: (\(robot\)))?$/su.exec(String(name));
  const tags = [robot, me ? "(vous)" : null].filter(Boolean);
  return h("span", { class: "cx-name" }, bare, ...tags.flatMap((tag) => [" ", h("span", { class: "nowrap", text: tag })]));
}

function seatEl(view, seat, ctx, { brief = false } = {}) {
  const me = seat === view.seat;
  const acting = (view.actors || []).includes(seat);
  const box = h("div", { class: `cx-seat${acting ? " acting" : ""}${me ? " me" : ""}`, dataset: { seat } });
  box.append(h("div", { class: "cx-seat-head" },
    nameEl(ctx.names[seat], me),
    h("span", { class: "cx-score", text: pointsText(view.scores[seat]) })));
  if (brief) return box;  // the viewer's own box while the choice is asked: the choice first
  const line = h("div", { class: "cx-seat-line" });
  if (ctx.message?.status === "open") {  // a table still filling (a rematch): nobody plays yet
    const free = ctx.message.seats[seat].kind === "open";
    line.append(h("span", { class: "cx-ready", text: free ? "place libre : en attente" : "en attente du début" }));
    box.append(line);
    return box;
  }
  if (view.revealed) {
    line.append(betChip(view, view.bets[seat]));
    line.append(h("span", { class: "cx-orient", text: view.orientations[seat] === "envers" ? "main retournée" : "main à l'endroit" }));
  } else if (view.phase === "choix") {
    const words = me ? ["choix fait", "à vous de choisir"] : ["a choisi", "réfléchit…"];
    line.append(h("span", { class: `cx-ready${view.ready[seat] ? " yes" : ""}`, text: view.ready[seat] ? words[0] : words[1] }));
  }
  box.append(line);
  box.append(h("div", { class: "cx-seat-stats" },
    h("span", { text: counted(view.tricks_won[seat], "pli") }),
    view.tokens[seat] ? h("span", { class: "cx-tokens", title: "cartes de la réserve glissées sous la carte de pari : 1 point chacune",
      text: `+${counted(view.tokens[seat], "point")} de chouineur` }) : null,
    h("span", { text: counted(view.hand_counts[seat], "carte") })));
  return box;
}

function chooser(view, ctx, box) {
  const legal = (view.legal || []).filter((item) => item.action.type === "prepare");
  if (!legal.length) return null;
  const bets = [...new Set(legal.map((item) => item.action.bet))];
  if (draftRound !== view.round) {
    draft = { orientation: "endroit", bet: undefined };
    draftRound = view.round;
  }
  if (!bets.includes(draft.bet)) draft.bet = bets.length === 1 ? bets[0] : undefined;
  const panel = h("section", { class: "cx-chooser" }, h("h3", { text: "Votre choix secret" }));
  const orient = h("div", { class: "cx-orient-choice", role: "group", "aria-label": "Orientation de la main" });
  for (const [value, label] of [["endroit", "Main à l'endroit"], ["envers", "Main retournée"]]) {
    orient.append(h("button", { type: "button", class: `chip${draft.orientation === value ? " active" : ""}`, "aria-pressed": String(draft.orientation === value), text: label, dataset: { orientation: value },
      onclick: () => { draft.orientation = value; ctx.redraw(); } }));
  }
  panel.append(orient);
  const betRow = h("div", { class: "cx-bet-choice", role: "group", "aria-label": "Carte de pari" });
  for (const bet of bets) {
    betRow.append(h("button", { type: "button", class: `cx-betcard${draft.bet === bet ? " chosen" : ""}`, "aria-pressed": String(draft.bet === bet), dataset: { bet: bet ?? "" },
      onclick: () => { draft.bet = bet; ctx.redraw(); } }, betChip(view, bet, { big: true })));
  }
  panel.append(betRow);
  const action = legal.find((item) => item.action.orientation === draft.orientation && item.action.bet === draft.bet);
  panel.append(h("button", { type: "button", class: "button primary cx-confirm", disabled: !action || ctx.pending(), text: action ? "Valider ce choix" : "Choisissez une carte de pari",
    onclick: () => action && ctx.act(action.action) }));
  return panel;
}

function sheetEl(view, ctx) {
  if (!view.sheet || !view.sheet.length) return null;
  const table = h("table", { class: "cx-sheet" });
  // on a phone « Manche » reads « n° » and a long name is cut (in full in its title): five
  // players' columns fit the screen, the last one (the leader's, maybe) with them
  const head = h("tr", {}, h("th", {}, h("span", { class: "cx-round-long", text: "Manche" }),
    h("span", { class: "cx-round-short", "aria-hidden": "true", text: "n°" })));
  for (let seat = 0; seat < view.players; seat += 1) {
    head.append(h("th", { title: ctx.names[seat] }, h("span", { class: "cx-sheet-name", text: ctx.names[seat] })));
  }
  table.append(h("thead", {}, head));
  const body = h("tbody");
  for (const entry of view.sheet) {
    const row = h("tr", {}, h("th", { text: String(entry.round) }));
    entry.rows.forEach((r) => {
      row.append(h("td", { class: r.hit ? "hit" : "" },
        // no break inside a name, a count or a sum: « Orange · » / « 0 pli » at most
        h("span", { class: "cx-sheet-bet", text: r.bet ? `${betTitle(view, r.bet)}\u00a0· ${counted(r.tricks, "pli").replace(" ", "\u00a0")}` : counted(r.tricks, "pli") }),
        h("span", { class: "cx-sheet-pts", text: `${r.bet_points}${r.tokens ? ` + ${r.tokens}` : ""} = ${r.total}` })));
    });
    body.append(row);
  }
  const totals = h("tr", { class: "total" }, h("th", { text: "Total" }));
  view.scores.forEach((score) => totals.append(h("td", { text: String(score) })));
  body.append(totals);
  table.append(body);
  return h("details", { class: "cx-sheet-box", open: true }, h("summary", { text: "Feuille de marque" }), table);
}

export function render(board, view, ctx) {
  const wrap = h("div", { class: "cx" });
  wrap.append(h("div", { class: "cx-info" },
    h("span", { class: "cx-round" }, "Manche ", h("b", { text: `${view.round}/${view.rounds}` })),
    view.phase === "jeu" || view.phase === "chouine" ? h("span", { text: `pli ${view.trick_number}/7` }) : null,
    h("span", { class: "cx-phase", text: PHASES[view.phase] || view.phase }),
    h("span", { class: "cx-reserve", title: "cartes face cachée : un chouineur qui pleure pour 1 point prend celle du dessus",
      text: `réserve : ${counted(view.reserve, "carte")}` })));

  const seats = h("div", { class: "cx-seats" });
  for (let seat = 0; seat < view.players; seat += 1) if (seat !== view.seat) seats.append(seatEl(view, seat, ctx));
  wrap.append(seats);

  const felt = h("div", { class: "cx-felt" });
  const played = JSON.stringify([view.trick, view.last_trick]);
  if (showLast && played !== shownAt) showLast = false;
  // while the crybabies choose, the trick that made them cry stays on the felt
  const crying = view.phase === "chouine" && view.last_trick && !view.trick.length;
  if ((showLast || crying) && view.last_trick) {
    felt.append(h("p", { class: "cx-felt-title", text: `Dernier pli : ${ctx.names[view.last_trick.winner]} l'emporte` }));
    const row = h("div", { class: "cx-trick" });
    for (const p of view.last_trick.cards) {
      const cry = view.last_trick.crybabies.includes(p.seat);
      row.append(h("figure", { class: `cx-played${cry ? " cry" : ""}` }, playedEl(p.end), h("figcaption", {}, ctx.names[p.seat], cry ? h("br") : null, cry ? "pleure" : null)));
    }
    felt.append(row);
  } else {
    if (view.led_colour) felt.append(h("p", { class: "cx-felt-title", text: `Couleur demandée : ${view.led_colour}` }));
    const row = h("div", { class: "cx-trick" });
    for (const p of view.trick) row.append(h("figure", { class: "cx-played" }, playedEl(p.end), h("figcaption", { text: ctx.names[p.seat] })));
    if (!view.trick.length) row.append(h("p", { class: "cx-wait", text: view.phase === "choix" ? "Chacun choisit en secret…" : "Le pli est vide." }));
    felt.append(row);
  }
  if (view.crybaby) {
    const mine = view.crybaby.seat === view.seat;
    felt.append(h("p", { class: "cx-cry", text: mine ? "Vous pleurez sur votre sort : choisissez un bonus." : `${ctx.names[view.crybaby.seat]} pleure sur son sort et choisit un bonus.` }));
  }
  wrap.append(felt);
  wrap.append(h("div", { class: "cq-tools" }, h("button", {
    type: "button", class: "chip", id: "last-trick-toggle", disabled: !view.last_trick || crying, "aria-pressed": String(showLast),
    text: showLast ? "Revenir au pli en cours" : "Voir le dernier pli",
    onclick: () => {
      showLast = !showLast;
      shownAt = played;
      ctx.redraw();
      document.getElementById("last-trick-toggle")?.focus();  // the button was drawn anew
    } })));

  if (view.seat !== null && view.seat !== undefined) {
    const choosing = view.phase === "choix" && hasLegal(view, "prepare");
    const mine = seatEl(view, view.seat, ctx, { brief: choosing });
    const plays = new Map();
    const turns = new Map();
    for (const item of view.legal || []) {
      if (item.action.type === "play") plays.set(item.action.card, item.action);
      if (item.action.type === "cry" && item.action.turn) turns.set(item.action.turn, item.action);
    }
    const flipped = choosing ? draft.orientation === "envers" : false;
    const hand = h("div", { class: "cx-hand", role: "group", "aria-label": "Votre main" });
    for (const card of view.hand) {
      const action = plays.get(card.card) || turns.get(card.card);
      const el = dcardEl(card, { tag: "button", flipped, playable: !!action && !ctx.pending(),
        extraClass: turns.has(card.card) ? "turnable" : (plays.size && !action ? "blocked" : ""),
        onclick: action ? () => ctx.act(action) : null });
      if (plays.size && !action && !ctx.pending()) {
        // a forbidden card still answers a tap: the table says why, in French
        el.disabled = false;
        el.setAttribute("aria-disabled", "true");
        el.addEventListener("click", () => ctx.act({ type: "play", card: card.card }));
      }
      hand.append(el);
    }
    if (turns.size) {
      mine.append(h("p", { class: "cx-hint", text: view.reserve > 0
        ? "Touchez une carte pour la retourner, ou prenez une carte de la réserve (1 point)."
        : "La réserve est vide : touchez une carte pour la retourner." }));
    }
    // the choice asked of the viewer comes first, above the hand it turns, and the whole box
    // right under the round's line: seen without scrolling, on a phone too
    const choice = choosing ? chooser(view, ctx) : null;
    if (choice) mine.append(choice);
    mine.append(hand);
    if (view.my_choice && !view.revealed) {
      mine.append(h("p", { class: "cx-mychoice" }, "Votre choix : ",
        h("b", { text: view.my_choice.orientation === "envers" ? "main retournée" : "main à l'endroit" }), " · ", betChip(view, view.my_choice.bet)));
    }
    if (choice) {
      mine.classList.add("choosing");
      wrap.insertBefore(mine, seats);
    } else wrap.append(mine);
  }
  const sheet = sheetEl(view, ctx);
  if (sheet) wrap.append(sheet);
  board.append(wrap);
}

export function renderActions(box, legal, ctx) {
  const special = legal.filter((item) => item.action.type === "cry" && item.action.token);
  if (!special.length) return;
  const group = h("div", { class: "action-buttons" });
  for (const item of special) group.append(h("button", { type: "button", class: "button action", text: item.label, onclick: () => ctx.act(item.action) }));
  box.append(group);
}
