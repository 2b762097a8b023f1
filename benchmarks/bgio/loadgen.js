// boardgame.io's side of the versus benchmark's load: each seat is boardgame.io's
// own Client with its SocketIO transport, as a browser runs it; matches are made
// and joined with its LobbyClient. Run by benchmarks/versus.py:
//
//   node loadgen.js '{"port": 8123, "matches": 32, "seconds": 3, "warmup": 0.5}'
//   node loadgen.js '{"port": 8123, "matches": 32, "seconds": 3, "clients": "kept"}'
//   node loadgen.js '{"port": 8123, "hold": 1000}'   (then waits for stdin to close)
//
// and prints one JSON line. Play: `matches` matches at once, two seats each; a seat
// that is told (pushed over socket.io) it is its turn marks a random empty cell;
// a finished match is replaced by a new one. A move's latency runs from its seat's
// submit to the other seat's receipt of the state the move made. The counted window
// (`seconds` long) opens `warmup` seconds after every one of the `matches` places
// has seen its first move (the ramp: setting up 256 matches takes a while); moves
// submitted in it and received before it closes are counted. A match's first move
// waits until both seats have their first state, as the Gameweave side does.
//
// Two client setups (`clients`):
// - "default": a new Client per seat and match, with socket.io's default transport
//   (it starts with HTTP long-polling and then upgrades to a WebSocket), as a page
//   that makes a Client per match does;
// - "kept": boardgame.io at its best: each place's two Clients are made once, on
//   the WebSocket transport alone, and moved from match to match with
//   updateCredentials and updateMatchID (no new connection per match).
// Hold: `hold` matches, both seats connected and one move played in each, held open
// while the caller reads the server's memory (on the WebSocket transport with
// "kept", which a match's two seats then still need a connection each for).
const { Client, LobbyClient } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { TicTacToe } = require("./game");

const cfg = JSON.parse(process.argv[2]);
if (cfg.host && cfg.host !== "127.0.0.1") throw new Error("loadgen only talks to 127.0.0.1");
const server = `http://127.0.0.1:${cfg.port}`;
const lobby = new LobbyClient({ server });
const clock = () => Number(process.hrtime.bigint()) / 1e9;
const fs = require("fs");

