#!/usr/bin/env bash
# Checks that a release build is reproducible: clones the current commit twice
# into two unrelated temporary paths, runs `npm run release` in each, and
# compares the two main.js byte for byte (printing the first difference).
# The clones share only the pinned tools (the wasm-bindgen CLI in .tools, the
# Rust toolchain, npm's and cargo's download caches). The second one also gets
# its own CARGO_HOME (with the downloaded crates linked in), so the crates'
# source paths differ between the two builds as they would between machines.
# Usage: bash scripts/check-reproducible.sh   (builds HEAD; commit first)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
commit="$(git rev-parse HEAD)"
if [ -n "$(git status --porcelain)" ]; then
	echo "check-reproducible: note: uncommitted changes are not part of the check; it builds commit $commit" >&2
fi

. scripts/toolchain.sh # installs the pinned wasm-bindgen CLI once, for both clones
export VAULT_AGENT_TOOLS_DIR="${VAULT_AGENT_TOOLS_DIR:-$root/.tools}"
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR
cargo_home="${CARGO_HOME:-$HOME/.cargo}"

work="$(mktemp -d "${TMPDIR:-/tmp}/vault-agent-repro.XXXXXX")"
first="$work/first/vault-agent"
second="$work/elsewhere/second-clone"
mkdir -p "$work/cargo-home-2" "$(dirname "$first")" "$(dirname "$second")"
ln -s "$cargo_home/registry" "$work/cargo-home-2/registry"

start=$SECONDS
for clone in "$first" "$second"; do
	git clone --quiet --no-local "$root" "$clone"
	git -C "$clone" checkout --quiet --detach "$commit"
done
echo "check-reproducible: building $commit in $first"
(cd "$first" && npm run --silent release)
echo "check-reproducible: building $commit in $second (CARGO_HOME=$work/cargo-home-2)"
(cd "$second" && CARGO_HOME="$work/cargo-home-2" npm run --silent release)
elapsed=$((SECONDS - start))

if cmp -s "$first/main.js" "$second/main.js"; then
	echo "check-reproducible: main.js is byte-identical ($(wc -c <"$first/main.js") bytes, sha256 $(sha256sum "$first/main.js" | cut -d' ' -f1)); both builds took ${elapsed} s"
	cmp -s "$first/release/SHA256SUMS" "$second/release/SHA256SUMS" || { echo "check-reproducible: SHA256SUMS differ" >&2; exit 1; }
	rm -rf "$work"
	exit 0
fi

echo "check-reproducible: main.js DIFFERS between the two builds (kept in $work)" >&2
node - "$first/main.js" "$second/main.js" <<'JS' >&2
const fs = require("node:fs");
const [a, b] = process.argv.slice(2).map((file) => fs.readFileSync(file));
let at = 0;
while (at < a.length && at < b.length && a[at] === b[at]) at++;
const show = (bytes) => JSON.stringify(bytes.subarray(Math.max(0, at - 60), at + 60).toString("latin1"));
console.log(`first difference at byte ${at} (sizes ${a.length} and ${b.length})`);
console.log(`first:  ${show(a)}`);
console.log(`second: ${show(b)}`);
JS
for file in build/wasm/vault_agent_bg.wasm build/wasm/vault_agent.js; do
	cmp "$first/$file" "$second/$file" >&2 || true
done
exit 1
