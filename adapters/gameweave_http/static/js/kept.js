// @ts-check
// The matches created in this browser, kept in localStorage so that a reload (or a
// closed tab) never loses a seat's link. One entry per match, newest first:
//   {id, title, created, host_token, seats: [{seat, label, url}]}
// (a bot's seat has no url; it carries the bot's name instead). Only this browser
// reads it: the links and the host token are as secret as the seats they open.

const KEY = "gameweave.matches";
const MOST = 50; // the oldest are let go beyond this many

function read() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(found) ? found.filter((m) => m && typeof m.id === "string" && Array.isArray(m.seats)) : [];
  } catch {
    return [];
  }
}

function write(matches) {
  try {
    localStorage.setItem(KEY, JSON.stringify(matches.slice(0, MOST)));
    return true;
  } catch {
    return false; // storage full or refused (a private window): the links are still on screen
  }
}

/** The kept matches, newest first. */
export function kept() {
  return read();
}

/** Keep a match from the create response (POST /api/matches). */
export function keep(created) {
  const entry = {
    id: created.id,
    title: created.title,
    created: new Date().toISOString(),
    host_token: created.host_token || null,
    seats: created.seats.map((s) => (s.url ? { seat: s.seat, label: s.label, url: s.url } : { seat: s.seat, label: s.label, bot: s.bot || null })),
  };
  return write([entry, ...read().filter((m) => m.id !== created.id)]);
}

/** A seat's link changed (reissued): keep the new one. */
export function replaceLink(matchId, seat, url) {
  const matches = read();
  for (const m of matches) {
    if (m.id !== matchId) continue;
    for (const s of m.seats) if (s.seat === seat) s.url = url;
  }
  return write(matches);
}

/** Let a match go from this browser (the match itself goes on on the server). */
export function forget(matchId) {
  return write(read().filter((m) => m.id !== matchId));
}
