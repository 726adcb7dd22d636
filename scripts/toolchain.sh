#!/usr/bin/env bash
# Installs what the build needs on a machine that has only Rust (rustup), Node
# and npm. Safe to run again: every step is skipped when already done.
# Source it (`. scripts/toolchain.sh`) so PATH changes reach the caller.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The CLI must equal the wasm-bindgen crate version exactly (pinned with `=`).
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$root/Cargo.toml")"
if [ -z "$WASM_BINDGEN_VERSION" ]; then
	echo "toolchain: could not read the pinned wasm-bindgen version from Cargo.toml" >&2
	exit 1
fi
export WASM_BINDGEN_VERSION
tools_dir="$root/.tools/wasm-bindgen-$WASM_BINDGEN_VERSION"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
	echo "toolchain: adding the wasm32-unknown-unknown target"
	rustup target add wasm32-unknown-unknown
fi

if [ ! -x "$tools_dir/bin/wasm-bindgen" ]; then
	echo "toolchain: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into .tools/ (a few minutes, once)"
	# Without --locked: the CLI's lockfile pins crates this registry may lack.
	cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$tools_dir"
fi
export PATH="$tools_dir/bin:$PATH"

installed_version="$(wasm-bindgen --version | awk '{print $2}')"
if [ "$installed_version" != "$WASM_BINDGEN_VERSION" ]; then
	echo "toolchain: wasm-bindgen $installed_version found, $WASM_BINDGEN_VERSION needed" >&2
	exit 1
fi

# npm ci only when the lockfile changed since the last install.
stamp="$root/node_modules/.vault-agent-lock-stamp"
if [ ! -f "$stamp" ] || ! cmp -s "$root/package-lock.json" "$stamp"; then
	echo "toolchain: installing npm packages (npm ci)"
	(cd "$root" && npm ci --no-audit --no-fund)
	cp "$root/package-lock.json" "$stamp"
fi
