#!/usr/bin/env bash
# Builds the npm package `phutball` (WebAssembly, from crates/phutball-wasm)
# into web/pkg, from a clean clone: the wasm32-unknown-unknown target
# (rustup), wasm-bindgen-cli of exactly the wasm-bindgen version Cargo.lock
# names (cargo install --locked into target/wasm-tools, built from source, unoptimised: a
# minute or two once), then `cargo build --release --target wasm32-unknown-unknown`
# and `wasm-bindgen --target web`, with the package's package.json and
# README (crates/phutball-wasm/README.md). Each install is announced as it
# starts; long silent steps go through scripts/heartbeat.py. The page in
# web/ loads the package from web/pkg. Usage: scripts/build-wasm.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
TOOLS="$ROOT/target/wasm-tools"
OUT="$ROOT/web/pkg"
beat() { python3 scripts/heartbeat.py --label "$1" -- "${@:2}"; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "build-wasm: installing the Rust target wasm32-unknown-unknown (rustup target add)"
    beat "rustup target add" rustup target add wasm32-unknown-unknown
fi

# The CLI must be the crate's version exactly: its glue and the crate's
# custom sections change together.
version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if [ "$("$TOOLS/bin/wasm-bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "build-wasm: installing wasm-bindgen-cli $version into target/wasm-tools (cargo install, built from source, unoptimised: a minute or two once)"
    # Unoptimised, without LTO or debug info: it builds in 1 min 21 s
    # instead of 6 min 25 s here, and still binds our .wasm in 0.4 s (0.1 s
    # optimised), to the same bytes. --locked: the versions its own
    # Cargo.lock names, not the newest that resolve. The tools' bin folder
    # is put on PATH for the install only, so cargo does not warn that it
    # is missing from PATH (the binary is called by its path below), and
    # the future-incompatibility report of its dependencies is not ours.
    install_bindgen() {
        PATH="$TOOLS/bin:$PATH" CARGO_FUTURE_INCOMPAT_REPORT_FREQUENCY=never \
            CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
            CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 \
            beat "cargo install wasm-bindgen-cli" cargo install "$@" wasm-bindgen-cli --version "$version" \
            --root "$TOOLS" --target-dir "$TARGET/wasm-tools-build"
    }
    # A registry may lack a version its Cargo.lock names (here, a mirror
    # without webpki-roots 1.0.11, which 0.2.130's lock file names): then
    # the newest versions that resolve, said so.
    if ! install_bindgen --locked; then
        echo "build-wasm: the install --locked failed (the registry lacks a version wasm-bindgen-cli's Cargo.lock names: see above); installing it again with the newest versions that resolve"
        install_bindgen
    fi
fi

echo "build-wasm: cargo build -p phutball-wasm --release --target wasm32-unknown-unknown"
# The prover recurses once per ply (up to 400) on the caller's stack here
# (wasm32 has no threads): a 16 MiB stack instead of the default 1 MiB.
# No debug info: it would be most of the .wasm file.
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C link-arg=-zstack-size=16777216" \
    CARGO_PROFILE_RELEASE_DEBUG=false \
    beat "cargo build (wasm32)" cargo build -p phutball-wasm --release --target wasm32-unknown-unknown

rm -rf "$OUT"
echo "build-wasm: wasm-bindgen --target web --out-dir web/pkg"
"$TOOLS/bin/wasm-bindgen" --target web --out-dir "$OUT" --out-name phutball \
    "$TARGET/wasm32-unknown-unknown/release/phutball_wasm.wasm"
cp crates/phutball-wasm/README.md "$OUT/README.md"
crate_version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
cat > "$OUT/package.json" <<JSON
{
  "name": "phutball",
  "version": "$crate_version",
  "description": "Philosopher's Football (Phutball) in WebAssembly: positions, jumps, games, pictures and the engine",
  "license": "MIT OR Apache-2.0",
  "type": "module",
  "main": "phutball.js",
  "types": "phutball.d.ts",
  "files": ["phutball.js", "phutball.d.ts", "phutball_bg.wasm", "phutball_bg.wasm.d.ts", "README.md"],
  "sideEffects": false
}
JSON
raw=$(stat -c %s "$OUT/phutball_bg.wasm")
gz=$(gzip -9 -c "$OUT/phutball_bg.wasm" | wc -c)
echo "build-wasm: web/pkg/phutball_bg.wasm $raw bytes ($gz gzipped)"
