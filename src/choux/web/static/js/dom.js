// Tiny DOM helpers. User text always goes through textContent, never innerHTML.

/**
 * French typography for what is shown: the space before « ; ! ? : » and inside guillemets
 * becomes non-breaking (a narrow one before « ; ! ? »), as French printers set it, so that
 * no line starts with one of them; a number stays with the word after it and « à » with
 * the number after it (« 22 points », « 392 à 100 »). Shown text only: attributes and values
 * stay as they are. The server's pages follow the same rule (web/typography.py).
 */
export function french(text) {
  return String(text)
    .replace(/ ([;!?»])/g, "\u202f$1")
    .replace(/ :/g, "\u00a0:")
    .replace(/« /g, "«\u00a0")
    .replace(/(\d) (?=\p{L})/gu, "$1\u00a0")
    .replace(/(^|[\s(])à (?=\d)/gu, "$1à\u00a0");
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = french(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(french(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
}
