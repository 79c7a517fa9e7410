// La Chouine: the trump under the talon, the trick, hands, declarations, the 7 exchange.
import { clear, h } from "../dom.js";
import { backEl, cardEl, fill, SUIT_NAMES, SUITS } from "../cards.js";
import { counted, pointsText } from "../widgets.js";

let showLast = false;
let shownAt = "";  // the table when the last trick was asked for: a new card puts the current one back

function plainPlays(view) {
  const plays = new Map();
  for (const item of view.legal || []) {
    const a = item.action;
    if (a.type === "play" && !a.declare) plays.set(a.card, a);
  }
  return plays;
}

function seatPanel(view, seat, ctx) {
  const me = seat === view.seat;
  const acting = (view.actors || []).includes(seat);
  const shown = (view.shown || [])[seat] || [];
  // once a partie is over, its total (dix de der included) is public on the score sheet
  const done = view.stage !== "play" && view.last_result;
  const points = done
    ? (view.last_result.reason === "chouine" ? null : view.last_result.totals[seat])
    : (view.points || [])[seat];
  const box = h("div", { class: `cq-seat${acting ? " acting" : ""}${me ? " me" : ""}`, dataset: { seat } },
    h("div", { class: "cq-seat-head" },
      h("span", { class: "cq-name", text: ctx.names[seat] + (me ? " (vous)" : "") }),
      view.dealer === seat ? h("span", { class: "cq-dealer", title: "donneur", text: "donne" }) : null),
    h("div", { class: "cq-seat-stats" },
      h("span", { text: `${view.tricks_won[seat]} pli${view.tricks_won[seat] > 1 ? "s" : ""}` }),
      view.declared_points[seat] ? h("span", { text: `annonces ${view.declared_points[seat]}` }) : null,
      points !== null && points !== undefined ? h("span", { class: "cq-points", text: pointsText(points) }) : null,
      h("span", { class: "cq-wins", title: "parties gagnées dans la manche", text: winsText(view, seat) })));
  if (!me) {
    const hand = h("div", { class: "cq-backs" });
    const visible = new Set(shown);
    for (const code of shown) hand.append(cardEl(code, { small: true, extraClass: "shown" }));
    for (let i = visible.size; i < view.hand_sizes[seat]; i += 1) hand.append(backEl({ small: true }));
    box.append(hand);
  }
  return box;
}

function winsText(view, seat) {
  // two players race to a number of wins (dots); three or four just count them
  const wins = view.partie_wins[seat];
  const need = winsNeeded(view);
  if (!need) return `parties : ${wins}`;
  return `parties ${"●".repeat(wins)}${"○".repeat(Math.max(0, need - wins))}`;
}

function winsNeeded(view) {
  return view.players === 2 ? Math.floor(view.parties_per_manche / 2) + 1 : 0;
}

function roundText(view) {
  // between two parties the counters already point at the next one: name the manche only
  const belle = view.belle && view.stage === "play" ? " · la belle !" : "";
  if (view.stage !== "play") return `Manche ${view.manche_number}`;
  return `Partie ${view.partie_number || view.deal_number} · manche ${view.manche_number}${belle}`;
}

function talonEl(view) {
  const box = h("div", { class: "cq-talon", "aria-label": `Talon : ${counted(view.talon, "carte")}` });
  if (view.turned_up) box.append(cardEl(view.turned_up, { extraClass: "turned" }));
  if (view.talon > (view.turned_up ? 1 : 0)) {
    box.append(h("div", { class: "cq-stack" }, backEl(), h("span", { class: "cq-count", text: String(view.talon) })));
  } else if (!view.turned_up) {
    box.append(h("div", { class: "cq-empty", text: "talon épuisé" }));
  }
  return box;
}

/** What an empty trick says: the next card is awaited, or the partie (the match) is over
 * and the felt waits for the next deal (it said « Le pli est vide. » under the result). */
