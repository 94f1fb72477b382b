// The npm package against native, in one run (docs/web.md's figures):
// jump paths per second on jumps-24 (countJumpPaths over its 24 positions,
// 5 passes) and the engine's nodes per second (a node-limited analysis of
// the start and of the seeds' position), each round the native CLI then
// the package in this Node process, alternating; medians of the rounds.
// Usage: node benches/wasm/throughput.mjs [CLI] [ROUNDS]
//   (CLI: a release build of phutball, default target/release/phutball;
//   the package: web/pkg, from scripts/build-wasm.sh)
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

const root = new URL("../../", import.meta.url);
const cli = process.argv[2] ?? new URL("target/release/phutball", root).pathname;
const rounds = Number(process.argv[3] ?? 5);
const wasm = await import(new URL("web/pkg/phutball.js", root));
wasm.initSync({ module: readFileSync(new URL("web/pkg/phutball_bg.wasm", root)) });

const fixture = new URL("crates/phutball/tests/data/jumps-24.fixture", root).pathname;
const positions = readFileSync(fixture, "utf8").split("\n")
  .filter((line) => line.includes("/") && !line.startsWith("#"))
  .map((line) => new wasm.Position(line.trim()));
const PASSES = 5;
const NODES = 200000;
const ENGINE_POSITIONS = { "the start": "start",
  "the seeds": "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O" };

// The CLI's report (it goes to stderr).
function stderrOf(args) {
  const run = spawnSync(cli, args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${cli} ${args.join(" ")}: ${run.stderr}`);
  return run.stderr;
}

function wasmPaths() {
  const started = performance.now();
  let paths = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    for (const pos of positions) paths += pos.countJumpPaths();
  }
  return paths / ((performance.now() - started) / 1000);
}

function nativePaths() {
  const err = stderrOf(["count", "--paths", "--repeat", String(PASSES), fixture]);
  return Number(/([\d.]+) million paths per second/.exec(err)[1]) * 1e6;
}

function wasmNodes(text) {
  const a = wasm.analyse(new wasm.Position(text), undefined, undefined, NODES);
  return a.nodes / (a.elapsedMs / 1000);
}

function nativeNodes(text) {
  const out = stderrOf(["best", "--nodes", String(NODES), text]);
  return Number(/\((\d+) nodes\/s\)/.exec(out)[1]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = { paths: [[], []], ...Object.fromEntries(Object.keys(ENGINE_POSITIONS).map((p) => [p, [[], []]])) };
for (let round = 0; round < rounds; round++) {
  rows.paths[0].push(nativePaths());
  rows.paths[1].push(wasmPaths());
  for (const [name, text] of Object.entries(ENGINE_POSITIONS)) {
    rows[name][0].push(nativeNodes(text));
    rows[name][1].push(wasmNodes(text));
  }
}
for (const [name, [native, inWasm]] of Object.entries(rows)) {
  const [n, w] = [median(native), median(inWasm)];
  const label = name === "paths" ? "jump paths/s on jumps-24" : `engine nodes/s (${NODES} nodes) on ${name}`;
  console.log(`${label}: native ${(n / 1e6).toFixed(2)} M, wasm ${(w / 1e6).toFixed(2)} M, ratio ${(w / n).toFixed(2)}x`);
}
