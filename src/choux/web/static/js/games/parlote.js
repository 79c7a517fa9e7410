// La parlote coinchée at the table: scenario, bidding, hand, trick with arguments, contests
// and votes, the deal recap and the « mémo ». View keys: src/choux/games/parlote/state.py.
// Arguments and pseudonyms are untrusted: they only ever go through textContent.
import { h } from "../dom.js";
import { byType, clockFor, gameConstants, keepOpen, ofName, pointsText, resetCountdowns, pressButton, secondsLeft, useStylesheet } from "../widgets.js";

useStylesheet("/static/css/games/parlote.css");

const MAX_ARGUMENT = gameConstants().max_argument;  // from the server (Game.client_constants)
const DEADLINE_LABELS = {
  liar: "«\u00a0Moi !\u00a0»", draw: "Choix de la pioche", bidding: "Enchère", play: "Temps pour jouer",
  contest: "Contestation", vote: "Vote", judge: "Arbitrage",
};

// What the player is typing survives the redraws that other players' moves cause.
const draft = { card: null, text: "", deal: null, trick: null };
let bidDraft = { amount: null, first: null, second: null };

function hueOf(view, colourId) {
  const colour = (view.colours || []).find((c) => c.id === colourId);
  return colour ? colour.hue : "#777";
}

function colourName(view, colourId) {
  const colour = (view.colours || []).find((c) => c.id === colourId);
  return colour ? colour.name : colourId;
}

function colourChip(view, colourId) {
  const chip = h("span", { class: "colour-chip", text: colourName(view, colourId) });
  chip.style.setProperty("--hue", hueOf(view, colourId));
  return chip;
}

function teamName(view, team, names) {
  const seats = view.teams[team];
  return `${names[seats[0]]} & ${names[seats[1]]}`;
}

/** « 0 pli », « 1 point », « 2 plis »: in French, 0 and 1 take the singular. */
function plural(count, one, many) {
  return `${count}\u00a0${count > 1 ? many : one}`;
}

function amountText(amount) {
  return amount === 250 ? "Capot" : String(amount);
}

/**
 * The size step of a card's name: a name wraps between its words, never inside one, so a
 * long word (« Généralisation », « Renversement ») takes a smaller size to fit the card.
 */
export function nameSize(name) {
  const longest = Math.max(0, ...String(name).split(/\s+/).map((w) => w.length));
  return longest >= 14 ? " longer" : longest >= 11 ? " long" : "";
}

function card(view, c, opts = {}) {
  const node = h(opts.button ? "button" : "div", {
    class: `pcard depth-${c.depth}${opts.selected ? " selected" : ""}${opts.playable ? " playable" : ""}${c.points !== null && c.points !== undefined && isTrump(view, c) ? " trump" : ""}`,
    type: opts.button ? "button" : undefined,
    dataset: c.code ? { card: c.code } : undefined,
    title: c.definition,
  },
  h("span", { class: "pcard-colour", text: colourName(view, c.colour) }),
  h("span", { class: `pcard-name${nameSize(c.name)}`, text: c.name }),
  h("span", { class: "pcard-meta" }, h("span", { class: "pcard-depth", text: `niveau ${c.depth}` }),
    c.points !== null && c.points !== undefined ? h("span", { class: "pcard-points", text: pointsText(c.points) }) : null));
  node.style.setProperty("--hue", hueOf(view, c.colour));
  if (opts.onclick) node.addEventListener("click", opts.onclick);
  return node;
}

function isTrump(view, c) {
  return !!(view.contract && view.contract.colours.includes(c.colour));
}

// ------------------------------------------------------------------ board

function header(view, ctx) {
  const names = ctx.names;
  const mine = view.team;
  const score = (team) => h("div", { class: `team-score${team === mine ? " mine" : ""}` },
    h("span", { class: "team-names", text: teamName(view, team, names) }),
    h("strong", { text: String(view.scores[team]) }));
  const box = h("header", { class: "parlote-head" },
    h("div", { class: "parlote-phase" },
      h("span", { class: "deal-no", text: view.phase === "over" ? "Fin" : `Manche ${view.deal_number}` }),
      h("span", { text: view.phase_label }),
      view.reader !== null ? h("span", { class: "reader" }, "piocheur : ", h("strong", { text: names[view.reader] })) : null,
      isArbiterSeat(view) ? h("span", { class: "reader arbiter" }, "arbitre : ", h("strong", { text: names[view.arbiter] })) : null),
    h("div", { class: "team-scores" }, score(0), h("span", { class: "vs", text: `objectif ${view.target}` }), score(1)));
  const dl = view.deadline;
  if (dl && ctx.message.status === "live") {
    const timer = clockFor(ctx.message, DEADLINE_LABELS[dl.kind] || "Délai");
    if (timer) box.append(timer);
  }
  return box;
}

/** Arbitre mode with five seats: seat `view.arbiter` referees and holds no cards. */
function isArbiterSeat(view) {
  return view.arbiter !== null && view.arbiter !== undefined;
}

