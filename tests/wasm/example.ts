// The package's generated types, checked by `tsc --strict --noEmit`
// (tests/wasm/run.sh): the README's example, typed.
import init, { Analysis, Game, Network, Position, analyse, bestMove } from "../../web/pkg/phutball.js";

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

// A learned evaluation from a weights file's bytes (a page fetches the file).
async function withNetwork(url: string, start: Position): Promise<string> {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const net: Network = Network.fromBytes(bytes);
  const sizes: string[] = net.sizes;
  const value: number = net.serves(start.cols, start.rows) ? net.evaluate(start) : 0;
  const again: Uint8Array = net.toBytes();
  const searched: Analysis = analyse(start, 500, undefined, undefined, 0, net);
  return `${net.description} ${sizes.join(", ")} ${value} ${again.length} ${searched.bestMove} ${bestMove(start, 200, net)}`;
}
console.log(await withNetwork("gen1.phbnet", new Position()));
// The network built into the package: no file to fetch.
const builtIn: Network = Network.builtIn();
console.log(builtIn.sizes, bestMove(new Position(), 200, builtIn));
