// The end of a game, written for whoever reads it: the winner reads « Vous avez gagné ! »,
// the others « Berthe gagne la partie. », rather than the engine's reason (written from the
// winner's side) alone. The reason stays below, as the detail of how the game ended.

/** « Berthe », « Berthe et Marcel », « Berthe, Marcel et Gustave ». */
export function joinNames(list) {
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} et ${list[list.length - 1]}`;
}

/**
 * What the winner of this table won, for the headline: the renderer's hook
 * `matchWord(view, result)` when it has one and it answers (« la manche », « le match »),
 * else « la partie ».
 */
export function matchWord(renderer, view, result) {
  const word = typeof renderer?.matchWord === "function" ? renderer.matchWord(view, result) : null;
  return typeof word === "string" && word.trim() ? word.trim() : "la partie";
}

/** The seats ranked first; a referee (Parlote's fifth seat) neither wins nor loses. */
export function winnersOf(result, arbiter) {
  return result.ranks.map((rank, seat) => ({ rank, seat }))
    .filter(({ rank, seat }) => rank === 1 && seat !== arbiter)
    .map(({ seat }) => seat);
}

/**
 * The headline of the result panel, for the viewer at `seat` (null: a spectator). `what` is
 * what was won, with its article: « la partie » unless the game's renderer says otherwise
 * (`matchWord`, below): a Chouine table plays a manche or a match of several parties.
 */
export function headline(result, seat, names, arbiter, what = "la partie") {
  const winners = winnersOf(result, arbiter);
  if (!winners.length) return "Partie terminée";
  if (seat !== null && winners.includes(seat)) {
    const others = winners.filter((s) => s !== seat).map((s) => names[s]);
    return others.length ? `Vous avez gagné, avec ${joinNames(others)}\u00a0!` : "Vous avez gagné\u00a0!";
  }
  const who = joinNames(winners.map((s) => names[s]));
  return `${who} ${winners.length > 1 ? "gagnent" : "gagne"} ${what}.`;
}

/** Under the headline: where the viewer finished (nothing for winners and spectators).
 * In a team game (the view lists "teams") the partners share their rank by design. */
export function placeLine(result, seat, arbiter, teams) {
  if (seat === null || seat === arbiter || result.ranks[seat] === undefined) return "";
  const rank = result.ranks[seat];
  if (rank === 1) return "";
  if (Array.isArray(teams) && teams.length) return "Votre équipe s'incline.";
  const shared = result.ranks.filter((r, s) => r === rank && s !== arbiter).length > 1;
  return `Vous terminez ${rank}e${shared ? " ex æquo" : ""}.`;
}
