#!/usr/bin/env bash
# Builds what Obsidian installs: main.js (shim + inlined wasm core),
# manifest.json and styles.css. Also builds the CLI emulator used by the demo
# and the tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/toolchain.sh

echo "build: core → wasm32 (release)"
# Panic messages carry the source paths of the crates they come from: the
# registry's sits under CARGO_HOME, which differs between machines. Remapped to
# fixed names so the wasm is the same wherever it is built (trim-paths is not
# stable yet). Only for the wasm32 target: native builds and tests keep theirs.
# RUSTFLAGS do not enter cargo's -C metadata, so symbol hashes do not move.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$root=/vault-agent"
cargo build --lib --target wasm32-unknown-unknown --release
rm -rf build/wasm
wasm-bindgen --target web --omit-default-module-path --out-dir build/wasm \
	target/wasm32-unknown-unknown/release/vault_agent.wasm

if [ "${VAULT_AGENT_NO_WASM_OPT:-}" != "1" ]; then
	# wasm-opt from the npm binaryen package (Debian's 108 miscompiles this module).
	echo "build: wasm-opt -Oz"
	# Exactly the features rustc's wasm32 target emits; --all-features would let
	# wasm-opt introduce ones (stringref) that Electron and Node cannot load.
	npx --no-install wasm-opt -Oz --strip-debug --strip-producers \
		--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
		--enable-mutable-globals --enable-reference-types --enable-multivalue \
		build/wasm/vault_agent_bg.wasm -o build/wasm/vault_agent_bg.opt.wasm
	mv build/wasm/vault_agent_bg.opt.wasm build/wasm/vault_agent_bg.wasm
fi

# Inlined Brotli-compressed (best quality, 16 MiB window) and unpacked at load
# with Node's zlib: 29% of the wasm's size (gzip: 38%) in main.js, which
# Obsidian downloads uncompressed.
node -e 'const fs = require("fs"), zlib = require("zlib");
const wasm = fs.readFileSync("build/wasm/vault_agent_bg.wasm");
fs.writeFileSync("build/wasm/vault_agent_bg.wasm.br", zlib.brotliCompressSync(wasm, { params: {
	[zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
	[zlib.constants.BROTLI_PARAM_LGWIN]: zlib.constants.BROTLI_MAX_WINDOW_BITS,
	[zlib.constants.BROTLI_PARAM_SIZE_HINT]: wasm.length,
} }));'

echo "build: bundle main.js"
node esbuild.config.mjs production

# A release (scripts/release.sh) needs only main.js; the demo and tests need
# the emulator.
if [ "${VAULT_AGENT_NO_EMULATOR:-}" != "1" ]; then
	echo "build: CLI emulator"
	cargo build -p obsidian-cli-emulator --release
fi

ls -l main.js manifest.json styles.css | awk '{print "build: " $5 " bytes  " $9}'
