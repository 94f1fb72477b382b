// The package's generated types, checked by `tsc --strict --noEmit`
// (tests/wasm/run.sh): the README's example, typed.
import init, { Analysis, Game, Position, analyse, bestMove } from "../../web/pkg/phutball.js";

await init();
const pos: Position = Position.fromPoints("K6", ["J7", "H8", "G10", "H11"]);
const paths: string[] = pos.jumpPaths();
const move: string = bestMove(pos, 200);
const game = new Game(pos);
game.push(move);
const undone: string | undefined = game.pop();
const analysis: Analysis = analyse(pos, 500, undefined, 10000);
const line: string[] = analysis.pv;
const svg: string = game.svg(paths, ["K6"], false, 400);
console.log(paths, undone, analysis.score, line, svg.length, game.record());