function arbiterNote(view, ctx) {
  if (!isArbiterSeat(view) || ctx.seat !== view.arbiter || view.phase === "over") return null;
  return h("p", { class: "hint arbiter-note", text: "Vous êtes l'arbitre : vous ne jouez pas, vous acceptez ou rejetez chaque argument, celui du piocheur compris." });
}

function scenarioCard(view, ctx) {
  const s = view.scenario;
  if (!s) return null;
  const reader = view.reader === ctx.seat;
  return h("article", { class: "scenario" },
    h("p", { class: "scenario-theme", text: s.theme_name }),
    h("h2", { class: "scenario-title", text: s.title }),
    h("p", { class: "scenario-injonction", text: s.injonction }),
    s.objection ? h("p", { class: "scenario-objection" },
      h("em", { text: s.objection }),
      reader ? h("span", { class: "secret-note", text: "Vous seul·e voyez cette ligne : lisez-la à voix haute quand vous le voulez." }) : null) : null);
}

function piles(view, ctx, groups) {
  const draws = groups.get("piocher") || [];
  const row = h("div", { class: "piles" });
  view.piles.forEach((pile, index) => {
    const item = draws.find((d) => d.action.pile === index);
    const back = h(item ? "button" : "div", { class: `pile${item ? " drawable" : ""}`, type: item ? "button" : undefined, dataset: { pile: index } },
      h("span", { class: "pile-theme", text: pile.theme_name || "pioche vide" }),
      h("span", { class: "pile-count", text: `${pile.count} scénario${pile.count > 1 ? "s" : ""}` }),
      item ? h("span", { class: "pile-hint", text: "Piocher ici" }) : null);
    if (pile.hue) back.style.setProperty("--hue", pile.hue);
    if (item) back.addEventListener("click", () => ctx.act(item.action));
    row.append(back);
  });
  const who = view.reader === ctx.seat ? "Choisissez la pioche du scénario." : `${ctx.names[view.reader]} choisit une pioche.`;
  return h("section", { class: "panel-dark" }, h("p", { class: "hint", text: who }), row);
}

function biddingPanel(view, ctx) {
  const names = ctx.names;
  const b = view.bidding;
  const list = h("ol", { class: "bid-history" });
  for (const entry of b.history) {
    const text = entry.kind === "pass" ? "passe" : entry.kind === "coinche" ? "«\u00a0Je coinche !\u00a0»" : null;
    list.append(h("li", { class: `bid-${entry.kind}` }, h("strong", { text: names[entry.seat] }), " ",
      text ? text : h("span", {}, amountText(entry.amount), " · ", colourChip(view, entry.colours[0]), colourChip(view, entry.colours[1]))));
  }
  if (!b.history.length) list.append(h("li", { class: "empty", text: "Aucune annonce pour l'instant." }));
  const high = b.high ? h("p", { class: "bid-high" }, "Plus forte annonce : ", h("strong", { text: `${amountText(b.high.amount)} par ${names[b.high.seat]}` })) : null;
  const turn = b.turn !== null && b.turn !== undefined ? h("p", { class: "hint", text: b.turn === ctx.seat ? biddingTurnText(view) : `${names[b.turn]} réfléchit…` }) : null;
  return h("section", { class: "bidding panel-dark" }, h("h3", { text: "Enchères" }), high, list, turn);
}

function contractLine(view, ctx) {
  const c = view.contract;
  if (!c) return null;
  return h("p", { class: `contract${c.coinched ? " coinched" : ""}` },
    "Contrat : ", h("strong", { text: `${c.capot ? "Capot" : c.amount}` }), ` par ${ctx.names[c.seat]} · atouts `,
    colourChip(view, c.colours[0]), colourChip(view, c.colours[1]),
    c.coinched ? h("span", { class: "coinche-badge", text: `coinché par ${ctx.names[c.coinched_by]} · ×2` }) : null);
}

function cardLine(view, c) {
  const line = h("span", { class: `card-line${isTrump(view, c) ? " trump" : ""}`, title: c.definition },
    h("span", { class: "card-line-colour", text: colourName(view, c.colour) }),
    h("strong", { class: "card-line-name", text: c.name }),
    h("span", { class: "card-line-depth", text: `niveau ${c.depth}${isTrump(view, c) ? " · atout" : ""}` }));
  line.style.setProperty("--hue", hueOf(view, c.colour));
  return line;
}

/** Votes are secret while their vote is open: the view sends only how many were cast. */
function ballotText(p) {
  if ((p.votes || []).length || p.status !== "pending" || !p.votes_cast) return "";
  return ` · vote secret : ${p.votes_cast} voix sur 3`;
}

function playRow(view, p, ctx, winner) {
  const votes = (p.votes || []).map(([seat, counts]) => `${ctx.names[seat]} : ${counts ? "compte" : "ne compte pas"}`);
  return h("li", { class: `play status-${p.status}${winner === p.seat ? " won" : ""}`, dataset: { seat: p.seat } },
    h("div", { class: "play-head" }, h("span", { class: "play-who", text: ctx.names[p.seat] }), cardLine(view, p.card)),
    p.argument ? h("blockquote", { class: "argument", text: p.argument }) : h("p", { class: "no-argument", text: "sans argument" }),
    // a card without an argument has no status to add: « sans argument » was said twice
    !p.argument && p.status === "none" ? null : h("p", { class: "status-label" }, h("span", { text: p.status_label }),
      p.contester !== null && p.contester !== undefined ? ` · contesté par ${ctx.names[p.contester]}` : "",
      p.judge !== null && p.judge !== undefined ? ` · jugé par ${ctx.names[p.judge]}` : "",
      votes.length ? ` · ${votes.join(", ")}` : "", ballotText(p)));
}

