#!/usr/bin/env bash
# The npm package's tests, from a clean clone: builds it (scripts/build-wasm.sh:
# the wasm32 target, wasm-bindgen-cli, web/pkg), runs tests/wasm/*.test.mjs
# with `node --test` (the seeds' worked example, a game record read back,
# the engine within a time limit, bad input as named errors), checks
# tests/wasm/example.ts with `tsc --strict --noEmit`, runs the examples
# (examples/node: play.mjs with node, analyse.ts type-checked by
# `tsc --strict`, compiled and run) checking what they print, builds the
# TypeScript reference with typedoc into target/typescript-reference
# (warnings as errors, every name documented: tests/wasm/typedoc.config.mjs;
# typescript, typedoc and @types/node installed by npm into target/wasm-ts,
# announced), lints the bindings for wasm32
# (cargo clippy --target wasm32-unknown-unknown), then the playground page in
# headless Chromium (tests/wasm/page_test.py; chromium and chromium-driver
# from apt-get if missing, announced).
# Exits non-zero on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
TS="$ROOT/target/wasm-ts"
TS_VERSION=5.9.3
# typedoc 0.28 supports TypeScript 5.0 to 6.0; @types/node types the
# examples' node:fs for tsc (Node 20's types).
TYPEDOC_VERSION=0.28.20
NODE_TYPES_VERSION=20.19.43

bash scripts/build-wasm.sh
# The bindings exist for wasm32 only (natively the crate is empty): their
# lints run here, for that target.
echo "wasm: cargo clippy -p phutball-wasm --target wasm32-unknown-unknown -D warnings"
cargo clippy --quiet -p phutball-wasm --target wasm32-unknown-unknown -- -D warnings

echo "wasm: node --test tests/wasm/"
node --test tests/wasm/

# The README's Node program (its "Start here"), as a user saves it in the
# repository root: here in a directory of its own whose web/ is this one's.
first="$(mktemp -d)"
trap 'rm -rf "$first"' EXIT
ln -s "$ROOT/web" "$first/web"
awk '/^## Start here/{on=1} /^## Two commands/{on=0} on&&/^```js$/{c=1;next} c&&/^```$/{exit} c' README.md >"$first/first.mjs"
want="$(grep -m1 'console.log' "$first/first.mjs" | sed 's/^.*[[:space:]]\/\/[[:space:]]*//')"
[ -n "$want" ] || { echo "wasm: the README's Start here lost its Node program" >&2; exit 1; }
echo "wasm: the README's Node program (node first.mjs) prints: $want"
got="$(cd "$first" && node first.mjs)"
[ "$got" = "$want" ] || { echo "wasm: it printed '$got'" >&2; exit 1; }

installed_node_types="$(node -p "require('$TS/node_modules/@types/node/package.json').version" 2>/dev/null || true)"
if [ "$("$TS/node_modules/.bin/tsc" --version 2>/dev/null)" != "Version $TS_VERSION" ] ||
    [ "$("$TS/node_modules/.bin/typedoc" --version 2>/dev/null | grep -m1 TypeDoc)" != "TypeDoc $TYPEDOC_VERSION" ] ||
    [ "$installed_node_types" != "$NODE_TYPES_VERSION" ]; then
    echo "wasm: installing typescript $TS_VERSION, typedoc $TYPEDOC_VERSION and @types/node $NODE_TYPES_VERSION into target/wasm-ts (npm install)"
    mkdir -p "$TS"
    python3 scripts/heartbeat.py --label "npm install typescript typedoc" -- \
        npm install --prefix "$TS" --no-audit --no-fund --silent "typescript@$TS_VERSION" \
        "typedoc@$TYPEDOC_VERSION" "@types/node@$NODE_TYPES_VERSION"
fi
echo "wasm: tsc --strict --noEmit tests/wasm/example.ts"
"$TS/node_modules/.bin/tsc" --strict --noEmit --target es2022 --module es2022 \
    --moduleResolution bundler --lib esnext,dom tests/wasm/example.ts
echo "wasm: tsc ok"

# Each line of an example's output that must be there, as an extended
# regular expression matching the whole line.
expect_lines() {
    local name="$1" output="$2"
    shift 2
    for pattern in "$@"; do
        grep -qxE -- "$pattern" <<<"$output" ||
            { printf 'wasm: %s printed no line matching "%s":\n%s\n' "$name" "$pattern" "$output" >&2; exit 1; }
    done
    echo "wasm: $name printed what it should ($# lines checked)"
}
echo "wasm: the JavaScript example (node examples/node/play.mjs)"
out="$(node examples/node/play.mjs)"
expect_lines play.mjs "$out" \
    "jump moves: K6-G9 K6-G9-G11 K6-G9-G11-J11" \
    "after K6-G9-G11-J11: ball on J11, 0 men left, X to move" \
    "scoring jump: C3-C6, result O wins after 7 moves" \
    "record read back: B4 A5 B3 A3 C4 C5 C3-C6" \
    "the engine's move within 200 ms is legal: true" \
    "start:5x7: win within 23, certified true, first move C5"
# Compiled beside a link to web/, as the example's imports expect it.
# --skipLibCheck: the package's phutball.d.ts is checked above (example.ts),
# and checking @types/node's own declarations too took 5.8 s, not 1.8 s.
echo "wasm: the TypeScript example (examples/node/analyse.ts: tsc --strict, then node)"
compiled="$(mktemp -d)"
trap 'rm -rf "$first" "$compiled"' EXIT
ln -s "$ROOT/web" "$compiled/web"
"$TS/node_modules/.bin/tsc" --strict --skipLibCheck --target es2022 --module es2022 --moduleResolution bundler \
    --lib esnext,dom --typeRoots "$TS/node_modules/@types" --types node \
    --outDir "$compiled/examples/node" examples/node/analyse.ts
out="$(node "$compiled/examples/node/analyse.js")"
expect_lines analyse.ts "$out" \
    "standard start: searched, best move [A-O][0-9]+, line of [0-9]+" \
    "legal: true, depth [0-9]+, [0-9]+ nodes" \
    "after K6-G9-G11: further jumps J11" \
    "ended on G11, X to move" \
    "start:3x7: win in 7 plies, first move [A-C][0-9]+"

echo "wasm: the TypeScript reference (typedoc --options tests/wasm/typedoc.config.mjs: target/typescript-reference, warnings as errors)"
rm -rf target/typescript-reference
"$TS/node_modules/.bin/typedoc" --logLevel Warn --options tests/wasm/typedoc.config.mjs
[ -f target/typescript-reference/classes/Position.html ] ||
    { echo "wasm: typedoc wrote no page for Position" >&2; exit 1; }
echo "wasm: the TypeScript reference is in target/typescript-reference/index.html"

echo "wasm: the playground page in headless Chromium (tests/wasm/page_test.py)"
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
    echo "wasm: installing chromium and chromium-driver (apt-get, root)"
    python3 scripts/heartbeat.py --label "apt-get install chromium" -- \
        apt-get install -y -qq chromium chromium-driver
fi
timeout 300 python3 tests/wasm/page_test.py
