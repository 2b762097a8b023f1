// @ts-check
// A title's rules in the browser: the topics `rules` shows in a terminal, from
// GET /api/titles/{name}/rules, in a panel opened by a tap (no hover needed).
//
// The play page mounts it by itself (a "Rules" button in the header); the lobby
// calls mountRules() for the title it has selected; renderers may call
// explainChoices() to say what each offered action means.

import { el, clear } from "./dom.js";

const loaded = new Map(); // title name -> Promise of its topics ([] when it has none)
const known = new Map(); // title name -> its topics, once they arrived

/** The title's rules topics, [{name, text}], fetched once per page; [] without rules. */
export function loadRules(title) {
  if (!loaded.has(title)) {
    const found = fetch(`/api/titles/${encodeURIComponent(title)}/rules`, {
      headers: { Accept: "application/json" },
      cache: "no-store",
    })
      .then((r) => (r.ok ? r.json() : { topics: [] }))
      .then((data) => (Array.isArray(data.topics) ? data.topics : []))
      .catch(() => [])
      .then((topics) => {
        known.set(title, topics);
        return topics;
      });
    loaded.set(title, found);
  }
  return loaded.get(title);
}

/** The topics if they have arrived already, else null (and they are on their way). */
export function rulesIfLoaded(title) {
  if (known.has(title)) return known.get(title);
  loadRules(title);
  return null;
}

// -- light Markdown: paragraphs, "- " lists, **bold**, `typed` ---------------------------

/** @typedef {(topic: string) => Node | null} TopicLink */

// `rules crown` (what a terminal types) becomes a button to that topic, when
// `link` makes one for it.
/**
 * @param {string} text
 * @param {TopicLink | null} link
 * @returns {(string | Node)[]}
 */
function inline(text, link) {
  const out = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const token = m[0];
    const typed = /^`rules (\S+)`$/.exec(token);
    const jump = typed && link ? link(typed[1]) : null;
    out.push(jump || (token.startsWith("**") ? el("strong", {}, token.slice(2, -2)) : el("code", {}, token.slice(1, -1))));
    at = m.index + token.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * Light Markdown as DOM nodes (built with textContent: the text is data, never markup).
 * `link(topic)` may return a node to stand for `rules topic`.
 * @param {string} text
 * @param {TopicLink | null} [link]
 * @returns {HTMLElement[]}
 */
export function drawMarkdown(text, link = null) {
  /** @type {(HTMLElement | { items: string[] })[]} */
  const blocks = [];
  /** @type {{ items: string[] } | null} */
  let list = null;
  /** @type {string[] | null} */
  let para = null;
  const flush = () => {
    if (para) blocks.push(el("p", {}, inline(para.join(" "), link)));
    para = null;
  };
  for (const raw of String(text).split("\n")) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      flush();
      list = null;
      continue;
    }
    if (/^\s*- /.test(line)) {
      flush();
      if (!list) {
        list = { items: [] };
        blocks.push(list);
      }
      list.items.push(line.replace(/^\s*- /, ""));
    } else if (list && /^\s+/.test(raw)) {
      list.items[list.items.length - 1] += " " + line.trim(); // a list item's next line
    } else {
      list = null;
      (para = para || []).push(line.trim());
    }
  }
  flush();
  return blocks.map((b) => ("items" in b ? el("ul", {}, b.items.map((item) => el("li", {}, inline(item, link)))) : b));
}

// -- what each offered choice means -----------------------------------------------------

/** A word of a typed form that stands for a value: a word in capitals (`N`,
 *  `SQUARE`), where an example such as `K7` has a digit. */
function isPlaceholder(word) {
  return /^[A-Z]+$/.test(word);
}

/**
 * The list items of an `actions` topic that open with a typed form in backticks:
 * [form's words, what it means], an item's next lines joined to it.
 * @param {string} text
 * @returns {[string[], string][]}
 */
export function actionItems(text) {
  /** @type {[string[], string][]} */
  const items = [];
  /** @type {string[] | null} */
  let item = null;
  const close = () => {
    if (!item) return;
    const m = /^`([^`]+)`:?\s*(.*)$/.exec(item.join(" "));
    if (m) items.push([m[1].trim().split(/\s+/), m[2]]);
  };
  for (const line of String(text).split("\n")) {
    const stripped = line.trim();
    if (/^- `/.test(stripped)) {
      close();
      item = [stripped.slice(2)];
    } else if (item && stripped && /^\s/.test(line)) {
      item.push(stripped);
    } else {
      close();
      item = null;
    }
  }
  close();
  return items;
}

/** Whether `words` is written as `form`: as many words, each the form's own or in place of a placeholder. */
function exact(form, words) {
  return form.length === words.length && form.every((f, i) => isPlaceholder(f) || f.toLowerCase() === words[i].toLowerCase());
}

/** How well `form` explains the choice `words`, as the terminal weighs it: 3 written
 *  as the form; 2 the same first and last word, where the form has three words or
 *  more and ends in a literal word; 1 the same first word; 0 not at all. */
