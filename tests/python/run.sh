#!/usr/bin/env bash
# The Python package's test suite: builds the extension into a virtual
# environment at .venv (created if missing), builds the CLI for the
# cross-check against the Rust core, runs pytest and the extension's Rust
# tests, checks the type stubs (python/phutball/_phutball.pyi) against the
# built module with mypy's stubtest, and checks that an abi3 wheel builds. Idempotent; exits non-zero on any failure.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
# maturin develop needs an active virtual environment.
# shellcheck disable=SC1091
source .venv/bin/activate

pip_quiet=(python -m pip install --quiet --disable-pip-version-check)
"${pip_quiet[@]}" "maturin>=1.9,<2" pytest numpy mypy
# PettingZoo is optional: the environment tests use its api_test when it is here.
"${pip_quiet[@]}" pettingzoo gymnasium || echo "run.sh: pettingzoo/gymnasium did not install; their tests will be skipped" >&2
# cairosvg is optional too: the PNG pictures' test uses it when it is here.
"${pip_quiet[@]}" cairosvg || echo "run.sh: cairosvg did not install; the PNG test will be skipped" >&2

# The notebook pieces: the widget (anywidget), its browser test (selenium
# driving Debian's chromium and chromium-driver) and the tour notebook's run
# (nbclient, ipykernel). These are required: their tests fail without them.
"${pip_quiet[@]}" anywidget selenium nbclient nbformat ipykernel
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "run.sh: installing chromium and chromium-driver with apt-get (for tests/python/test_widget_browser.py)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null ||
            { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; } ||
            echo "run.sh: chromium did not install: the widget's browser test will fail" >&2
    else
        echo "run.sh: /usr/bin/chromium or /usr/bin/chromedriver is missing and this is not root: install chromium and chromium-driver, or the widget's browser test fails" >&2
    fi
fi

maturin develop --release --quiet

cargo build --release --quiet -p phutball-cli
export PHUTBALL_CLI="$CARGO_TARGET_DIR/release/phutball"

python -m pytest -q tests/python "$@"

# The extension's Rust tests (the exception table in docs/python.md against
# the mapping): they link the interpreter, so they run here, not in the
# workspace's `cargo test`.
PYO3_PYTHON="$(command -v python)" cargo test --quiet -p phutball-py --lib

# The stubs name what the extension has, with the same signatures.
python -m mypy.stubtest phutball._phutball

# The wheel: abi3, installable by pip.
wheel_dir="$CARGO_TARGET_DIR/python-wheels"
rm -rf "$wheel_dir"
maturin build --release --quiet --out "$wheel_dir"
ls "$wheel_dir"/phutball-*-cp39-abi3-*.whl >/dev/null
wheel="$(ls "$wheel_dir"/phutball-*.whl)"
# The wheel installs on its own (not the editable build) and works.
check_venv="$CARGO_TARGET_DIR/python-wheel-check"
[ -x "$check_venv/bin/python" ] || "$python" -m venv "$check_venv"
"$check_venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall "$wheel"
(cd "$check_venv" && bin/python -c "import phutball; assert phutball.Position().count_legal_moves() == 284; print('run.sh: wheel works:', phutball.__file__)")
echo "run.sh: abi3 wheel built: $(basename "$wheel")"