function trickArea(view, ctx) {
  const t = view.trick;
  if (!t) return null;
  const list = h("ol", { class: "trick-plays" });
  for (const p of t.plays) list.append(playRow(view, p, ctx, null));
  if (!t.plays.length) list.append(h("li", { class: "empty", text: `${ctx.names[t.leader]} entame le pli.` }));
  // each team by its names, as in the score box: « 0 – 0 » did not say which was which
  const teamLine = (team) => h("li", { class: `trick-team${team === view.team ? " mine" : ""}` },
    h("strong", { text: teamName(view, team, ctx.names) }), " : ",
    plural(view.tricks_won[team], "pli", "plis"), " · ", plural(view.deal_points[team], "point", "points"),
    view.mode === "jury" ? ` · ${plural(view.contests_left[team], "contestation restante", "contestations restantes")}` : "");
  const info = h("div", { class: "trick-info" }, h("p", { text: `Pli ${t.number} sur 7` }),
    h("ul", { class: "trick-teams" }, teamLine(0), teamLine(1)));
  return h("section", { class: "trick panel-dark" }, h("h3", { text: "Le pli" }), info, list);
}

let shownWindow = "";

function windowBanner(view, ctx) {
  const w = view.window;
  if (!w) return null;
  const names = ctx.names;
  const author = names[w.author];
  const text = {
    contest: `${author} a argumenté : les adversaires peuvent contester.`,
    vote: view.mode === "arbitre"
      ? `${author} pioche cette manche et ne juge pas son propre argument : les trois autres votent, en secret.`
      : `Argument ${ofName(author)} contesté : les trois autres votent, en secret.`,
    judge: w.eligible.length && w.eligible[0] === ctx.seat
      ? `À vous d'arbitrer : l'argument ${ofName(author)} compte-t-il ?`
      : `${w.eligible.length ? names[w.eligible[0]] : "L'arbitre"} arbitre : l'argument ${ofName(author)} compte-t-il ?`,
  }[w.kind];
  const left = view.mode === "jury" ? h("p", { class: "contests-left", text: `Contestations restantes : ${teamName(view, 0, names)} ${view.contests_left[0]}, ${teamName(view, 1, names)} ${view.contests_left[1]}` }) : null;
  const key = `${view.deal_number}:${view.trick ? view.trick.number : 0}:${w.author}:${w.kind}`;
  const fresh = key !== shownWindow;
  shownWindow = key;
  return h("section", { class: `window-banner kind-${w.kind}${fresh ? " fresh" : ""}`, role: "status" },
    h("p", { class: "banner-title", text }),
    w.play.argument ? h("blockquote", { class: "argument", text: w.play.argument }) : null,
    h("p", { class: "banner-card" }, "Carte : ", h("strong", { text: w.play.card.name }), ` — ${w.play.card.definition}`),
    votedNote(view, ctx), left);
}

/** After voting, the voter waits: their vote (like the others') shows when the vote closes. */
function votedNote(view, ctx) {
  const w = view.window;
  if (w.kind !== "vote" || ctx.seat === null || ctx.seat === undefined || ctx.seat === w.author) return null;
  if (w.eligible.includes(ctx.seat) || ctx.seat >= 4) return null;
  return h("p", { class: "hint voted-note", text: `Vous avez voté. Les voix restent secrètes jusqu'à la clôture (${w.play.votes_cast} sur 3).` });
}

function lastTrick(view, ctx) {
  const t = view.last_trick;
  if (!t || view.phase !== "play") return null;
  const list = h("ol", { class: "trick-plays compact" });
  for (const p of t.plays) list.append(playRow(view, p, ctx, t.winner));
  return keepOpen(h("details", { class: "last-trick panel-dark" },
    h("summary", {}, "Dernier pli : ", h("strong", { text: ctx.names[t.winner] }), ` l'emporte (${pointsText(t.points)})`),
    t.why ? h("p", { class: "hint", text: t.why }) : null, list), "last-trick");
}