function fit(form, words) {
  if (!form.length || !words.length || form[0].toLowerCase() !== words[0].toLowerCase()) return 0;
  if (exact(form, words)) return 3;
  const last = form[form.length - 1];
  if (form.length >= 3 && /^[a-z]+$/i.test(last) && !isPlaceholder(last)) {
    return words.length > 1 && words[words.length - 1].toLowerCase() === last.toLowerCase() ? 2 : 0;
  }
  return 1;
}

/** Light Markdown's marks left out of a one-line explanation. */
const plain = (text) => text.replace(/\*\*|`/g, "");

/**
 * The explanation of an action label, from the title's `actions` topic: the item
 * that fits it best (one written as the label first: - `guard N SQUARE`: ...), with
 * the label's own values in place of the form's placeholders (words in capitals),
 * as the terminal's first prompts explain the choices.
 * @param {{ name: string, text: string }[] | null} topics
 * @param {string} label
 * @returns {string | null}
 */
export function explainChoice(topics, label) {
  const guide = (topics || []).find((t) => t.name === "actions");
  if (!guide || !label) return null;
  const words = String(label).trim().split(/\s+/);
  let best = 0;
  /** @type {[string[], string] | null} */
  let found = null;
  for (const item of actionItems(guide.text)) {
    const score = fit(item[0], words);
    if (score > best) [best, found] = [score, item];
  }
  if (!found) return null;
  const [form, meaning] = found;
  let said = meaning;
  if (best === 3) {
    form.forEach((f, i) => {
      if (isPlaceholder(f)) said = said.replace(new RegExp(`\\b${f}\\b`, "g"), words[i]);
    });
  }
  return plain(said);
}

// -- the panel ----------------------------------------------------------------------------

/** "tap" on a screen worked by touch (a coarse pointer), "click" elsewhere. */
function tapWord() {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches ? "tap" : "click";
}

/** A rules panel for `title` in `host` (emptied), opened at its first topic.
 *  `onClose` is called by its Close button. */
export async function drawRules(host, title, displayName, onClose) {
  clear(host);
  host.append(el("p", { class: "muted" }, "Loading the rules…"));
  const topics = await loadRules(title);
  clear(host);
  const head = el("div", { class: "rules-head" },
    el("h2", {}, `How to play ${displayName || title}`),
    onClose ? el("button", { type: "button", class: "rules-close", onclick: onClose }, "Close") : null,
  );
  host.append(head);
  if (!topics.length) {
    host.append(el("p", { class: "muted" }, "This game ships no rules text; see its documentation."));
    return;
  }
  const body = el("div", { class: "rules-body", "aria-live": "polite" });
  const tabs = el("div", { class: "rules-topics", role: "tablist", "aria-label": "rules topics" });
  const show = (name) => {
    const topic = topics.find((t) => t.name === name) || topics[0];
    for (const b of tabs.querySelectorAll("button")) {
      const on = b.dataset.topic === topic.name;
      b.classList.toggle("on", on);
      b.setAttribute("aria-selected", String(on));
    }
    body.dataset.topic = topic.name;
    const link = (name) =>
      topics.some((t) => t.name === name)
        ? el("button", { type: "button", class: "rules-link", dataset: { topic: name }, onclick: () => show(name) }, name)
        : null;
    // The actions topic is written as a terminal types the choices; on this page
    // they are buttons and the board, which the note says before the list.
    const onPage =
      topic.name === "actions"
        ? el("p", { class: "rules-on-page" },
            `On this page you choose with the buttons and by ${tapWord() === "tap" ? "tapping" : "clicking"} the board: each button ` +
              "is one of the choices below. What follows says what each does; the short forms " +
              "in code are what you would type to play in a terminal (gameweave play).")
        : null;
    body.replaceChildren(el("h3", {}, topic.name), onPage || "", ...drawMarkdown(topic.text, link));
  };
  for (const t of topics) {
    tabs.append(el("button", { type: "button", role: "tab", class: "rules-topic", dataset: { topic: t.name }, onclick: () => show(t.name) }, t.name));
  }
  host.append(tabs, body);
  show(topics[0].name);
}

/** A "Rules" button that opens (and closes) a rules panel in `panel` for the
 *  title `current()` names ({name, display_name}). */
export function mountRules(button, panel, current) {
  const close = () => {
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
  };
  button.addEventListener("click", async () => {
    if (!panel.hidden) return close();
    const title = current();
    if (!title) return;
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    await drawRules(panel, title.name, title.display_name, close);
    panel.scrollIntoView({ block: "nearest" });
  });
  return close;
}

// The play page: the match's title, read as a spectator would (the rules need no seat).
async function mountOnPlayPage() {
  const button = document.getElementById("rules-button");
  const panel = document.getElementById("rules");
  if (!button || !panel || !location.pathname.startsWith("/play/")) return;
  const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  let title = null;
  try {
    const response = await fetch(`/api/matches/${encodeURIComponent(matchId)}`, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) {
      const p = await response.json();
      title = { name: p.title, display_name: p.display_name };
    }
  } catch {
    title = null;
  }
  if (!title) return;
  mountRules(button, panel, () => title);
  button.hidden = false;
  document.body.dataset.rules = "ready";
}

mountOnPlayPage();
