// @ts-check
// Small DOM helpers shared by the client's pages and imported by the titles'
// renderers (as /static/js/dom.js). Text always goes in through
// textContent, never innerHTML: views and history lines are data, not markup.

/**
 * A new element: `attrs` become attributes (`class`, `text`, `dataset` and `on<event>`
 * handlers are special; undefined, null and false leave an attribute out), and
 * `children` (nested arrays allowed) are appended, strings as text nodes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * The page's element with this id, of the kind given (HTMLSelectElement, ...). The
 * page's HTML holds it: a missing one is a bug of the page, thrown here at once
 * rather than as a null somewhere later.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T, name: string }} [kind]
 * @returns {T}
 */
export function byId(id, kind) {
  const node = document.getElementById(id);
  if (!node || (kind && !(node instanceof kind))) {
    throw new Error(`this page has no ${kind ? kind.name : "element"} #${id}`);
  }
  return /** @type {T} */ (node);
}

/**
 * Empty `node` and return it.
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/**
 * The message of anything thrown (an Error's message, else its text).
 * @param {unknown} err
 * @returns {string}
 */
export function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Copy `text` to the clipboard; where the clipboard API is refused (it needs a
 * secure context), select `input`'s text and copy that. Whether it worked.
 * @param {string} text
 * @param {HTMLInputElement | null} [input]
 * @returns {Promise<boolean>}
 */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch {
        return false;
      }
    }
    return false;
  }
}
