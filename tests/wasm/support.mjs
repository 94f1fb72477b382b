// What the Node tests of the npm package share (tests/wasm/*.test.mjs;
// node --test runs those, not this file): the package loaded from web/pkg,
// and a check that a call throws a JavaScript Error of a given name.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const pkg = new URL("../../web/pkg/", import.meta.url);
/** The package's exports, its WebAssembly instantiated. */
export const wasm = await import(new URL("phutball.js", pkg));
wasm.initSync({ module: readFileSync(new URL("phutball_bg.wasm", pkg)) });

/** Checks that `call` throws an `Error` named `name` whose message matches `pattern`. */
export function throwsNamed(call, name, pattern) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, `an Error, not ${error}`);
    assert.equal(error.name, name);
    assert.match(error.message, pattern);
    return true;
  });
}
