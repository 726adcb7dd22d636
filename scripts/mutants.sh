#!/usr/bin/env bash
# Mutation run (see FUZZING.md, "Mutation testing"): cargo-mutants changes the
# code that decides what a call may do and what the user approves
# (src/policy/, src/base/vault_path.rs, src/cli/argv.rs, src/engine/confirm.rs)
# one small edit at a time and checks that some test fails for each. Not
# part of the test command: it builds and tests the crate once per mutant
# (hours on 2 cores).
#
#   scripts/mutants.sh [cargo-mutants options]
#
# e.g. `scripts/mutants.sh -F '^src/engine/confirm\.rs'` (one file: `--file`
# adds to the configuration's globs instead of narrowing them), `--iterate`
# (only the mutants that were not caught last time), `-j 2` (two at a time,
# on a machine with cores to spare). Which files and which test targets, and
# the mutants that are skipped as equivalent (each with its reason), are in
# .cargo/mutants.toml. Results go to mutants.out/ (missed.txt, caught.txt,
# timeout.txt, unviable.txt, outcomes.json); the exit status is cargo-mutants'
# (0: every mutant caught or unviable, 2: some missed, 3: some timed out).
set -euo pipefail

# All in one function, read whole before it runs: a run takes hours, and
# bash reads a script as it goes, so an edit meanwhile would break it.
main() {
	local root
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
	cd "$root"

	# Installed like the wasm-bindgen CLI (scripts/toolchain.sh): a pinned
	# version under .tools/ (or VAULT_AGENT_TOOLS_DIR), once.
	version="27.1.0"
	tools_dir="${VAULT_AGENT_TOOLS_DIR:-$root/.tools}/cargo-mutants-$version"
	if [ ! -x "$tools_dir/bin/cargo-mutants" ]; then
		echo "mutants: installing cargo-mutants $version into $tools_dir (a few minutes, once)"
		# --locked first (the crate's own tested lockfile); without it when this
		# registry lacks a crate that lockfile pins.
		cargo install cargo-mutants --version "$version" --locked --root "$tools_dir" ||
			cargo install cargo-mutants --version "$version" --root "$tools_dir"
	fi
	export PATH="$tools_dir/bin:$PATH"

	found="$(cargo mutants --version | awk '{print $2}')"
	if [ "$found" != "$version" ]; then
		echo "mutants: cargo-mutants $found found, $version needed" >&2
		exit 1
	fi

	# A mutant that changes a card or a message must fail the snapshot tests,
	# never rewrite them.
	unset INSTA_FORCE_PASS
	export INSTA_UPDATE=no

	echo "==> cargo mutants $version over $(cargo mutants --list "$@" | wc -l) mutants, $(nproc) cores (see .cargo/mutants.toml)"
	started="$(date +%s)"
	status=0
	cargo mutants --no-shuffle "$@" || status=$?
	elapsed=$(($(date +%s) - started))

	count() { if [ -f "mutants.out/$1.txt" ]; then wc -l <"mutants.out/$1.txt" | tr -d ' '; else echo 0; fi; }
	echo
	echo "==> $(date -u +%Y-%m-%d), $((elapsed / 60)) min: caught $(count caught), missed $(count missed), unviable $(count unviable), timeouts $(count timeout)"
	if [ "$(count missed)" != 0 ]; then
		echo "missed (each needs a test that fails, or a reason in .cargo/mutants.toml and beside the code):"
		sed 's/^/  /' mutants.out/missed.txt
	fi
	exit "$status"
}
main "$@"
