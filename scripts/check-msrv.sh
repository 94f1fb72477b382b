#!/usr/bin/env bash
# The crates build with the Rust they declare (the workspace's
# rust-version, Cargo.toml): `cargo +VERSION check` of every crate but the
# benchmarks (the tests need proptest's newer Rust). rustup installs that
# toolchain if missing (minimal profile, about 20 s once).
#
# A check that cannot run fails: no rustup, or rustup cannot install the
# toolchain (no network to its server?). PHUTBALL_SKIP_MSRV=REASON skips
# it instead, saying so; scripts/test.sh names the skip and its reason in
# its closing line.
#
# MSRV_FAULT=1 injects a fault (scripts/inject-faults.sh): it checks, the
# same way, a crate made here that declares this rust-version and calls
# Vec::pop_if (Rust 1.86), so the check must fail.
# Usage: scripts/check-msrv.sh
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
target="${CARGO_TARGET_DIR:-$root/target}"
version="$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' Cargo.toml)"
if [ -n "${PHUTBALL_SKIP_MSRV:-}" ]; then
    echo "Rust $version (rust-version): skipped (PHUTBALL_SKIP_MSRV: $PHUTBALL_SKIP_MSRV)"
    exit 0
fi
if ! command -v rustup >/dev/null; then
    echo "Rust $version (rust-version): FAILED, there is no rustup to install it (PHUTBALL_SKIP_MSRV=REASON skips the check)"
    exit 1
fi
echo "Rust $version (rust-version): installing it with rustup if missing (minimal profile), then cargo +$version check"
if ! timeout 300 rustup toolchain install "$version" --profile minimal --no-self-update >/dev/null 2>&1; then
    echo "Rust $version: FAILED, rustup could not install it (no network to its server?; PHUTBALL_SKIP_MSRV=REASON skips the check)"
    exit 1
fi
if [ "${MSRV_FAULT:-}" = 1 ]; then
    fault="$target/msrv-fault"
    echo "Rust $version: fault injected: checking $fault, which calls Vec::pop_if (Rust 1.86)"
    mkdir -p "$fault/src"
    printf '[package]\nname = "msrv-fault"\nversion = "0.0.0"\nedition = "2021"\nrust-version = "%s"\n\n[workspace]\n' \
        "$version" >"$fault/Cargo.toml"
    printf 'pub fn last_even(v: &mut Vec<u32>) -> Option<u32> {\n    v.pop_if(|x| *x %% 2 == 0)\n}\n' >"$fault/src/lib.rs"
    exec cargo "+$version" check --quiet --manifest-path "$fault/Cargo.toml" --target-dir "$target/msrv-fault/target"
fi
CARGO_TARGET_DIR="$target/oldest-rust" exec cargo "+$version" check --quiet --workspace --exclude phutball-benches
