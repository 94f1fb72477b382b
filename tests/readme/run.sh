#!/usr/bin/env bash
# The README's install lines, run as written (its "Start here"): the CLI's
# `cargo install --path crates/phutball-cli` and the notebook user's
# `pip install -v ".[notebook]" jupyterlab`, each in a place of its own (a
# cargo --root and a new virtual environment under target/readme-installs),
# then the first program of each: the README's `phutball jumps` line and its
# first Python block, which must print what their comments say; and the Rust
# user's dependency lines and main in a new package next to the repository.
# The other audiences' lines run elsewhere: the C install and program in
# tests/c/run.sh, the RL block in tests/python/test_readme.py, the
# package build and Node program in tests/wasm/run.sh. Run after tests/python/run.sh, whose release
# CLI build it reuses (target/); the pip line builds the extension itself
# (its release wheel is linked by zig, pip's build is not); cold, each
# install builds for minutes.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"
work="$CARGO_TARGET_DIR/readme-installs"
rm -rf "$work"
mkdir -p "$work"
say() { echo "readme/run.sh: $*"; }

# The "Start here" section's shell lines, comments cut off.
start_here_shell() {
    awk '/^## Start here/{on=1} /^## Two commands/{on=0} on&&/^```sh$/{c=1;next} c&&/^```$/{c=0} c' README.md |
        sed 's/[[:space:]][[:space:]]*#[[:space:]].*$//'
}
readme_line() {
    local line
    line="$(start_here_shell | grep -m1 "^$1" || true)"
    if [ -z "$line" ]; then
        echo "readme/run.sh: the README's Start here has no line starting '$1'" >&2
        exit 1
    fi
    echo "$line"
}
# What a line's comment promises: the text after its last ` # ` on the README's line
# (a position string has #s of its own).
promised() { grep -m1 -F "$1" README.md | sed 's/^.*[[:space:]]#[[:space:]]*//'; }

cargo_line="$(readme_line "cargo install ")"
say "$cargo_line   (with --root $work/cargo, not ~/.cargo)"
# shellcheck disable=SC2086 # the README's line, split into its words
$cargo_line --root "$work/cargo"
jumps_line="$(readme_line "phutball jumps ")"
want="$(promised "$jumps_line")"
say "the README's '$jumps_line' with the installed binary prints: $want"
got="$(PATH="$work/cargo/bin:$PATH" bash -c "$jumps_line" | tr '\n' ' ')"
for path in ${want//,/ }; do
    case " $got " in
        *" $path "*) ;;
        *) echo "readme/run.sh: '$path' is not in its output: $got" >&2; exit 1 ;;
    esac
done

pip_line="$(readme_line "pip install ")"
python="${PYTHON:-python3}"
"$python" -m venv "$work/venv"
say "$pip_line   (in a new virtual environment, $work/venv; maturin's cargo lines show its progress)"
(
    # shellcheck disable=SC1091
    source "$work/venv/bin/activate"
    python3 scripts/heartbeat.py --merge --label "readme/run.sh: pip install" -- bash -c "$pip_line --disable-pip-version-check"
)
# The line's alternative, in its comment: scripts/install-python.sh.
alternative="$(grep -m1 -o 'or: scripts/install-python.sh [^`]*' README.md | sed 's/^or: //; s/[[:space:]]*$//')"
[ -n "$alternative" ] || { echo "readme/run.sh: the README lost its install-python.sh alternative" >&2; exit 1; }
"$python" -m venv "$work/venv-script"
say "$alternative --python $work/venv-script/bin/python   (the pip line's alternative, into a second new environment)"
# shellcheck disable=SC2086 # the README's words
bash $alternative --python "$work/venv-script/bin/python"
(cd / && "$work/venv-script/bin/python" -c "import phutball, anywidget; print('readme/run.sh: the script installed phutball', phutball.__version__)")
first_block="$(awk '/^## Start here/{on=1} /^## Two commands/{on=0} on&&/^```python$/{c=1;next} c&&/^```$/{exit} c' README.md)"
[ -n "$first_block" ] || { echo "readme/run.sh: the README's Start here has no Python block" >&2; exit 1; }
print_line="$(grep -m1 '^print(' <<<"$first_block")"
want="$(sed 's/^.*[[:space:]]#[[:space:]]*//' <<<"$print_line")"
say "the README's first Python block in that environment (from /, not the checkout) prints: $want"
got="$(cd / && "$work/venv/bin/python" -c "$first_block")"
if [ "$got" != "$want" ]; then
    echo "readme/run.sh: it printed '$got'" >&2
    exit 1
fi
"$work/venv/bin/python" -c "import jupyterlab, anywidget" ||
    { echo "readme/run.sh: the notebook install has no jupyterlab or anywidget" >&2; exit 1; }

# The Rust user's project: the README's [dependencies] block and its main,
# in a new package next to the repository (as the README's path lines
# expect), built and run with cargo (a debug build of its own: half a minute).
# Outside the repository's tree, or cargo takes the package for a member of
# its workspace.
user="$(mktemp -d)"
trap 'rm -rf "$user"' EXIT
mkdir -p "$user/first/src"
ln -s "$repo" "$user/phutball"
start_here_block() {
    awk -v lang="$1" '/^## Start here/{on=1} /^## Two commands/{on=0} on&&$0=="```"lang{c=1;next} c&&/^```$/{exit} c' README.md
}
{
    printf '[package]\nname = "first"\nversion = "0.1.0"\nedition = "2021"\n\n'
    start_here_block toml
} >"$user/first/Cargo.toml"
start_here_block rust >"$user/first/src/main.rs"
grep -q '^phutball = ' "$user/first/Cargo.toml" && grep -q 'fn main' "$user/first/src/main.rs" ||
    { echo "readme/run.sh: the README's Start here lost its toml or Rust block" >&2; exit 1; }
want="$(grep -m1 'println!' "$user/first/src/main.rs" | sed 's/^.*[[:space:]]\/\/[[:space:]]*//')"
say "the README's Rust dependency lines and main in a new package next to the repository (cargo run) print: $want"
got="$(cd "$user/first" && CARGO_TARGET_DIR="$work/rust-user-target" cargo run)"
if [ "$got" != "$want" ]; then
    echo "readme/run.sh: it printed '$got'" >&2
    exit 1
fi
say "ok: the install lines and each one's first program work as the README says"
