// The npm package from TypeScript: the engine's analysis of a position
// (typed as the package's phutball.d.ts declares it), a jump move made one
// jump at a time, and who wins a small board.
//
// tests/wasm/run.sh type-checks it with `tsc --strict`, compiles it into a
// folder of its own (beside a link to web/, which its imports name) and
// runs it with node, checking what it prints. Node versions that strip
// types (23.6 and later) run it as it is, once scripts/build-wasm.sh has
// built web/pkg: node examples/node/analyse.ts
import { readFileSync } from "node:fs";
import {
  Analysis,
  JumpInProgress,
  Position,
  Verdict,
  analyse,
  initSync,
  solve,
} from "../../web/pkg/phutball.js";

initSync({ module: readFileSync(new URL("../../web/pkg/phutball_bg.wasm", import.meta.url)) });

// A node limit makes the analysis the same on every run and machine; a
// time limit (timeMs) would bound it by the clock instead.
const start: Position = new Position("start");
const analysis: Analysis = analyse(start, undefined, undefined, 5000, 7);
const line: string[] = analysis.pv;
console.log(`standard start: ${analysis.decision}, best move ${analysis.bestMove}, line of ${line.length}`);
console.log(`legal: ${start.isLegal(analysis.bestMove)}, depth ${analysis.depth}, ${analysis.nodes} nodes`);

// One jump at a time, as a player clicks it: the same side may jump on
// from G11 to J11, or end the move there.
const seeds = Position.fromPoints("K6", ["J7", "H8", "G10", "H11"]);
const twoJumps: JumpInProgress = seeds.applyJump("G9").applyJump("G11");
console.log(`after K6-G9-G11: further jumps ${twoJumps.singleJumps().join(" ")}`);
const ended: Position = twoJumps.end();
console.log(`ended on ${ended.ball}, ${ended.toMove} to move`);

// solve: the engine's deepening search, then the prover, within 5 s.
const verdict: Verdict = solve(Position.start(3, 7), 5000);
const plies: number | undefined = verdict.plies;
console.log(`start:3x7: ${verdict.result} in ${plies ?? "?"} plies, first move ${verdict.line[0]}`);