function recapPanel(view, ctx) {
  const r = view.recap;
  if (!r) return null;
  const names = ctx.names;
  const tricks = h("ol", { class: "recap-tricks" });
  for (const t of r.tricks) {
    const plays = h("ul", { class: "recap-plays" });
    for (const p of t.plays) {
      const votes = p.votes.map((v) => `${names[v.seat]} ${v.counts ? "pour" : "contre"}`).join(", ");
      const colour = h("span", { class: "colour-chip", text: p.card.colour_name });
      colour.style.setProperty("--hue", hueOf(view, p.card.colour));
      plays.append(h("li", { class: p.won ? "won" : "" },
        h("div", { class: "recap-line" }, h("strong", { text: names[p.seat] }), " joue ", colour,
          // a colour's own card (depth 1) bears its name: the chip says it once
          p.card.name === p.card.colour_name ? null : h("strong", { text: ` ${p.card.name}` }),
          ` (niveau ${p.card.depth}${p.card.trump ? ", atout" : ""})`, p.won ? h("span", { class: "won-badge", text: "remporte le pli" }) : null),
        p.argument ? h("blockquote", { class: "argument", text: p.argument }) : null,
        h("p", { class: "recap-status", text: `${p.status_label}${p.contester !== null && p.contester !== undefined ? ` · contesté par ${names[p.contester]}` : ""}${p.judge !== null && p.judge !== undefined ? ` · jugé par ${names[p.judge]}` : ""}${votes ? ` · votes : ${votes}` : ""}` }),
        h("p", { class: "recap-def" }, h("em", { text: p.card.definition }), " ", h("span", { class: "example", text: p.card.example }))));
    }
    tricks.append(h("li", {}, h("h4", { text: `Pli ${t.number} : ${names[t.winner]} (${pointsText(t.points)})` }), t.why ? h("p", { class: "hint", text: t.why }) : null, plays));
  }
  const s = r.scenario;
  return keepOpen(h("details", { class: "recap panel", open: view.phase === "over" || view.phase === "draw" || undefined },
    h("summary", { text: `Récapitulatif de la manche ${r.deal} : ${r.made ? "contrat réussi" : "contrat chuté"}` }),
    h("p", { class: "recap-summary", text: r.summary }),
    h("p", {}, h("strong", { text: s.title }), ` — ${s.injonction} `, h("em", { text: s.objection })),
    // each team by its names: « 80 – 76 » did not say which was which
    h("ul", { class: "recap-teams" }, [0, 1].map((team) => h("li", {},
      h("strong", { text: teamName(view, team, names) }),
      ` : ${plural(r.points[team], "point", "points")} de cartes · ${plural(r.deal_scores[team], "point marqué", "points marqués")} · total ${r.totals[team]}`))),
    tricks), `recap-${r.deal}-${view.phase === "over"}`);
}

function memoPanel(view) {
  const panel = keepOpen(h("details", { class: "memo panel" }, h("summary", { text: "Mémo : les sept couleurs et leurs arbres" })), "memo");
  const tree = (nodes) => h("ul", { class: "memo-tree" }, nodes.map((n) => h("li", { class: n.in_play ? "in-play" : "" },
    h("span", { class: "memo-name", text: `${n.name}` }), h("span", { class: "memo-depth", text: ` · niveau ${n.depth}` }),
    h("span", { class: "memo-def", text: ` — ${n.definition}` }),
    n.children && n.children.length ? tree(n.children) : null)));
  for (const entry of view.memo || []) {
    const head = h("h4", { text: entry.name });
    head.style.setProperty("--hue", entry.hue);
    panel.append(h("section", { class: "memo-colour" }, head, h("p", { class: "hint", text: entry.summary }), tree(entry.tree)));
  }
  panel.append(h("p", { class: "hint", text: "En gras : les cartes de cette partie. Atout : la plus basse profondeur gagne ; sinon la plus profonde." }));
  return panel;
}

function resultsTable(view, ctx) {
  if (!view.results || !view.results.length) return null;
  const rows = view.results.map((r) => h("tr", {},
    h("td", { text: String(r.deal) }), h("td", { text: r.scenario }),
    h("td", { text: r.contract ? `${amountText(r.contract.amount)}${r.contract.coinched ? " coinché" : ""}` : "—" }),
    h("td", { text: r.made ? "réussi" : "chuté" }), h("td", { text: `${r.scores[0]} – ${r.scores[1]}` })));
  return keepOpen(h("details", { class: "results panel" }, h("summary", { text: "Les manches jouées" }),
    h("table", {}, h("thead", {}, h("tr", {}, ["Manche", "Scénario", "Contrat", "", "Scores"].map((t) => h("th", { text: t })))), h("tbody", {}, rows))), "results");
}

/** A decision of the viewer that sits in the dock: a window's verdict (contest, vote, judge). */
const WINDOW_ACTIONS = ["contester", "laisser", "voter", "arbitrer"];

function decidesWindow(view, ctx) {
  return ctx.message.status === "live" && (view.legal || []).some((l) => WINDOW_ACTIONS.includes(l.action.type));
}

/** The replay page draws views without a live message: give it a quiet one. */
function normalise(ctx, view) {
  if (ctx.message) return ctx;
  return { ...ctx, message: { view, status: "replay", log: [], deadline: null, version: -1, full: true } };
}

/** The status line's words when the viewer acts, from what they may do right now. */
/** Whom the table waits for: while bidding, the bidder whose turn it is (the other team
 * may coinche at any moment, but nobody waits for that: « À Alice et Marcel de jouer »);
 * nobody before the first deal, where « Moi ! » is optional and the clock decides. */
export function waitingOn(view) {
  if (view.phase === "liar") return [];
  if (view.phase === "bidding" && view.bidding && view.bidding.turn !== null && view.bidding.turn !== undefined) {
    return [view.bidding.turn];
  }
  return view.actors;
}

