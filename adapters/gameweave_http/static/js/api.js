// @ts-check
// Calls to the JSON API. Every refusal arrives as {"error": "..."}; it is thrown
// as an ApiError carrying that one line and the HTTP status.

import { messageOf } from "./dom.js";

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: the server could not be reached)
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * One call of the API: its JSON answer, or an ApiError with the server's one line.
 * @param {string} method
 * @param {string} url
 * @param {{ body?: unknown, token?: string | null, host?: string | null }} [options]
 * @returns {Promise<any>}
 */
async function call(method, url, { body, token, host } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  if (host) headers["X-Host-Token"] = host;
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch (err) {
    throw new ApiError(0, `cannot reach the server (${messageOf(err)})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && typeof data.error === "string" ? data.error : `HTTP ${response.status}`;
    throw new ApiError(response.status, message);
  }
  return data;
}

export const api = {
  titles: () => call("GET", "/api/titles"),
  server: () => call("GET", "/api/server"),
  matches: () => call("GET", "/api/matches"),
  create: (body) => call("POST", "/api/matches", { body }),
  read: (id, token) => call("GET", `/api/matches/${encodeURIComponent(id)}`, { token }),
  act: (id, token, version, action) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/actions`, {
      token,
      body: { version, action },
    }),
  // A new link for a seat of a match this browser created; the old one stops working.
  reissue: (id, seat, host) =>
    call("POST", `/api/matches/${encodeURIComponent(id)}/seats/${encodeURIComponent(seat)}/token`, { body: {}, host }),
  // What the search would play for the token's seat now (POST /api/matches/{id}/hint).
  hint: (id, token) => call("POST", `/api/matches/${encodeURIComponent(id)}/hint`, { token, body: {} }),
  rules: (title) => call("GET", `/api/titles/${encodeURIComponent(title)}/rules`),
  replay: (log, step, seat) => call("POST", "/api/replay", { body: { log, step, seat } }),
  /** @param {string} log */
  verify: (log) => call("POST", "/api/replay/verify", { body: { log } }),
  async log(id) {
    const response = await fetch(`/api/matches/${encodeURIComponent(id)}/log`, { cache: "no-store" });
    const text = await response.text();
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try {
        message = JSON.parse(text).error || message;
      } catch {
        /* keep the status line */
      }
      throw new ApiError(response.status, message);
    }
    return text;
  },
};

// The module that draws a title: its own renderer when it ships one, else the
// generic one. A renderer module exports render(root, payload, ctx).
export async function loadRenderer(titleName) {
  let titles = [];
  try {
    titles = await api.titles();
  } catch {
    titles = [];
  }
  const title = titles.find((t) => t.name === titleName);
  if (title && title.renderer) {
    try {
      return { module: await import(title.renderer), generic: false };
    } catch (err) {
      console.error("title renderer failed to load", err);
      return { module: await import("./generic.js"), generic: true, failed: String(err) };
    }
  }
  return { module: await import("./generic.js"), generic: true };
}
