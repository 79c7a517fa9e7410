// French 32-card deck drawn in CSS: codes like "AH" (rank 789JQKTA, suit SHDC).
import { h } from "./dom.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "pique", H: "cœur", D: "carreau", C: "trèfle" };
const RANKS = { 7: "7", 8: "8", 9: "9", J: "V", Q: "D", K: "R", T: "10", A: "A" };
const RANK_NAMES = { 7: "sept", 8: "huit", 9: "neuf", J: "valet", Q: "dame", K: "roi", T: "dix", A: "as" };
const FACES = { J: "Valet", Q: "Dame", K: "Roi" };

export function cardName(code) {
  const rank = RANK_NAMES[code[0]] || code;
  const suit = SUIT_NAMES[code[1]] || "";
  return `${rank} de ${suit}`;
}

export function cardEl(code, { tag = "div", playable = false, small = false, onclick = null, extraClass = "" } = {}) {
  const rank = RANKS[code[0]] || "?";
  const suit = SUITS[code[1]] || "?";
  const red = code[1] === "H" || code[1] === "D";
  const classes = ["card", red ? "red" : "black"];
  if (small) classes.push("small");
  if (playable) classes.push("playable");
  if (FACES[code[0]]) classes.push("face");
  if (extraClass) classes.push(extraClass);
  const attrs = { class: classes.join(" "), "aria-label": cardName(code), title: cardName(code), dataset: { card: code } };
  if (tag !== "button") attrs.role = "img";  // a label on a plain div needs a role to be read
  if (tag === "button") {
    attrs.type = "button";
    if (!playable) attrs.disabled = true;
    if (onclick) attrs.onclick = onclick;
  }
  return h(tag, attrs,
    h("span", { class: "corner tl", "aria-hidden": "true" }, h("b", { text: rank }), h("i", { text: suit })),
    h("span", { class: "pip", "aria-hidden": "true", text: FACES[code[0]] ? rank : suit }),
    h("span", { class: "corner br", "aria-hidden": "true" }, h("b", { text: rank }), h("i", { text: suit })),
  );
}

export function backEl({ small = false, extraClass = "" } = {}) {
  return h("div", { class: `card back${small ? " small" : ""}${extraClass ? ` ${extraClass}` : ""}`, "aria-hidden": "true" });
}

/** The engine's {pN} placeholders filled with names: one helper for every game (widgets.js). */
export { withNames as fill } from "./widgets.js";