/** News worth a toast: four passes redeal the cards (the hand changed under the players'
 * eyes with only a log line to say why). */
export function news(before, view) {
  const redeals = (v) => (v && v.bidding && v.bidding.redeals) || 0;
  if (before && view && redeals(view) > redeals(before)) {
    return "Quatre passes : les cartes sont redistribuées, le même joueur pioche.";
  }
  return null;
}

/** The status line when nobody is waited for and the viewer has nothing to do (the
 * arbiter has no « Moi ! » to say). */
export function phaseText(view, seat) {
  if (view.phase !== "liar") return null;
  return seat !== null && seat === view.arbiter
    ? "Qui a menti en dernier ? Les joueurs peuvent dire « Moi ! »."
    : "Qui a menti en dernier ? Chacun peut dire « Moi ! ».";
}

/** A free place as the join form offers it: with whom it plays (« Place 3 · avec
 * Gisèle »), or as the arbiter; a newcomer could not tell the teams apart. */
export function seatLabel(view, seat, seats) {
  const place = `Place ${seat + 1}`;
  if (isArbiterSeat(view) && seat === view.arbiter) return `${place} · arbitre`;
  const team = (view.teams || []).findIndex((members) => members.includes(seat));
  if (team < 0) return place;
  const partner = view.teams[team].find((s) => s !== seat);
  const taken = seats[partner] && seats[partner].kind !== "open";
  return taken ? `${place} · avec ${seats[partner].name}` : `${place} · équipe ${team + 1}`;
}

/** The status line while others decide (`who`: their names): what they decide, where
 * « de jouer » said a card was awaited during a contest, a vote or an arbitration. */
export function waitingText(view, who) {
  const kind = view.window && view.window.kind;
  if (kind === "contest") return `À ${who} de décider : contester ou laisser passer.`;
  if (kind === "vote") return `À ${who} de voter.`;
  if (kind === "judge") return `À ${who} d'arbitrer.`;
  if (view.phase === "bidding") return `À ${who} d'annoncer.`;
  if (view.phase === "draw") return `À ${who} de piocher.`;
  return null;
}

export function statusText(view, seat) {
  const can = new Set((view.legal || []).map((l) => l.action.type));
  if (can.has("moi") || view.phase === "liar") return "Qui a menti en dernier ?";
  if (can.has("piocher")) return "À vous de piocher !";
  if (can.has("contester")) return "À vous : contester ?";
  if (can.has("voter")) return "À vous de voter !";
  if (can.has("arbitrer")) return "À vous d'arbitrer !";
  const b = view.bidding;
  if (b && b.turn === seat && can.has("encherir")) return "À vous d'annoncer !";
  if (b && b.turn === seat && can.has("passer")) return can.has("coincher") ? "À vous : passer ou coincher ?" : "À vous de passer.";
  // someone else's bid: the viewer may only say « je coinche »
  if (can.has("coincher")) return "Vous pouvez coincher !";
  return null;
}

export function render(board, view, ctx) {
  ctx = normalise(ctx, view);
  resetCountdowns();
  // the actions box is redrawn after the board: remember whether the player was typing
  const active = document.activeElement;
  if (active && active.matches && active.matches("textarea[name=argument]")) draft.focused = true;
  const groups = byType(view.legal);
  const root = h("div", { class: `parlote${isArbiterSeat(view) && ctx.seat === view.arbiter ? " as-arbiter" : ""}` }, header(view, ctx));
  const note = arbiterNote(view, ctx);
  if (note) root.append(note);
  if (view.phase === "liar") {
    root.append(h("section", { class: "panel-dark liar" },
      h("p", { class: "big-question", text: "Qui a menti en dernier ? Le premier piocheur est tiré parmi les «\u00a0moi !\u00a0»." }),
      h("p", { class: "hint", text: view.claims.length ? `Ont dit «\u00a0moi !\u00a0» : ${view.claims.map((s) => ctx.names[s]).join(", ")}` : "Personne pour l'instant." })));
  }
  if (view.phase === "draw") root.append(piles(view, ctx, groups));
  const parts = [
    scenarioCard(view, ctx),
    contractLine(view, ctx),
    view.phase === "bidding" ? biddingPanel(view, ctx) : null,
    // the viewer who must decide reads the argument in the dock, next to the buttons
    decidesWindow(view, ctx) ? null : windowBanner(view, ctx),
    trickArea(view, ctx),
    lastTrick(view, ctx),
    // while the viewer bids, their hand is in the dock (on screen): not twice
    view.hand && view.hand.length && view.phase !== "play" && !bidsNow(view, ctx)
      ? h("section", { class: "hand-preview panel-dark" }, h("h3", { text: "Votre main" }), h("div", { class: "hand" }, view.hand.map((c) => card(view, c))))
      : null,
  ];
  if (ctx.replay) parts.push(recapPanel(view, ctx), resultsTable(view, ctx));
  for (const part of parts) if (part) root.append(part);
  board.append(root);
}

