#!/usr/bin/env bash
# CONTRIBUTING.md's command 2 (`npm test`, and CI): set up, build, and run
# every check and test suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Each step says when it starts, in seconds since the test command began, so
# a slow CI run shows which step took the time.
started=$SECONDS
step() { printf '\n==> [%ds] %s\n' "$((SECONDS - started))" "$*"; }

step "toolchain (Rust target, wasm-bindgen-cli, npm ci)"
. scripts/toolchain.sh
step "build (scripts/build.sh)"
bash scripts/build.sh

step "cargo fmt --check"
cargo fmt --all --check

step "cargo clippy (native and wasm32)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p vault-agent --target wasm32-unknown-unknown --lib --test wasm_boundary -- -D warnings

step "cargo test (core, emulator)"
# The snapshot tests (tests/snapshots/) fail on any changed text, whatever
# the caller's environment says (INSTA_FORCE_PASS or INSTA_UPDATE=always
# would pass them): in CI nothing is written, elsewhere the new text lands
# beside the old as a .snap.new file to review (README, "Snapshot tests").
unset INSTA_FORCE_PASS
if [ -n "${CI:-}" ]; then export INSTA_UPDATE=no; else export INSTA_UPDATE=new; fi
cargo test --workspace

step "wasm-bindgen-test in Node (the wasm boundary)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	cargo test -p vault-agent --target wasm32-unknown-unknown --test wasm_boundary

step "tsc --noEmit"
npx --no-install tsc --noEmit

step "madge: no import cycle in plugin-shim/ (type-only imports count)"
npx --no-install madge --circular --extensions ts --ts-config tsconfig.json plugin-shim

step "eslint (eslint-plugin-obsidianmd recommended)"
npx --no-install eslint --max-warnings 0 plugin-shim package.json manifest.json

step "node tests against the built main.js"
# Two test files at a time, one per core of a 2-core CI machine: each file
# is mostly waiting on the processes it starts (the suite went from 3.8 to
# 2.1 minutes here, every test passing as before).
# Any promise rejection nobody handled fails the run (tests/support/no-unhandled-rejections.mjs).
node --test --test-concurrency=2 --import ./tests/support/no-unhandled-rejections.mjs tests/node/

step "Chromium for the browser tests (Debian's package)"
# VAULT_AGENT_CHROMIUM names another Chromium-based browser (the GitHub
# runners' Google Chrome, say); tests/support/browser.mjs launches it.
if [ -n "${VAULT_AGENT_CHROMIUM:-}" ]; then
	if [ ! -x "$VAULT_AGENT_CHROMIUM" ]; then
		echo "test.sh: VAULT_AGENT_CHROMIUM=$VAULT_AGENT_CHROMIUM is not an executable browser; unset it to use /usr/bin/chromium." >&2
		exit 1
	fi
elif [ ! -x /usr/bin/chromium ]; then
	if [ "$(id -u)" -eq 0 ]; then as_root=(env); elif command -v sudo >/dev/null 2>&1; then as_root=(sudo env); else as_root=(); fi
	if [ "${#as_root[@]}" -eq 0 ] || ! { "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update && "${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }; then
		echo "test.sh: /usr/bin/chromium is missing and could not be installed (needs root or sudo, and apt-get install -y chromium); the browser tests need it." >&2
		exit 1
	fi
fi

step "browser tests: the built main.js in Chromium"
node --test --test-concurrency=2 tests/browser/

printf '\nAll checks passed (%ds).\n' "$((SECONDS - started))"