// CPU seconds used so far by the server process (its /proc/<pid>/stat), as the
// Gameweave side reads it; 0 without a pid. Assumes the usual 100 clock ticks/s.
function serverCpu() {
  if (!cfg.server_pid) return 0;
  const stat = fs.readFileSync(`/proc/${cfg.server_pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / (cfg.clock_ticks || 100);
}

// A small seeded generator (mulberry32): the same seed, the same choices.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const stats = { moves: 0, latencies: [], created: 0, finished: 0 };
const kept = cfg.clients === "kept";
const socketOpts = kept ? { transports: ["websocket"] } : undefined;

function makeClient(matchID, playerID, credentials) {
  return Client({
    game: TicTacToe,
    numPlayers: 2,
    multiplayer: SocketIO({ server, socketOpts }),
    matchID,
    playerID,
    credentials,
    debug: false,
  });
}

async function newMatch() {
  const { matchID } = await lobby.createMatch(TicTacToe.name, { numPlayers: 2 });
  const credentials = [];
  for (const playerID of ["0", "1"]) {
    const joined = await lobby.joinMatch(TicTacToe.name, matchID, {
      playerID,
      playerName: `seat ${playerID}`,
    });
    credentials.push(joined.playerCredentials);
  }
  stats.created += 1;
  return { matchID, credentials };
}

// Plays one match to its end (or until `win.stop`); resolves when both seats have
// the final state. `onMove(latency, submittedAt)` is called for every move the
// other seat received. `moveLimit` stops submitting after that many moves. With
// `seats` (the "kept" setup) the match is played by those two Clients, already
// moved to it: `seats.route[seat]` is pointed at this match while it lasts, and a
// state is taken as this match's only from its first one (step 0, not over: the
// Clients first repeat the previous match's last state).
function playMatch({ matchID, credentials }, random, { win, onMove, moveLimit, seats }) {
  return new Promise((resolve) => {
    const submits = new Map(); // stateID a move makes -> { seat, t }
    const synced = [false, false];
    const over = [false, false];
    // The state each seat's last move made: the mover's own client shows it first
    // (applied optimistically, turn not yet passed), and must not act on it.
    const made = [-1, -1];
    const states = [null, null];
    let moves = 0;
    let closed = false;
    const clients = seats
      ? seats.clients
      : ["0", "1"].map((playerID) => makeClient(matchID, playerID, credentials[Number(playerID)]));
    const finish = () => {
      if (closed) return;
      closed = true;
      if (seats) seats.route = [null, null];
      else for (const c of clients) c.stop();
      resolve(moves);
    };
    const maybeAct = (seat) => {
      const state = states[seat];
      if (!state || !synced[0] || !synced[1] || closed) return;
      if (state.ctx.gameover || !state.isActive) return;
      if (state.ctx.currentPlayer !== String(seat) || state._stateID <= made[seat]) return;
      if (clock() >= win.stop || moves >= moveLimit) return;
      made[seat] = state._stateID + 1;
      const empty = [];
      state.G.cells.forEach((c, i) => c === null && empty.push(i));
      const cell = empty[Math.floor(random() * empty.length)];
      submits.set(state._stateID + 1, { seat, t: clock() });
      moves += 1;
      clients[seat].moves.mark(cell);
    };
    const onState = (seat, state) => {
      if (!state || closed) return;
      if (seats && !synced[seat] && (state._stateID !== 0 || state.ctx.gameover)) return;
      states[seat] = state;
      const sub = submits.get(state._stateID);
      if (sub && sub.seat !== seat) {
        submits.delete(state._stateID);
        onMove(clock() - sub.t, sub.t);
      }
      if (!synced[seat]) {
        synced[seat] = true;
        maybeAct(0);
        maybeAct(1);
      }
      if (state.ctx.gameover) over[seat] = true;
      if ((over[0] && over[1]) || clock() >= win.stop) return finish();
      maybeAct(seat);
    };
    if (seats) {
      seats.route = [0, 1].map((seat) => (state) => onState(seat, state));
      // The Clients were moved to this match before: its first state may be in.
      clients.forEach((c, seat) => onState(seat, c.getState()));
    } else {
      clients.forEach((c, seat) => {
        c.subscribe((state) => onState(seat, state));
        c.start();
      });
    }
    const timer = setInterval(() => {
      if (closed) clearInterval(timer);
      else if (clock() >= win.stop) {
        clearInterval(timer);
        finish();
      }
    }, 50);
  });
}

// A place's two Clients of the "kept" setup, made for its first match, then moved
// to each next match.
function keptSeats() {
  const seats = { clients: null, route: [null, null] };
  return {
    seats,
    moveTo({ matchID, credentials }) {
      if (seats.clients === null) {
        seats.clients = ["0", "1"].map((playerID) =>
          makeClient(matchID, playerID, credentials[Number(playerID)]),
        );
        seats.clients.forEach((c, seat) => {
          c.subscribe((state) => seats.route[seat] && seats.route[seat](state));
          c.start();
        });
        return;
      }
      seats.clients.forEach((c, seat) => {
        c.updateCredentials(credentials[seat]);
        c.updateMatchID(matchID);
      });
    },
    stop() {
      if (seats.clients) for (const c of seats.clients) c.stop();
    },
  };
}

function pct(values, q) {
  const data = [...values].sort((a, b) => a - b);
  if (!data.length) return 0;
  const pos = ((data.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, data.length - 1);
  return data[lo] + (data[hi] - data[lo]) * (pos - lo);
}

async function play() {
  const matches = cfg.matches || 1;
  const seconds = cfg.seconds || 2;
  const warmup = cfg.warmup || 0;
  const t0 = clock();
  const win = { from: Infinity, stop: Infinity };
  let cpuFrom = null;
  let server0 = 0;
  let ramped = 0;
  let opened;
  const closed = new Promise((resolve) => {
    opened = () => {
      win.from = clock() + warmup;
      win.stop = win.from + seconds;
      setTimeout(() => {
        cpuFrom = process.cpuUsage();
        server0 = serverCpu();
        setTimeout(resolve, seconds * 1000);
      }, warmup * 1000);
    };
  });
  const rampLimit = setTimeout(() => {
    process.stderr.write(`loadgen: ${ramped} of ${matches} matches started within 120 s\n`);
    process.exit(1);
  }, 120000);
  const firstMove = new Array(matches).fill(false);
  const onMove = (slotIndex, latency, submittedAt) => {
    if (!firstMove[slotIndex]) {
      firstMove[slotIndex] = true;
      ramped += 1;
      if (ramped === matches) {
        clearTimeout(rampLimit);
        opened();
      }
    }
    if (submittedAt < win.from || clock() > win.stop) return;
    stats.moves += 1;
    stats.latencies.push(latency);
  };
  const slot = async (i) => {
    const random = rng((cfg.seed || 0) * 1000 + i);
    const counted = (latency, submittedAt) => onMove(i, latency, submittedAt);
    const place = kept ? keptSeats() : null;
    try {
      while (clock() < win.stop) {
        const made = await newMatch();
        if (place) place.moveTo(made);
        const seats = place ? place.seats : undefined;
        await playMatch(made, random, { win, onMove: counted, moveLimit: Infinity, seats });
        if (clock() < win.stop) stats.finished += 1;
      }
    } finally {
      if (place) place.stop();
    }
  };
  const slots = Promise.all(Array.from({ length: matches }, (_, i) => slot(i)));
  // The window closes at its deadline; matches still being set up then are let go.
  await Promise.race([slots, closed]);
  slots.catch(() => {}); // a failure after the deadline no longer counts
  const server = serverCpu() - server0;
  const cpu = process.cpuUsage(cpuFrom);
  const lat = stats.latencies;
  return {
    moves: stats.moves,
    wall: seconds,
    ramp: win.from - warmup - t0,
    created: stats.created,
    finished: stats.finished,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: lat.length ? Math.max(...lat) : 0,
    client_cpu: (cpu.user + cpu.system) / 1e6,
    server_cpu: server,
    latencies: cfg.keep_latencies ? lat : [],
  };
}

async function hold() {
  const total = cfg.hold;
  const parallel = cfg.parallel || 16;
  const held = [];
  let next = 0;
  const random = rng(cfg.seed || 0);
  const worker = async () => {
    while (next < total) {
      next += 1;
      const made = await newMatch();
      // One move each, then the match stays open: both seats connected.
      const clients = await new Promise((resolve) => {
        const got = [];
        const clients = ["0", "1"].map((playerID) =>
          makeClient(made.matchID, playerID, made.credentials[Number(playerID)]),
        );
        let moved = false;
        clients.forEach((c, seat) => {
          c.subscribe((state) => {
            if (!state) return;
            got[seat] = state;
            if (!moved && got[0] && got[1]) {
              moved = true;
              const empty = [];
              got[0].G.cells.forEach((x, i) => x === null && empty.push(i));
              clients[0].moves.mark(empty[Math.floor(random() * empty.length)]);
            }
            if (seat === 1 && state._stateID >= 1) resolve(clients);
          });
          c.start();
        });
      });
      held.push(clients);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { held: held.length, created: stats.created };
}

async function main() {
  if (cfg.hold) {
    const out = await hold();
    process.stdout.write(JSON.stringify(out) + "\n");
    // Held until the caller has read the server's memory and closes our stdin.
    process.stdin.resume();
    process.stdin.on("end", () => process.exit(0));
    return;
  }
  const out = await play();
  // Exit only once the line is written: stdout to a pipe is asynchronous, and an
  // exit right after write() cut the figures off at 64 KiB.
  process.stdout.write(JSON.stringify(out) + "\n", () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`loadgen failed: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