// ------------------------------------------------------------------ actions
//
// A decision with a clock (« moi ! », bidding and coinche, contest, vote, arbiter's verdict)
// sits in a dock fixed at the bottom of the screen: on screen at once, with its countdown,
// whatever the length of the scenario and the trick above. Playing a card is not docked: the
// argument is typed in a textarea, and a phone's keyboard would hide a fixed dock (and its
// textarea) for good; choosing a card scrolls the argument form into view instead, the hand
// just above it.

function bidControls(view, groups, ctx) {
  const bids = groups.get("encherir") || [];
  const press = (type, cls, text) => (groups.get(type) || []).map((item) =>
    pressButton({ class: `button ${cls}`, dataset: { action: type } }, () => ctx.act(item.action), text));
  const others = [...press("passer", "pass", "Passer"), ...press("coincher", "coinche", "Je coinche !")];
  if (!bids.length) return h("div", { class: "decision-row" }, others);
  const amounts = [...new Set(bids.map((b) => b.action.amount))];
  if (!amounts.includes(bidDraft.amount)) bidDraft.amount = amounts[0];
  const amount = h("select", { name: "amount", "aria-label": "Montant" }, amounts.map((a) => h("option", { value: String(a), text: amountText(a), selected: a === bidDraft.amount || undefined })));
  amount.addEventListener("change", () => { bidDraft.amount = Number(amount.value); });
  const colours = view.colours.map((c) => c.id);
  if (!colours.includes(bidDraft.first)) bidDraft.first = colours[0];
  if (!colours.includes(bidDraft.second) || bidDraft.second === bidDraft.first) bidDraft.second = colours.find((c) => c !== bidDraft.first);
  // the second trump is one of the six other colours: the first one is not offered twice
  const first = h("select", { name: "first", "aria-label": "Premier atout" }, view.colours.map((c) => h("option", { value: c.id, text: c.name, selected: c.id === bidDraft.first || undefined })));
  const second = h("select", { name: "second", "aria-label": "Second atout" });
  const fillSecond = () => {
    if (bidDraft.second === bidDraft.first) bidDraft.second = colours.find((c) => c !== bidDraft.first);
    second.replaceChildren(...view.colours.filter((c) => c.id !== bidDraft.first).map((c) => h("option", { value: c.id, text: c.name, selected: c.id === bidDraft.second || undefined })));
    second.value = bidDraft.second;
  };
  fillSecond();
  first.addEventListener("change", () => { bidDraft.first = first.value; fillSecond(); });
  second.addEventListener("change", () => { bidDraft.second = second.value; });
  // one grid: the amount and the two trumps, then « Annoncer », « Passer » (and « Je coinche ! »)
  const form = h("form", { class: "bid-form" }, amount, first, second,
    h("button", { class: "button primary", type: "submit", text: "Annoncer" }), ...others);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const pair = [bidDraft.first, bidDraft.second].sort((a, b) => colours.indexOf(a) - colours.indexOf(b));
    ctx.act({ type: "encherir", amount: bidDraft.amount, colours: pair });
  });
  return form;
}

/** The bidder's invitation: to bid (or pass), or, when nothing beats the bid (a capot),
 * only to pass or coinche; `more` follows an invitation to bid. */
function biddingTurnText(view, more = "") {
  const can = new Set((view.legal || []).map((l) => l.action.type));
  if (can.has("encherir")) return `À vous d'annoncer (ou de passer).${more}`;
  const top = view.bidding && view.bidding.high && amountText(view.bidding.high.amount) === "Capot" ? "un capot" : "cette annonce";
  return can.has("coincher")
    ? `Rien ne bat ${top} : passez, ou coinchez (×2).`
    : `Rien ne bat ${top} : à vous de passer.`;
}

/** What the bidder or coincher must know to decide: the bid to beat, and whose it is. */
function bidSituation(view, ctx) {
  const b = view.bidding;
  const high = b && b.high
    ? h("p", { class: "dock-title" }, "À battre : ", h("strong", { text: amountText(b.high.amount) }), " ",
      colourChip(view, b.high.colours[0]), colourChip(view, b.high.colours[1]), ` par ${ctx.names[b.high.seat]}`)
    : h("p", { class: "dock-title", text: "Aucune annonce pour l'instant : à vous d'ouvrir." });
  const mine = b && b.turn === ctx.seat;
  const turn = mine ? biddingTurnText(view, " Deux couleurs d'atout : la carte d'atout la moins profonde bat tout.")
    : b && b.turn !== null && b.turn !== undefined ? `${ctx.names[b.turn]} réfléchit : vous pouvez coincher (×2).` : "";
  return [high, turn ? h("p", { class: "hint", text: turn }) : null];
}

/** The hand, small, in the bidding dock: the player sees their cards while bidding. */
function dockHand(view) {
  if (!view.hand || !view.hand.length) return null;
  const row = h("ul", { class: "dock-hand", "aria-label": "Votre main", tabindex: "0" }, view.hand.map((c) => {
    const item = h("li", { class: "mini-card", title: c.definition },
      h("span", { class: "mini-colour", text: colourName(view, c.colour) }),
      h("span", { class: `mini-name${nameSize(c.name)}`, text: c.name }),
      h("span", { class: "mini-depth", text: `niveau ${c.depth}` }));
    item.style.setProperty("--hue", hueOf(view, c.colour));
    return item;
  }));
  return [h("p", { class: "dock-hand-title", text: "Votre main" }), row];
}