function emptyTrickText(view) {
  if (view.stage === "between") return "Partie terminée : la suivante arrive.";
  if (view.stage !== "play") return view.manches_to_win > 1 ? "Match terminé." : "Manche terminée.";
  return "Le pli est vide.";
}

function trickEl(cards, ctx, title, empty = "Le pli est vide.") {
  const box = h("div", { class: "cq-trick" });
  if (title) box.append(h("p", { class: "cq-trick-title", text: title }));
  const row = h("div", { class: "cq-trick-cards" });
  for (const played of cards) {
    row.append(h("figure", { class: "cq-played" }, cardEl(played.card), h("figcaption", { text: ctx.names[played.seat] })));
  }
  if (!cards.length) row.append(h("p", { class: "cq-wait", text: empty }));
  box.append(row);
  return box;
}

export function render(board, view, ctx) {
  const names = ctx.names;
  const wrap = h("div", { class: "cq" });
  const trump = h("div", { class: `cq-info${view.trump === "H" || view.trump === "D" ? " red" : ""}` },
    h("span", { class: "cq-trump" }, "Atout ", h("b", { text: `${view.trump_symbol} ${view.trump_name}` })),
    h("span", { class: "cq-phase", text: view.phase === 1 ? "Talon ouvert : jeu libre" : "Talon fermé : il faut fournir" }),
    h("span", { class: "cq-round", text: roundText(view) }),
    view.au_sept && view.talon > 0 ? h("span", { class: "badge cq-ausept", title: "Dernier appel : le sept d'atout peut encore être échangé contre la retourne.", text: "Au sept !" }) : null,
    h("span", { class: "cq-preset", text: view.preset_title }));
  wrap.append(trump);

  const others = h("div", { class: "cq-others" });
  for (let seat = 0; seat < view.players; seat += 1) if (seat !== view.seat) others.append(seatPanel(view, seat, ctx));
  wrap.append(others);

  const felt = h("div", { class: "cq-felt" });
  felt.append(talonEl(view));
  const played = JSON.stringify([view.trick, view.last_trick]);
  if (showLast && played !== shownAt) showLast = false;
  if (showLast && view.last_trick) {
    felt.append(trickEl(view.last_trick.cards, ctx, `Dernier pli (remporté par ${names[view.last_trick.winner]})`));
  } else {
    felt.append(trickEl(view.trick, ctx, null, emptyTrickText(view)));
  }
  wrap.append(felt);

  const tools = h("div", { class: "cq-tools" });
  tools.append(h("button", {
    type: "button", class: "chip", id: "last-trick-toggle", disabled: !view.last_trick, "aria-pressed": String(showLast),
    text: showLast ? "Revenir au pli en cours" : "Voir le dernier pli",
    onclick: () => {
      showLast = !showLast;
      shownAt = played;
      if (ctx.redraw) ctx.redraw();
      document.getElementById("last-trick-toggle")?.focus();  // the button was drawn anew
    },
  }));
  wrap.append(tools);

  if (view.stage !== "play" && view.last_result) wrap.append(resultEl(view, ctx));

  if (view.declarations && view.declarations.length) {
    const list = h("ul", { class: "cq-decls" });
    for (const d of view.declarations) {
      const cards = h("span", { class: "cq-decl-cards" }, d.cards.map((c) => cardEl(c, { small: true })));
      // a Chouine scores no points: it wins the partie (« (0 pts) » would say it is worthless)
      const worth = d.kind === "chouine" ? "" : ` (${d.points} pts)`;
      list.append(h("li", {}, h("span", { text: `${names[d.seat]} annonce ${d.name}${d.suit ? ` à ${SUIT_NAMES[d.suit]} ${SUITS[d.suit]}` : ""}${worth}` }), cards));
    }
    wrap.append(h("section", { class: "cq-decl-box" }, h("h3", { text: "Annonces" }), list));
  }

  if (view.seat !== null && view.seat !== undefined) {
    const mine = seatPanel(view, view.seat, ctx);
    const plays = plainPlays(view);
    const hand = h("div", { class: "cq-hand", role: "group", "aria-label": "Votre main" });
    for (const code of view.hand) {
      const action = plays.get(code);
      const el = cardEl(code, {
        tag: "button", playable: !!action && !ctx.pending(),
        extraClass: plays.size && !action ? "blocked" : "",
        onclick: action ? () => ctx.act(action) : null,
      });
      if (plays.size && !action && !ctx.pending()) {
        // a forbidden card still answers a tap: the table says why, in French
        el.disabled = false;
        el.setAttribute("aria-disabled", "true");
        el.addEventListener("click", () => ctx.act({ type: "play", card: code, declare: null }));
      }
      hand.append(el);
    }
    mine.append(hand);
    if (view.won_cards && view.won_cards.length) {
      mine.append(h("details", { class: "cq-won" }, h("summary", { text: `Vos plis (${view.won_cards.length} cartes)` }),
        h("div", { class: "cq-won-cards" }, view.won_cards.map((c) => cardEl(c, { small: true })))));
    }
    wrap.append(mine);
  }
  board.append(wrap);
}

