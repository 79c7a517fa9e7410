// What a screen reader hears at a table: each new line of the game's log (the moves, the
// verdicts, the end), when the turn comes to the viewer, and the result. One polite live
// region (#announcer, visually hidden): the visible log is redrawn whole at each change,
// so it cannot be live itself without being read again from the top.

let queued = [];
let wasMyTurn = false;

function flush() {
  const region = document.getElementById("announcer");
  const lines = queued;
  queued = [];
  if (region && lines.length) region.textContent = lines.join(" ");
}

/** Say these lines (in order, together with any said in the same moment). */
export function announce(lines) {
  const fresh = lines.filter((line) => line && line.trim());
  if (!fresh.length) return;
  if (!queued.length) setTimeout(flush, 0);
  queued.push(...fresh.slice(-4));  // a burst (a whole trick at once) stays short
}

let wasAsked = false;

/** Say `text` when the turn comes to the viewer (not again while it stays theirs). */
export function announceTurn(myTurn, text) {
  if (myTurn && !wasMyTurn) announce([text]);
  wasMyTurn = myTurn;
}

/** Say `text` when the viewer may act without being waited for (an optional « Moi ! »):
 * its own memory, so that it never hides the next real turn (a race, where everyone may
 * shout, swallowed the next roller's « À vous »: a review). */
export function announceAsked(asked, text) {
  const now = asked && Boolean(text && text.trim());
  if (now && !wasAsked) announce([text]);
  wasAsked = now;
}