/** Whether the viewer bids or may coinche now: the bidding dock, with their hand, shows. */
function bidsNow(view, ctx) {
  return ctx.message.status === "live" && (view.legal || []).some((l) => ["encherir", "passer", "coincher"].includes(l.action.type));
}

/** A new trick, or the chosen card gone from the hand: no card chosen any more. */
function syncDraft(view) {
  const key = `${view.deal_number}:${view.trick ? view.trick.number : 0}`;
  if (draft.trick !== key) { draft.trick = key; draft.card = null; }
  if (draft.card && !(view.hand || []).some((c) => c.code === draft.card)) draft.card = null;
}

function handControls(view, groups, ctx) {
  const plays = groups.get("jouer") || [];
  const playable = new Set(plays.map((p) => p.action.card));
  const box = h("section", { class: "hand-panel action-panel", id: "parlote-hand" }, h("h3", { text: plays.length ? "À vous : choisissez une carte, puis argumentez" : "Votre main" }));
  const hand = h("div", { class: "hand" });
  for (const c of view.hand) {
    hand.append(card(view, c, {
      button: true, playable: playable.has(c.code), selected: c.code === draft.card,
      onclick: () => { if (!playable.has(c.code)) return; draft.card = c.code; draft.focused = true; draft.reveal = true; redraw(); },
    }));
  }
  box.append(hand);
  if (plays.length && draft.card) {
    const chosen = view.hand.find((c) => c.code === draft.card);
    const counter = h("span", { class: "counter" });
    const area = h("textarea", { name: "argument", rows: "3", placeholder: `Un argument qui illustre «\u00a0${chosen.name}\u00a0» pour convaincre… (${MAX_ARGUMENT} caractères au plus)`, "aria-label": "Votre argument" });
    area.value = draft.text;
    const sync = () => {
      draft.text = area.value;
      const length = argumentLength(area.value);
      counter.textContent = `${length} / ${MAX_ARGUMENT}`;
      counter.classList.toggle("over", length > MAX_ARGUMENT);
    };
    area.addEventListener("input", sync);
    sync();
    const clock = ctx.message.status === "live" ? clockFor(ctx.message, "Temps pour jouer") : null;
    // an argument typed and not sent is lost when the clock runs out (the card goes without
    // it): say so in time, right under the text the player is writing
    const hurry = h("p", { class: "hurry", role: "status", hidden: true, text: "Plus que quelques secondes : envoyez votre argument, sinon la carte partira sans lui." });
    const form = h("form", { class: "argument-form" }, clock,
      h("p", { class: "chosen" }, "Carte choisie : ", h("strong", { text: chosen.name }), h("span", { class: "hint", text: ` — ${chosen.definition}` })),
      h("p", { class: "example-line", text: `Exemple : ${chosen.example}` }),
      area, hurry,
      h("div", { class: "argument-row" }, counter,
        view.argument_required ? null : h("button", { class: "button", type: "button", text: "Jouer sans argument", onclick: () => send("") }),
        h("button", { class: "button primary", type: "submit", text: "Jouer la carte" })));
    const send = (text) => {
      // refused here, the draft kept: a pasted article was also too long for the socket's
      // message, which the server refused whole (and the move went on being sent again)
      const length = argumentLength(text);
      if (length > MAX_ARGUMENT) {
        ctx.notice(`Argument trop long : ${length} caractères, ${MAX_ARGUMENT} au plus.`);
        return;
      }
      ctx.act({ type: "jouer", card: draft.card, argument: text });
    };
    form.addEventListener("submit", (event) => { event.preventDefault(); send(area.value); });
    if (clock) {
      const watch = setInterval(() => {
        if (!form.isConnected) { clearInterval(watch); return; }
        const left = secondsLeft(ctx.message);
        hurry.hidden = !(left !== null && left <= HURRY_SECONDS && area.value.trim());
      }, 500);
    }
    box.append(form);
    // a card just chosen: bring its form on screen (its whole height, the hand just above)
    const reveal = draft.reveal;
    draft.reveal = false;
    if (draft.focused || reveal) {
      draft.focused = false;
      requestAnimationFrame(() => {
        if (reveal) form.scrollIntoView({ block: "nearest" });
        area.focus({ preventScroll: true });
        area.setSelectionRange(area.value.length, area.value.length);
      });
    }
  }
  return box;
}

/** An argument's length as the server counts it (`rules.clean_argument`): characters, not
 * UTF-16 units (an emoji is one), control and direction marks left out, spaces around
 * trimmed. */
function argumentLength(text) {
  const kept = text.replace(/[\n\r\t]/g, " ")
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "");
  return [...kept.trim()].length;
}

let redraw = () => {};
/** Seconds left on the play clock when a typed, unsent argument gets its warning. */
const HURRY_SECONDS = 10;

