#!/usr/bin/env bash
# The engine's test suite: the engine crate (unit, guarantee, search and doc
# tests) and the CLI's engine subcommands. Needs only cargo; exits non-zero
# on any failure. The strength measurements are not run here (they take
# minutes): see docs/engine.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo test -p phutball-engine
cargo test -p phutball-cli --test engine_commands
# The C and Python engine wrappers are tested by those crates' own suites
# (tests/c/, tests/python/).
