#!/usr/bin/env bash
# Builds the phutball Python package from this checkout and installs it, with
# the build's progress on screen: `pip install -v .` (pip gets maturin, which
# runs cargo; -v shows cargo's "Compiling ..." lines, which plain `pip install .`
# hides for minutes), run by scripts/heartbeat.py, which adds a line whenever
# 20 s pass with no output (the link with LTO is long and silent).
# Needs Rust (cargo, 1.85 or later: https://rustup.rs) and Python 3.9+.
# Usage: scripts/install-python.sh [--python PYTHON] [--extras LIST]
#   --python: the interpreter of the environment to install into (default:
#             the active virtual environment's, else python3)
#   --extras: pyproject.toml's optional dependencies, e.g. env,notebook
set -euo pipefail

usage() {
    echo "usage: scripts/install-python.sh [--python PYTHON] [--extras LIST]   (LIST: env, png, notebook, ray, test, comma-separated)" >&2
    exit 2
}
python=""
extras=""
while [ $# -gt 0 ]; do
    case "$1" in
        --python) [ $# -ge 2 ] || usage; python="$2"; shift 2 ;;
        --extras) [ $# -ge 2 ] || usage; extras="$2"; shift 2 ;;
        *) usage ;;
    esac
done
if [ -z "$python" ]; then
    if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
        python="$VIRTUAL_ENV/bin/python"
    else
        python=python3
    fi
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    echo "install-python.sh: '$python' is not a Python 3.9 or later (give one with --python)" >&2
    exit 1
fi
if ! command -v cargo >/dev/null; then
    echo "install-python.sh: building the package needs Rust (cargo 1.85 or later; https://rustup.rs), and there is no cargo on PATH" >&2
    exit 1
fi
where="$("$python" -c 'import sys; print(sys.prefix)')"
target="${CARGO_TARGET_DIR:-$root/target}"
echo "install-python.sh: building the phutball wheel with Rust and installing it into $where (pip install -v .${extras:+[$extras]})"
echo "install-python.sh: pip fetches maturin, which builds crates/phutball-py and the core in release mode"
echo "  (thin LTO) in $target: about a minute from cold on 2 cores (4 on a busy machine), seconds when built;"
echo "  cargo's lines show its progress, and a '... still running' line comes after 20 s without one"
"$python" scripts/heartbeat.py --merge --label "install-python.sh: pip install" -- "$python" -m pip install -v --disable-pip-version-check ".${extras:+[$extras]}"
# From / so that the checkout's files cannot shadow the installed package.
echo "install-python.sh: installed $(cd / && "$python" -c 'import phutball; print("phutball", phutball.__version__, "at", phutball.__file__)')"
