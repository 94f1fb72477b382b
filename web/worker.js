// The page's long calls (the engine, "who wins?"), off the main thread so
// the page never freezes; the page ends this worker to cancel one. Each
// message names a position string and its rules, a time limit, and the
// engine's evaluation by the name analyse takes: "auto", "hand", or "net"
// for the network built into the package.
import init, { Position, analyse, solve } from "./pkg/phutball.js";

const ready = init();

self.onmessage = async ({ data }) => {
  await ready;
  const { id, kind, position, rules, timeMs, evaluation } = data;
  try {
    const pos = new Position(position, rules);
    if (kind === "analyse") {
      const a = analyse(pos, timeMs, undefined, undefined, undefined, evaluation);
      self.postMessage({ id, bestMove: a.bestMove, score: a.score, depth: a.depth,
        nodes: a.nodes, elapsedMs: a.elapsedMs, pv: a.pv, evaluation });
    } else {
      const v = solve(pos, timeMs);
      self.postMessage({ id, result: v.result, plies: v.plies, line: v.line });
    }
  } catch (error) {
    self.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
};