function resultEl(view, ctx) {
  const r = view.last_result;
  const box = h("section", { class: "cq-result" }, h("h3", { text: fill(r.text, ctx.names) }));
  const next = h("p", { class: "cq-next", text: view.stage === "over" ? "Dernière partie du match." : "La donne suivante arrive…" });
  if (r.reason === "chouine") {
    // a Chouine wins the partie outright: totals (where the loser may lead) would mislead
    // (the title already says who won by it; this says where the score sheet went)
    box.append(h("p", { class: "cq-chouine", text: "Pas de feuille de points : la Chouine suffit." }), next);
    return box;
  }
  const table = h("table", { class: "cq-sheet" });
  table.append(h("tr", {}, h("th", { text: "" }), h("th", { text: "Cartes" }), h("th", { text: "Annonces" }),
    h("th", { title: "dix de der : 10 points pour le dernier pli", text: "Der" }), h("th", { text: "Total" })));
  r.totals.forEach((total, seat) => {
    table.append(h("tr", { class: r.winner === seat ? "win" : "" },
      h("th", { text: ctx.names[seat] }), h("td", { text: String(r.card_points[seat]) }),
      h("td", { text: String(r.declared_points[seat]) }),
      h("td", { class: "cq-der", text: r.last_trick_winner === seat ? "10" : "–" }), h("td", { text: String(total) })));
  });
  box.append(table, next);
  return box;
}

export function renderActions(box, legal, ctx) {
  const special = legal.filter((item) => !(item.action.type === "play" && !item.action.declare));
  if (!special.length) return;
  const group = h("div", { class: "action-buttons" });
  for (const item of special) {
    group.append(h("button", { type: "button", class: "button action", text: item.label, dataset: { action: JSON.stringify(item.action) }, onclick: () => ctx.act(item.action) }));
  }
  box.append(h("p", { class: "actions-title", text: "Vous pouvez aussi :" }), group);
}

export function scoreLabel(score) {
  return `${score} partie${score > 1 ? "s" : ""} gagnée${score > 1 ? "s" : ""}`;
}

/** What the match's winner has won, for the end headline (« X gagne la manche »): a partie
 * is one deal, a manche a set of parties, the match one manche or several. */
export function matchWord(view) {
  return view && Number(view.manches_to_win) > 1 ? "le match" : "la manche";
}

/** What the clock counts down to when nobody has to act: between two parties, the next deal. */
/** The status line once the match is over: a Chouine « partie » is one deal. */
export function overText(view) {
  return view && Number(view.manches_to_win) > 1 ? "Match terminé." : "Manche terminée.";
}

export function pauseLabel(view) {
  return view && view.stage === "between" ? "Partie suivante" : "Suite";
}
