#!/usr/bin/env bash
# Builds, then prints the benchmark table (see BENCHMARKS.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh >/dev/null
node scripts/bench.mjs
echo
node scripts/bench-chat.mjs
echo
node scripts/bench-memory.mjs
echo
node scripts/bench-mcp.mjs
echo
node scripts/bench-mcp-attack.mjs
echo
node scripts/bench-turn.mjs
echo
node --expose-gc scripts/bench-acp.mjs
echo
node scripts/bench-acp-flood.mjs 100
echo
cargo bench --quiet --bench stream_parse
echo
node scripts/bench-browser.mjs
echo
node scripts/bench-start.mjs
echo
node scripts/bench-big-output.mjs
