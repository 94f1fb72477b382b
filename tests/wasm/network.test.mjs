// The npm package's learned evaluation from Node (node --test): a weights
// file built here byte by byte as docs/network.md lays it out (its CRC-32
// from node:zlib) is read, evaluated and written back; damaged, truncated
// and foreign bytes throw NetworkError; analyse and bestMove search with a
// network, read but not taken, and refuse a board size it does not serve;
// Network.builtIn() is the shipped weights file and plays on the standard board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { throwsNamed, wasm } from "./support.mjs";

const { Network, Position, analyse, bestMove } = wasm;

// The weights file of one network of one hidden unit for cols x rows
// boards: W1 zero but wBall on input 2 * cols * rows (the ball's progress,
// in rows), then b1, w2 and b2.
function weightsFile({ cols = 5, rows = 7, description = "", wBall = 0, b1 = 0, w2 = 0, b2 = 0 } = {}) {
  const text = new TextEncoder().encode(description);
  const inputs = 2 * cols * rows + 3;
  const bytes = new Uint8Array(8 + 4 + 4 + text.length + 4 + 4 + 4 * inputs + 12 + 4);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode("phbnet\n\0"), 0);
  let at = 8;
  view.setUint32(at, 1, true); at += 4; // format version
  view.setUint32(at, text.length, true); at += 4;
  bytes.set(text, at); at += text.length;
  view.setUint32(at, 1, true); at += 4; // one network
  bytes[at++] = cols;
  bytes[at++] = rows;
  view.setUint16(at, 1, true); at += 2; // one hidden unit
  for (let i = 0; i < inputs; i++, at += 4) view.setFloat32(at, i === 2 * cols * rows ? wBall : 0, true);
  for (const weight of [b1, w2, b2]) { view.setFloat32(at, weight, true); at += 4; }
  view.setUint32(at, crc32(bytes.subarray(0, at)), true);
  return bytes;
}

test("a weights file built by hand is read, evaluated and written back", () => {
  const bytes = weightsFile({ description: "by hand, in JavaScript", wBall: 0.25, b1: 0.5, w2: 100 });
  const net = Network.fromBytes(bytes);
  assert.equal(net.description, "by hand, in JavaScript");
  assert.deepEqual(net.sizes, ["5x7"]);
  assert.equal(net.serves(5, 7), true);
  assert.equal(net.serves(15, 19), false);
  assert.equal(net.serves(0, 7), false);
  assert.equal(net.serves(5.5, 7), false);
  // 100 * clamp(0.5 + 1 row * 0.25, 0, 1): docs/network.md's arithmetic.
  assert.equal(net.evaluate(new Position("5/5/2@2/5/5/5/5 O")), 75);
  assert.equal(net.evaluate(new Position("5/5/2@2/5/5/5/5 X")), 25);
  assert.deepEqual(net.toBytes(), bytes);
  assert.ok(net.toBytes() instanceof Uint8Array);
  throwsNamed(() => net.evaluate(new Position()), "NetworkError", /the network serves 5x7, not 15x19/);
  throwsNamed(() => net.evaluate(new Position("5/5/5/5/5/5/5 O C0")), "NetworkError", /the game is over/);
});

test("damaged, truncated and foreign bytes throw NetworkError saying why", () => {
  const bytes = weightsFile({ wBall: 0.25, b1: 0.5, w2: 100 });
  const flipped = bytes.slice();
  flipped[40] ^= 1;
  throwsNamed(() => Network.fromBytes(flipped), "NetworkError", /the weights file is damaged: checksum/);
  throwsNamed(() => Network.fromBytes(bytes.subarray(0, bytes.length - 1)), "NetworkError", /truncated/);
  throwsNamed(() => Network.fromBytes(new TextEncoder().encode("not a weights file")), "NetworkError", /not a phutball weights file/);
  throwsNamed(() => Network.fromBytes(new Uint8Array()), "NetworkError", /truncated/);
  // Still usable after every error.
  assert.deepEqual(Network.fromBytes(bytes).sizes, ["5x7"]);
});

