// The page's long calls (the engine, "who wins?"), off the main thread so
// the page never freezes; the page ends this worker to cancel one. Each
// message names a position string and its rules, a time limit, and the
// engine's evaluation: "hand", or "net" for the network built into the
// package (Network.builtIn(), read once per worker).
import init, { Network, Position, analyse, solve } from "./pkg/phutball.js";

const ready = init();
let builtIn = null;

// The analysis's network argument: undefined for the hand evaluation.
function network(evaluation) {
  if (evaluation !== "net") return undefined;
  builtIn ??= Network.builtIn();
  return builtIn;
}

self.onmessage = async ({ data }) => {
  await ready;
  const { id, kind, position, rules, timeMs, evaluation } = data;
  try {
    const pos = new Position(position, rules);
    if (kind === "analyse") {
      const a = analyse(pos, timeMs, undefined, undefined, undefined, network(evaluation));
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
