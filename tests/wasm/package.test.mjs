// The npm package from Node (node --test): the seeds' worked example of the
// README (ball K6, men J7 H8 G10 H11), a game's record read back, the
// engine's move within a time limit, and bad input as named JavaScript
// errors (a wasm panic would be an abort: every case must throw cleanly
// and leave the module usable).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { throwsNamed, wasm } from "./support.mjs";

const { Position, Game, analyse, bestMove, solve, prove } = wasm;
// hard-32's boards, where the can-score search ran for seconds to minutes.
const dense = readFileSync(new URL("../../crates/phutball/tests/data/hard-32.fixture", import.meta.url), "utf8")
  .split("\n").filter((line) => line.includes("/") && !line.startsWith("#"))
  .map((line) => new Position(line.trim()));

const seeds = () => Position.fromPoints("K6", ["J7", "H8", "G10", "H11"]);

test("the seeds' jump paths and outcomes", () => {
  const pos = seeds();
  assert.deepEqual(pos.jumpPaths(), ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
  assert.equal(pos.countJumpPaths(), 3);
  assert.equal(pos.jumpOutcomes().length, 3);
  assert.deepEqual(pos.singleJumps(), ["G9"]);
  assert.equal(pos.canScore(), false);
  assert.equal(pos.legalMoves().length, pos.placements().length + 3);
  assert.equal(pos.cols, 15);
  assert.equal(pos.rows, 19);
  assert.equal(pos.toMove, "O");
  assert.equal(pos.ball, "K6");
});

test("a position string parses back", () => {
  const pos = seeds();
  const again = new Position(pos.toString());
  assert.equal(again.toString(), pos.toString());
  assert.deepEqual(again.men, ["J7", "H8", "G10", "H11"]);
  assert.equal(new Position("start:9x11").cols, 9);
  assert.equal(Position.start(9, 11, "continue-off-board").rules, "continue-off-board");
});

test("play, step-by-step jumps and the game record", () => {
  const after = seeds().play("K6-G9-G11-J11");
  assert.equal(after.ball, "J11");
  assert.equal(after.toMove, "X");
  assert.deepEqual(after.men, []);
  const step = seeds().applyJump("G9").applyJump("G11");
  assert.deepEqual(step.singleJumps(), ["J11"]);
  assert.equal(step.end().ball, "G11");

  const game = new Game(seeds());
  game.push("K6-G9");
  game.push("A1");
  assert.equal(game.length, 2);
  const record = game.record();
  const back = Game.fromRecord(record);
  assert.deepEqual(back.moves, ["K6-G9", "A1"]);
  assert.equal(back.position.toString(), game.position.toString());
  assert.equal(game.pop(), "A1");
  assert.equal(game.length, 1);
  assert.equal(game.position.toMove, "X");
});

test("pictures", () => {
  const svg = seeds().svg(undefined, ["K6-G9-G11-J11"], ["K6"], true, 300);
  assert.match(svg, /^<svg/);
  assert.match(svg, /width="300"/);
  const [x, y] = seeds().svgPointCentre("K6");
  assert.equal(seeds().svgPointAt(x, y), "K6");
  assert.equal(seeds().svgPointAt(-1000, -1000), undefined);
});

test("the engine: a legal move within its limit", () => {
  const pos = seeds();
  const move = bestMove(pos, 300);
  assert.ok(pos.isLegal(move), move);
  const analysis = analyse(new Position(), 2000, 3);
  assert.ok(analysis.depth <= 3 && analysis.depth >= 1);
  assert.ok(analysis.nodes > 0);
  assert.equal(analysis.pv[0], analysis.bestMove);
  // A time limit alone, on a dense board: it returns near its limit.
  const started = performance.now();
  analyse(new Position(), 250);
  assert.ok(performance.now() - started < 2500);
});

test("solve: who wins a small board", () => {
  const verdict = solve(new Position("1/@/1 O"), 2000);
  assert.equal(verdict.result, "win");
  assert.equal(verdict.plies, 3);
});

test("prove: the issue-15 position and small boards, on wasm32's one stack", () => {
  const proof = prove(new Position("15/15/7#7/15/7#2#4/15/7#2#4/5#1@7/15/5#9/7#7/7#7/7#7/15/15/15/15/15/15 O"), 5000);
  // Past 20 points the distance is the proof's bound, said as one.
  assert.equal(proof.result, "win within 3");
  assert.equal(proof.exact, false);
  assert.equal(proof.line.length, 3);
  assert.ok(proof.certified);
  const deep = prove(Position.start(7, 9), 10000);
  assert.match(deep.result, /^win within \d+$/);
  assert.ok(deep.line.length > 20, deep.result);
  // A board of at most 20 points: the tablebase's exact distance.
  const small = prove(new Position("2#/2#/1#@/3 X"), 10000);
  assert.equal(small.result, "loss in 4");
  assert.equal(small.exact, true);
});

test("long calls on dense boards return within their limits", () => {
  assert.ok(dense.length >= 3, `${dense.length} dense boards`);
  for (const pos of dense.slice(0, 3)) {
    let started = performance.now();
    const move = analyse(pos, 200).bestMove;
    assert.ok(pos.isLegal(move));
    assert.ok(performance.now() - started < 2000, "analyse");
    started = performance.now();
    const verdict = solve(pos, 300);
    assert.ok(["win", "loss", "draw", "unknown"].includes(verdict.result));
    assert.ok(performance.now() - started < 3000, "solve");
    started = performance.now();
    // Done or timed out, but within the limit (and the poll's slack).
    try { pos.jumpOutcomes(undefined, 20); } catch (error) { assert.equal(error.name, "SearchTimeoutError"); }
    assert.ok(performance.now() - started < 1000, "jumpOutcomes");
  }
});

// 25x25, a man wherever column + row is odd, the ball in the middle
// (tests/ulimit's CHECKER): hundreds of thousands of long jump paths.
const checker = (() => {
  const rows = [];
  for (let row = 25; row >= 1; row--) {
    let text = "", run = 0;
    for (let col = 1; col <= 25; col++) {
      const cell = col === 13 && row === 13 ? "@" : (col + row) % 2 === 1 ? "#" : "";
      if (!cell) { run++; continue; }
      if (run) { text += run; run = 0; }
      text += cell;
    }
    rows.push(text + (run ? run : ""));
  }
  return new Position(rows.join("/") + " O");
})();

test("jumpPaths keeps its time limit while it writes the paths", () => {
  // Before: jumpPaths(300000, 200) took 2,978 ms, the strings after the
  // search. Generous for a loaded machine: 200 ms must end within 1500.
  for (const [limit, timeMs] of [[300000, 200], [1e6, 200]]) {
    const started = performance.now();
    let paths = null;
    try { paths = checker.jumpPaths(limit, timeMs); } catch (error) {
      assert.ok(["SearchTimeoutError", "MemoryLimitError"].includes(error.name), error.name);
    }
    const took = performance.now() - started;
    assert.ok(took < 1500, `jumpPaths(${limit}, ${timeMs}) took ${took.toFixed(0)} ms`);
    if (paths) assert.ok(paths.length <= limit && paths.every((p) => typeof p === "string"));
  }
  // With no time limit the same call still answers, strings and all.
  const few = checker.jumpPaths(1000);
  assert.equal(few.length, 1000);
  assert.ok(few.every((p) => p.startsWith(`${checker.ball}-`)), few[0]);
});

test("new Game(pos) leaves pos usable; a freed object says so by name", () => {
  const pos = seeds();
  const game = new Game(pos);
  assert.equal(pos.toString(), game.start.toString());
  assert.deepEqual(pos.jumpPaths(), ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
  const again = new Game(pos);
  again.push("K6-G9");
  assert.equal(pos.ball, "K6");
  const rules = Position.start(9, 11, "continue-off-board");
  assert.equal(new Game(rules).start.rules, "continue-off-board");
  throwsNamed(() => new Game("start"), "ValueError", /Position/);
  // free() gives the memory back: the object is then unusable, in
  // wasm-bindgen's words.
  pos.free();
  assert.throws(() => pos.toString(), /null pointer passed to rust/);
  assert.throws(() => new Game(pos), /null pointer passed to rust/);
});

test("bad input throws named errors, and the module still works", () => {
  throwsNamed(() => new Position("not a position"), "ParseError", /./);
  throwsNamed(() => seeds().play("K6-K8"), "IllegalMoveError", /./);
  throwsNamed(() => seeds().play("Z99"), "ParseError", /./);
  throwsNamed(() => seeds().isLegal(""), "ParseError", /move/);
  throwsNamed(() => Position.start(0, 19), "InvalidPositionError", /board/);
  throwsNamed(() => Position.start(1.5, 19), "InvalidPositionError", /board/);
  throwsNamed(() => Position.fromPoints("K6", ["K6"]), "InvalidPositionError", /./);
  throwsNamed(() => new Position(undefined, "no-such-rule"), "ParseError", /./);
  throwsNamed(() => seeds().jumpPaths(-1), "ValueError", /limit/);
  throwsNamed(() => seeds().jumpPaths(undefined, NaN), "ValueError", /timeMs/);
  throwsNamed(() => new Position().countJumpPaths(0), "SearchTimeoutError", /./);
  throwsNamed(() => seeds().svg(undefined, undefined, undefined, false, 0), "ValueError", /width/);
  throwsNamed(() => seeds().svg(undefined, ["A1-A3"]), "IllegalMoveError", /./);
  throwsNamed(() => Game.fromRecord("start nonsense"), "ParseError", /line 1/);
  throwsNamed(() => analyse(seeds()), "ValueError", /limit/);
  throwsNamed(() => analyse(seeds(), undefined, 1000), "ValueError", /./);
  throwsNamed(() => bestMove(new Position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/7@7 O"), 100), "EngineError", /./);
  throwsNamed(() => seeds().applyJump("A1"), "IllegalMoveError", /./);
  throwsNamed(() => prove(seeds()), "ValueError", /limit/);
  throwsNamed(() => prove(seeds(), undefined, 0), "ValueError", /nodes/);
  throwsNamed(() => prove(new Position("1/1/@ O"), 100), "SolverError", /./);
  const game = new Game();
  throwsNamed(() => game.push("K6-G9"), "IllegalMoveError", /./);
  assert.equal(game.length, 0);
  assert.equal(game.pop(), undefined);
  // Still usable after every error.
  assert.deepEqual(seeds().jumpPaths(), ["K6-G9", "K6-G9-G11", "K6-G9-G11-J11"]);
});