test("the engine searches with a network, reads it and leaves it usable", () => {
  // A 9x9 network whose every position is worth 12.34 rows to its side to move.
  const net = Network.fromBytes(weightsFile({ cols: 9, rows: 9, b2: 1234 }));
  const start = Position.start(9, 9);
  const hand = analyse(start, undefined, 1, undefined, 0, "hand");
  const searched = analyse(start, undefined, 1, undefined, 0, net);
  // One ply: every move leaves the opponent 12.34 rows up.
  assert.equal(searched.score, "-12.34");
  assert.notEqual(hand.score, "-12.34");
  assert.equal(analyse(start, undefined, 1, undefined, 0, undefined).score, hand.score);
  const move = bestMove(start, 200, net);
  assert.ok(start.isLegal(move), move);
  // Read, not taken: the network is still there.
  assert.deepEqual(net.sizes, ["9x9"]);
  throwsNamed(() => analyse(new Position(), undefined, 1, undefined, 0, net), "NetworkError",
    /the engine's network cannot judge this position: the network serves 9x9, not 15x19/);
  throwsNamed(() => bestMove(new Position(), 100, net), "NetworkError", /serves 9x9/);
  throwsNamed(() => analyse(start, undefined, 1, undefined, 0, "neural"), "ValueError", /unknown evaluation "neural"/);
  throwsNamed(() => analyse(start, undefined, 1, undefined, 0, "net:w.phbnet"), "ValueError", /give a Network/);
  throwsNamed(() => bestMove(start, 100, start), "ValueError", /Network/);
  // A freed network says so by name.
  net.free();
  assert.throws(() => bestMove(start, 100, net), /null pointer passed to rust/);
});

test("the default is the built-in network on the standard board and hand elsewhere", () => {
  // A standard-board position where the two evaluations part at depth 2.
  const pos = new Position("15/15/15/15/15/15/15/15/7#7/6##7/7@7/7#7/15/15/15/15/15/15/15 X");
  const byDefault = analyse(pos, undefined, 2);
  const net = Network.builtIn();
  for (const same of [analyse(pos, undefined, 2, undefined, 0, "auto"), analyse(pos, undefined, 2, undefined, 0, "net"),
    analyse(pos, undefined, 2, undefined, 0, net)]) {
    assert.deepEqual([same.bestMove, same.score, same.pv], [byDefault.bestMove, byDefault.score, byDefault.pv]);
  }
  assert.notEqual(analyse(pos, undefined, 2, undefined, 0, "hand").score, byDefault.score);
  // 9x9, which the network does not serve: the hand evaluation.
  const small = Position.start(9, 9);
  assert.equal(analyse(small, undefined, 2).score, analyse(small, undefined, 2, undefined, 0, "hand").score);
  throwsNamed(() => analyse(small, undefined, 2, undefined, 0, "net"), "NetworkError", /serves 15x19, not 9x9/);
  net.free();
});

test("the built-in network plays a legal move on the standard board and refuses 9x9", () => {
  const net = Network.builtIn();
  assert.deepEqual(net.sizes, ["15x19"]);
  assert.equal(net.serves(15, 19), true);
  // The shipped weights file, byte for byte.
  const shipped = readFileSync(new URL("../../crates/phutball-engine/networks/standard.phbnet", import.meta.url));
  assert.deepEqual(net.toBytes(), new Uint8Array(shipped));
  const start = new Position();
  const value = net.evaluate(start);
  assert.ok(Number.isInteger(value) && Math.abs(value) <= 30000, `${value}`);
  const searched = analyse(start, undefined, 1, undefined, 0, net);
  assert.ok(start.isLegal(searched.bestMove), searched.bestMove);
  const move = bestMove(start, 200, net);
  assert.ok(start.isLegal(move), move);
  throwsNamed(() => bestMove(Position.start(9, 9), 100, net), "NetworkError",
    /the engine's network cannot judge this position: the network serves 15x19, not 9x9/);
  // Each call gives a network of its own: freeing one leaves the others.
  net.free();
  assert.deepEqual(Network.builtIn().sizes, ["15x19"]);
});
