// boardgame.io's own server (Koa + socket.io, the default in-memory store) serving
// tic-tac-toe: `node server.js PORT`. benchmarks/versus.py starts it with
// NODE_ENV=production, as a deployment runs it (no per-action console logging).
const { Server } = require("boardgame.io/server");
const { TicTacToe } = require("./game");

const port = Number.parseInt(process.argv[2] || "8000", 10);
const server = Server({ games: [TicTacToe] });
server.run(port, () => console.log(`boardgame.io serving tictactoe on port ${port}`));
