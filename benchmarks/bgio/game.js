// Tic-tac-toe as a boardgame.io 0.50 game: the same game as benchmarks/tictactoe
// (player "0" is X and moves first; cells 0-8 row by row; three in a line wins, a
// full board is a draw). Shared by the server and the load generator's clients.
const { INVALID_MOVE } = require("boardgame.io/core");

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function lineOf(cells, player) {
  return LINES.some((line) => line.every((c) => cells[c] === player));
}

const TicTacToe = {
  name: "tictactoe",
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    mark: ({ G, playerID }, cell) => {
      if (!Number.isInteger(cell) || cell < 0 || cell > 8 || G.cells[cell] !== null) {
        return INVALID_MOVE;
      }
      G.cells[cell] = playerID;
    },
  },
  endIf: ({ G }) => {
    const winner = ["0", "1"].find((player) => lineOf(G.cells, player));
    if (winner !== undefined) return { winner };
    if (G.cells.every((c) => c !== null)) return { draw: true };
  },
};

module.exports = { TicTacToe };
