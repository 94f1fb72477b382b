#!/usr/bin/env bash
# The npm package's tests, from a clean clone: builds it (scripts/build-wasm.sh:
# the wasm32 target, wasm-bindgen-cli, web/pkg), runs tests/wasm/*.test.mjs
# with `node --test` (the seeds' worked example, a game record read back,
# the engine within a time limit, bad input as named errors), checks
# tests/wasm/example.ts with `tsc --strict --noEmit` (typescript installed
# by npm into target/wasm-ts, announced), lints the bindings for wasm32
# (cargo clippy --target wasm32-unknown-unknown), then the playground page in
# headless Chromium (tests/wasm/page_test.py; chromium and chromium-driver
# from apt-get if missing, announced).
# Exits non-zero on any failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
TS="$ROOT/target/wasm-ts"
TS_VERSION=5.9.3

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

if [ "$("$TS/node_modules/.bin/tsc" --version 2>/dev/null)" != "Version $TS_VERSION" ]; then
    echo "wasm: installing typescript $TS_VERSION into target/wasm-ts (npm install)"
    mkdir -p "$TS"
    python3 scripts/heartbeat.py --label "npm install typescript" -- \
        npm install --prefix "$TS" --no-audit --no-fund --silent "typescript@$TS_VERSION"
fi
echo "wasm: tsc --strict --noEmit tests/wasm/example.ts"
"$TS/node_modules/.bin/tsc" --strict --noEmit --target es2022 --module es2022 \
    --moduleResolution bundler --lib esnext,dom tests/wasm/example.ts
echo "wasm: tsc ok"

echo "wasm: the playground page in headless Chromium (tests/wasm/page_test.py)"
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
    echo "wasm: installing chromium and chromium-driver (apt-get, root)"
    python3 scripts/heartbeat.py --label "apt-get install chromium" -- \
        apt-get install -y -qq chromium chromium-driver
fi
timeout 300 python3 tests/wasm/page_test.py
