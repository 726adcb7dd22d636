#!/usr/bin/env bash
# Long fuzz run (see FUZZING.md): every target of tests/fuzz/, in release,
# one after another, for SECONDS in total (default 300), then the number of
# cases each target ran. A failure stops the run with the minimal input,
# which is also saved as tests/fuzz-corpus/<target>/found-<hash>.<ext>.
#
#   scripts/fuzz.sh [seconds]
#
# VAULT_AGENT_FUZZ_CASES sets the cases per batch (default 256). Each run
# draws its cases from a fresh seed, printed first; VAULT_AGENT_FUZZ_SEED
# gives one (the test command itself always uses the same fixed seed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

total="${1:-300}"
if ! [[ "$total" =~ ^[0-9]+$ ]] || [ "$total" -lt 6 ]; then
	echo "usage: scripts/fuzz.sh [seconds]   (a whole number, at least 6; default 300)" >&2
	exit 2
fi
targets="$(cat tests/fuzz/*.rs | grep -c '^fn fuzz_')"
per_target="$(awk -v t="$total" -v n="$targets" 'BEGIN { printf "%.1f", t / n }')"

echo "==> building tests/fuzz/ in release (not counted in the time)"
cargo test --release --test fuzz --no-run

log="$(mktemp "${TMPDIR:-/tmp}/vault-agent-fuzz.XXXXXX")"
trap 'rm -f "$log"' EXIT
seed="${VAULT_AGENT_FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"
echo "==> fuzzing $targets targets for ${total} s in all (${per_target} s each, one at a time, $(nproc) cores), VAULT_AGENT_FUZZ_SEED=$seed"
started="$(date +%s)"
status=0
VAULT_AGENT_FUZZ_SECONDS="$per_target" VAULT_AGENT_FUZZ_SEED="$seed" \
	cargo test --release --test fuzz -- --test-threads=1 --nocapture 2>&1 | tee "$log" || status=$?
elapsed=$(($(date +%s) - started))

echo
echo "==> results ($(date -u +%Y-%m-%d), ${elapsed} s, seed $seed)"
printf '%-10s %12s %8s %8s  %s\n' target cases corpus seconds reached
grep -o 'fuzz-result .*' "$log" | sed 's/^fuzz-result //' | awk '{
	target = ""; cases = ""; corpus = ""; seconds = ""; reached = ""
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "target") target = kv[2]
		else if (kv[1] == "cases") cases = kv[2]
		else if (kv[1] == "corpus") corpus = kv[2]
		else if (kv[1] == "seconds") seconds = kv[2]
		else if ($i != "clean") reached = reached " " $i
	}
	total += cases
	printf "%-10s %12s %8s %8s %s\n", target, cases, corpus, seconds, reached
} END { printf "%-10s %12s\n", "all", total }'
if [ "$status" -ne 0 ]; then
	echo "fuzz: FAILED (exit $status); the minimal input is above and in tests/fuzz-corpus/*/found-*" >&2
	exit "$status"
fi
echo "fuzz: clean"
