// @ts-check
// The seat socket: one WebSocket per page (/api/matches/<id>/socket?token=<seat
// token>; no token for a spectator) carrying both ways what the event stream and
// POST .../actions carry one way each.
//
// The page sends a move as the body of POST .../actions, {"version": N, "action":
// {...}}. The server sends text frames: the seat's payload (what GET
// /api/matches/<id> answers), once on opening and after every change of the
// match; and exactly one answer per move, in the order sent: {"ok": true} once it
// is made (after the payload it made), or {"ok": false, "error": "one line",
// "status": 409} when it is refused (nothing changed). A frame with "ok" is an
// answer, any other a payload, so a move is never taken for answered by another
// seat's change.
//
// One SeatSocket is one connection: it does not reconnect (a WebSocket never
// does by itself); its owner opens another when it closes.

import { ApiError } from "./api.js";

/** The close code of a seat socket whose seat was given a new link. */
export const REVOKED = 4001;

/** Said of a move whose socket closed before the server answered it. */
const UNANSWERED =
  "lost touch with the server before it answered the move: once it is back, this page shows whether it was made";

/**
 * The seat socket's address for this page (ws: or wss: as the page's own scheme).
 * @param {string} matchId
 * @param {string | null} token the seat's token; none for a spectator
 */
export function socketUrl(matchId, token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}//${location.host}/api/matches/${encodeURIComponent(matchId)}/socket${query}`;
}

/**
 * What a SeatSocket tells its owner.
 * @typedef {object} SocketHandlers
 * @property {() => void} open the socket is open (its first payload frame follows)
 * @property {(payload: any) => void} payload a payload frame arrived
 * @property {(code: number, opened: boolean) => void} close the socket closed, with this code;
 *   `opened`: whether it had opened (a refused handshake closes unopened, with 1006)
 */

/**
 * A move sent and not yet answered.
 * @typedef {object} Move
 * @property {number} version the version it was made at
 * @property {(payload: any) => void} resolve
 * @property {(err: Error) => void} reject
 */

export class SeatSocket {
  /**
   * Open a seat socket (new WebSocket throws a SyntaxError on a malformed address).
   * @param {string} url see socketUrl()
   * @param {SocketHandlers} handlers
   */
  constructor(url, handlers) {
    this.handlers = handlers;
    this.opened = false;
    /** @type {Move | null} */
    this.pending = null;
    // The last payload: what a move answered "ok" resolves with (it came just before).
    this.latest = null;
    this.ws = new WebSocket(url);
    this.ws.addEventListener("open", () => {
      this.opened = true;
      handlers.open();
    });
    this.ws.addEventListener("message", (event) => this.receive(event.data));
    this.ws.addEventListener("close", (event) => {
      // The server's reason (a protocol error, the title failing) is for whoever reports a problem.
      if (event.reason && event.code !== REVOKED) console.warn(`the seat socket closed (${event.code}): ${event.reason}`);
      this.closed(event.code);
    });
  }

  /** Whether a move sent now goes out (not while connecting, closing or closed). */
  get isOpen() {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Send a move; settled as POST .../actions would answer it: the new payload, or an
   * ApiError with the server's status and one line. One at a time (the page's moves are).
   * @param {number} version the version of the match the move was chosen at
   * @param {unknown} action
   * @returns {Promise<any>}
   */
  move(version, action) {
    if (this.pending) return Promise.reject(new Error("the last move is not answered yet"));
    if (!this.isOpen) return Promise.reject(new ApiError(0, "not connected to the server"));
    return new Promise((resolve, reject) => {
      this.pending = { version, resolve, reject };
      this.ws.send(JSON.stringify({ version, action }));
    });
  }

  /** Close it for good: no frame reaches the handlers after this; close is still called. */
  close() {
    this.ws.close();
  }

  /** @param {unknown} data one text frame */
  receive(data) {
    let frame = null;
    try {
      frame = JSON.parse(String(data));
    } catch {
      /* said below */
    }
    if (!frame || typeof frame !== "object") {
      console.error("the seat socket sent a frame that is not a JSON object", data);
      return;
    }
    if (typeof frame.ok === "boolean") {
      this.answered(frame);
      return;
    }
    this.latest = frame;
    this.handlers.payload(frame);
  }

  /**
   * The answer to the move in flight: settled as POST .../actions would settle it.
   * @param {{ok: boolean, error?: unknown, status?: unknown}} answer
   */
  answered(answer) {
    const move = this.pending;
    this.pending = null;
    if (!move) {
      console.error("the seat socket answered a move this page did not send", answer);
      return;
    }
    if (answer.ok) move.resolve(this.latest);
    else move.reject(new ApiError(Number(answer.status) || 0, String(answer.error)));
  }

  /** @param {number} code */
  closed(code) {
    const move = this.pending;
    this.pending = null;
    if (move) move.reject(new ApiError(0, UNANSWERED));
    this.handlers.close(code, this.opened);
  }
}
