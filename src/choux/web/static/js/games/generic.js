// The interface of any game: the view's simple values, and the legal actions as buttons.
import { h } from "../dom.js";

const HIDDEN_KEYS = new Set(["legal", "actors"]);

function describe(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map(describe).join(" · ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} : ${describe(v)}`).join(", ");
  if (typeof value === "boolean") return value ? "oui" : "non";
  return String(value);
}

export function render(board, view) {
  const list = h("dl", { class: "generic-view" });
  for (const [key, value] of Object.entries(view)) {
    if (HIDDEN_KEYS.has(key)) continue;
    list.append(h("dt", { text: key }), h("dd", { text: describe(value) }));
  }
  board.append(list);
}

export function renderActions(box, legal, ctx) {
  if (!legal.length) return;
  const group = h("div", { class: "action-buttons" });
  for (const item of legal) {
    group.append(h("button", {
      type: "button",
      class: "button action",
      text: item.label,
      dataset: { action: JSON.stringify(item.action) },
      onclick: () => ctx.act(item.action),
    }));
  }
  box.append(h("p", { class: "actions-title", text: "À vous :" }), group);
}
