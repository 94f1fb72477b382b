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

maturin develop --release --quiet
# The extra of phutball.distributed (Ray, pyarrow, tqdm), as users install it:
# its tests need a real Ray cluster, so a failed install fails the suite.
# Its requirements are read from pyproject.toml (`pip install ".[ray]"` would
# build the package again over the editable one above).
extra_started=$SECONDS
mapfile -t ray_extra < <(python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["ray"]))')
"${pip_quiet[@]}" "${ray_extra[@]}" ||
    { echo "run.sh: the ray extra (pyproject.toml) did not install: phutball.distributed cannot be tested" >&2; exit 1; }
echo "run.sh: the ray extra is installed ($((SECONDS - extra_started)) s)"

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
