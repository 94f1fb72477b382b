// The npm package from Node, in JavaScript: a position and its jump moves,
// a game played to its goal with its record, the engine's move within a
// time limit, and a proof of who wins a small board.
//
// Run from anywhere, once scripts/build-wasm.sh has built web/pkg:
//   node examples/node/play.mjs
// (tests/wasm/run.sh runs it and checks what it prints.)
import { readFileSync } from "node:fs";
import { Game, Position, bestMove, initSync, prove } from "../../web/pkg/phutball.js";

// The package is built for the web (`wasm-bindgen --target web`): in Node
// it gets the module's bytes from the file beside it instead of fetching them.
initSync({ module: readFileSync(new URL("../../web/pkg/phutball_bg.wasm", import.meta.url)) });

// The seeds' worked example: the ball on K6, men on J7, H8, G10, H11.
const seeds = Position.fromPoints("K6", ["J7", "H8", "G10", "H11"]);
console.log(`jump moves: ${seeds.jumpPaths().join(" ")}`);
const after = seeds.play("K6-G9-G11-J11");
console.log(`after K6-G9-G11-J11: ball on ${after.ball}, ${after.men.length} men left, ${after.toMove} to move`);

// A game on the 5 x 5 board: the prover's winning line for the side that
// starts, then the jump that scores. Moves are strings in notation.
const game = new Game(Position.start(5, 5));
for (const move of ["B4", "A5", "B3", "A3", "C4", "C5"]) {
  game.push(move);
}
const goal = game.position.scoringMove();
game.push(goal);
console.log(`scoring jump: ${goal}, result ${game.result} after ${game.length} moves`);
// The record reads back into the same game (Game.fromRecord).
console.log(`record read back: ${Game.fromRecord(game.record()).moves.join(" ")}`);

// The engine answers within its time limit, in milliseconds.
const start = new Position();
const move = bestMove(start, 200);
console.log(`the engine's move within 200 ms is legal: ${start.isLegal(move)}`);

// The prover: who wins the 5 x 7 start, within 10 s and 100000 nodes.
const proof = prove(Position.start(5, 7), 10000, 100000);
console.log(`start:5x7: ${proof.result}, certified ${proof.certified}, first move ${proof.line[0]}`);
