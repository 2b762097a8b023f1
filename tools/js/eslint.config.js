// ESLint's flat config for Gameweave's browser code: the client's pages
// (adapters/gameweave_http/static/js) and every title's renderer (web/*.js), plain
// ES modules the browser runs as they are, with no build step. `make jscheck` runs
// it from the repository's root (the paths below are the repository's).
import js from "@eslint/js";
import globals from "globals";

const ROOT = "../..";

// What the pages' rules forbid, which no stock rule knows: their
// Content-Security-Policy (style-src 'self') refuses style="" attributes, and views
// and history lines are data, so nothing is ever parsed as HTML.
const PAGE_RULES = [
  {
    selector: "CallExpression[callee.name=/^(el|svg)$/] > ObjectExpression > Property[key.name='style']",
    message: "The pages' CSP refuses a style attribute: use a class, or set node.style.* (the CSSOM).",
  },
  {
    selector: "CallExpression[callee.name=/^(el|svg)$/] > ObjectExpression > Property[key.value='style']",
    message: "The pages' CSP refuses a style attribute: use a class, or set node.style.* (the CSSOM).",
  },
  {
    selector: "CallExpression[callee.property.name='setAttribute'][arguments.0.value='style']",
    message: "The pages' CSP refuses a style attribute: use a class, or set node.style.* (the CSSOM).",
  },
  {
    selector: "MemberExpression[property.name=/^(innerHTML|outerHTML)$/]",
    message: "Text goes in through textContent (el() does it): views and history lines are data, never markup.",
  },
  {
    selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|write|writeln)$/]",
    message: "Text goes in through textContent (el() does it): views and history lines are data, never markup.",
  },
];

export default [
  {
    basePath: ROOT,
    // Everything else in the tree is someone else's JavaScript, or Node's.
    ignores: ["**/node_modules/", "**/.venv*/", "**/build/", "docs/_build/", "benchmarks/"],
  },
  {
    basePath: ROOT,
    files: ["adapters/gameweave_http/static/js/*.js", "**/web/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      ...js.configs.recommended.rules,
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",
      "no-restricted-syntax": ["error", ...PAGE_RULES],
      "no-shadow": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
];