function windowControls(view, groups, ctx) {
  const row = h("div", { class: "decision-row pair" });
  const items = WINDOW_ACTIONS.flatMap((type) => groups.get(type) || []);
  for (const item of items) {
    const a = item.action;
    const cls = a.type === "contester" || (a.counts === false) ? "button against" : a.type === "laisser" ? "button" : "button primary";
    row.append(pressButton({ class: cls, dataset: a.counts === undefined ? { action: a.type } : { action: a.type, counts: String(a.counts) } }, () => ctx.act(a), item.label));
  }
  return row;
}

/** The dock: its clock, what to read (it scrolls if long), then the buttons, always shown. */
function dock(kind, ctx, label, reading, controls) {
  const clock = ctx.message.status === "live" ? clockFor(ctx.message, label) : null;
  const body = reading.filter(Boolean);
  return h("section", { class: `parlote-dock dock-${kind}`, dataset: { dock: kind }, "aria-label": "À vous de décider" },
    clock ? h("div", { class: "dock-clock" }, clock) : null,
    body.length ? h("div", { class: "dock-reading" }, body) : null,
    h("div", { class: "dock-controls" }, controls));
}

function decisionDock(view, groups, ctx) {
  if (groups.has("moi")) {
    return dock("moi", ctx, DEADLINE_LABELS.liar, [],
      pressButton({ class: "button primary big", dataset: { action: "moi" } }, () => ctx.act(groups.get("moi")[0].action), "Moi ! C'est moi qui ai menti en dernier"));
  }
  if (groups.has("encherir") || groups.has("passer") || groups.has("coincher")) {
    return dock("bidding", ctx, DEADLINE_LABELS.bidding, [...bidSituation(view, ctx), ...(dockHand(view) || [])], bidControls(view, groups, ctx));
  }
  if (WINDOW_ACTIONS.some((type) => groups.has(type)) && view.window) {
    return dock("window", ctx, DEADLINE_LABELS[view.window.kind] || "Délai",
      [windowBanner(view, ctx)],
      windowControls(view, groups, ctx));
  }
  if (groups.has("jouer") && !draft.card) {
    // the hand is below the trick: the clock stays in sight, one tap goes to the cards
    const go = h("button", { class: "button primary", type: "button", dataset: { action: "voir-main" }, text: "Choisir ma carte ↓" });
    go.addEventListener("click", () => document.getElementById("parlote-hand")?.scrollIntoView({ behavior: "smooth", block: "start" }));
    return dock("play", ctx, DEADLINE_LABELS.play, [], h("div", { class: "decision-row play-row" }, h("p", { class: "dock-title", text: "À vous de jouer." }), go));
  }
  return null;
}

/**
 * The page keeps room below the table for the dock (--parlote-dock-h), and on a wide screen
 * the dock spans the table's column, not the log beside it (--parlote-dock-left / -width).
 */
let dockWatch = null;
let dockNode = null;
/** A long argument scrolls inside the dock: its bottom fades until it is read to the end. */
function markOverflow(reading) {
  const more = reading.scrollHeight - reading.scrollTop - reading.clientHeight > 2;
  reading.classList.toggle("has-more", more);
}

function placeDock() {
  const root = document.documentElement;
  const live = dockNode && dockNode.isConnected;
  const reading = live ? dockNode.querySelector(".dock-reading") : null;
  if (reading) {
    markOverflow(reading);
    if (!reading.dataset.watched) {
      reading.dataset.watched = "1";
      reading.addEventListener("scroll", () => markOverflow(reading), { passive: true });
    }
  }
  root.style.setProperty("--parlote-dock-h", live ? `${Math.ceil(dockNode.getBoundingClientRect().height)}px` : "0px");
  const column = document.querySelector(".table-main");
  if (live && column) {
    const r = column.getBoundingClientRect();
    root.style.setProperty("--parlote-dock-left", `${Math.round(r.left)}px`);
    root.style.setProperty("--parlote-dock-width", `${Math.round(r.width)}px`);
  }
}
function watchDock(node) {
  dockNode = node;
  if (typeof ResizeObserver !== "undefined") {
    if (!dockWatch) {
      dockWatch = new ResizeObserver(placeDock);
      window.addEventListener("resize", placeDock);
    }
    dockWatch.disconnect();
    if (node) dockWatch.observe(node);
  }
  placeDock();
}

/** What the page brings into view when the turn comes (table.js): nothing while a decision
 * sits in the docked panel (it is on screen already), else the hand to play from. */
export function turnArea() {
  if (document.querySelector(".parlote-dock")) return null;
  return document.getElementById("parlote-hand");
}

export function renderActions(box, legal, ctx) {
  if (!ctx.message) return;
  const view = ctx.message.view;
  const groups = byType(legal);
  redraw = () => { box.replaceChildren(); renderActions(box, legal, ctx); };
  syncDraft(view);
  const docked = decisionDock(view, groups, ctx);
  if (docked) box.append(docked);
  watchDock(docked);
  if (view.phase === "play" && view.hand && view.hand.length) box.append(handControls(view, groups, ctx));
  // the long reading comes after what the player must decide
  const wrap = h("div", { class: "parlote parlote-reading" });
  for (const part of [recapPanel(view, ctx), resultsTable(view, ctx), memoPanel(view)]) if (part) wrap.append(part);
  box.append(wrap);
}
