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

/** Whether the screen is worked by a finger (a mistap is easy, and no hover). */
export function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches;
}

/**
 * A button whose action cannot be undone (a new seat link, a challenge): on a
 * touch screen its first tap only arms it (it then asks `question`, with a Cancel
 * beside it) and the second tap acts; with a mouse one click acts, as the button
 * says. Disarmed again by Cancel, or after a few seconds.
 * @param {HTMLButtonElement} button
 * @param {string} question what the armed button says ("Tap again: ...")
 * @param {() => unknown} action
 * @returns {HTMLButtonElement} the button
 */
export function confirmTap(button, question, action) {
  const label = button.textContent || "";
  const cancel = el("button", { type: "button", class: "confirm-cancel" }, "Cancel");
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const disarm = () => {
    clearTimeout(timer);
    delete button.dataset.armed;
    button.textContent = label;
    cancel.remove();
  };
  cancel.addEventListener("click", disarm);
  button.addEventListener("click", () => {
    if (button.dataset.armed || !touchScreen()) {
      disarm();
      action();
      return;
    }
    button.dataset.armed = "true";
    button.textContent = question;
    button.after(cancel);
    timer = setTimeout(disarm, 8000);
  });
  return button;
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
