#!/usr/bin/env bash
# Installs what the build needs on a machine that has only Rust (rustup), Node
# and npm. Safe to run again: every step is skipped when already done.
# Source it (`. scripts/toolchain.sh`) so PATH changes reach the caller.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Every pinned version comes from toolchain.toml (one `name = "version"` a line).
toolchain_pin() {
	sed -n "s/^$1 = \"\\(.*\\)\"\$/\\1/p" "$root/toolchain.toml"
}

# The Rust that builds the wasm decides its bytes. An ordinary build goes on with
# another Rust (with a warning); a release (VAULT_AGENT_RELEASE=1) switches to
# the pinned toolchain when rustup has it installed, and otherwise stops. It never
# downloads a toolchain by itself.
RUST_VERSION="$(toolchain_pin rust)"
rust_found="$(rustc --version | awk '{print $2}')"
if [ "$rust_found" != "$RUST_VERSION" ]; then
	if [ "${VAULT_AGENT_RELEASE:-}" = "1" ] && rustup toolchain list 2>/dev/null | grep -q "^$RUST_VERSION-"; then
		export RUSTUP_TOOLCHAIN="$RUST_VERSION"
		echo "toolchain: using the installed Rust $RUST_VERSION pinned in toolchain.toml (the default is $rust_found)"
	elif [ "${VAULT_AGENT_RELEASE:-}" = "1" ]; then
		echo "toolchain: Rust $rust_found found; a release needs Rust $RUST_VERSION (toolchain.toml). Install it with" >&2
		echo "  rustup toolchain install $RUST_VERSION --profile minimal --target wasm32-unknown-unknown" >&2
		echo "and run the release again (it is then picked up by itself)." >&2
		exit 1
	else
		echo "toolchain: warning: Rust $rust_found, not the $RUST_VERSION pinned in toolchain.toml; main.js will not be byte-identical to a release build" >&2
	fi
fi
export RUST_VERSION

# Node's zlib compresses the inlined wasm (Brotli): a release needs the pinned Node too.
NODE_VERSION="$(toolchain_pin node)"
node_found="$(node --version | sed 's/^v//')"
if [ "$node_found" != "$NODE_VERSION" ]; then
	if [ "${VAULT_AGENT_RELEASE:-}" = "1" ]; then
		echo "toolchain: Node $node_found found; a release needs Node $NODE_VERSION (toolchain.toml)." >&2
		exit 1
	fi
	echo "toolchain: warning: Node $node_found, not the $NODE_VERSION pinned in toolchain.toml; main.js may differ from a release build" >&2
fi

# The CLI must equal the wasm-bindgen crate version exactly (Cargo.toml pins the
# crate with `=`; tests/node/toolchain-pins.test.mjs checks they agree).
WASM_BINDGEN_VERSION="$(toolchain_pin wasm-bindgen)"
if [ -z "$WASM_BINDGEN_VERSION" ] || [ -z "$RUST_VERSION" ] || [ -z "$NODE_VERSION" ]; then
	echo "toolchain: could not read the pinned versions from toolchain.toml" >&2
	exit 1
fi
export WASM_BINDGEN_VERSION
# VAULT_AGENT_TOOLS_DIR: where the installed CLI lives, so that fresh clones
# (scripts/check-reproducible.sh) can share one install of the pinned version.
tools_dir="${VAULT_AGENT_TOOLS_DIR:-$root/.tools}/wasm-bindgen-$WASM_BINDGEN_VERSION"

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
	echo "toolchain: adding the wasm32-unknown-unknown target"
	rustup target add wasm32-unknown-unknown
fi

if [ ! -x "$tools_dir/bin/wasm-bindgen" ]; then
	echo "toolchain: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION into .tools/ (a minute or two, once)"
	# Without --locked: the CLI's lockfile pins crates this registry may lack.
	# --debug: it compiles in half the time (71 s against 130 s on 2 cores);
	# a build's one run of it takes 1.5 s instead of 0.4 s and the wasm
	# boundary's test runner 26 s instead of 6 s, so a fresh machine saves
	# about 40 s in all. Its output is byte for byte the same (the glue and
	# wasm do not depend on how the CLI itself was compiled).
	cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$tools_dir" --debug
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
