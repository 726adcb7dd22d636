#!/usr/bin/env bash
# README command 2 (and CI): set up, build, and run every check and test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/toolchain.sh
bash scripts/build.sh

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (native and wasm32)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p vault-agent --target wasm32-unknown-unknown --lib --test wasm_boundary -- -D warnings

step "cargo test (core, emulator)"
cargo test --workspace

step "wasm-bindgen-test in Node (the wasm boundary)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	cargo test -p vault-agent --target wasm32-unknown-unknown --test wasm_boundary

step "tsc --noEmit"
npx --no-install tsc --noEmit

step "eslint (eslint-plugin-obsidianmd recommended)"
npx --no-install eslint --max-warnings 0 plugin-shim package.json

step "node tests against the built main.js"
node --test --test-concurrency=1 tests/node/

printf '\nAll checks passed.\n'
