#!/usr/bin/env bash
# `npm run release`: builds the plugin from a clean checkout with the pinned
# toolchain (toolchain.toml) and writes release/: main.js, manifest.json,
# styles.css and SHA256SUMS, the files a GitHub release attaches.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# A release is built from a commit, so main.js's first line names that commit
# and anyone can rebuild it; local changes would make both untrue.
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "release: not a git checkout; clone the repository and run npm run release there." >&2
	exit 1
fi
if [ -n "$(git status --porcelain)" ]; then
	echo "release: the working tree has changes that are not committed:" >&2
	git status --short >&2
	echo "release: commit them (or git stash -u), then run npm run release again." >&2
	exit 1
fi

export VAULT_AGENT_RELEASE=1
. scripts/toolchain.sh
node scripts/toolchain-pins.mjs
VAULT_AGENT_NO_EMULATOR=1 bash scripts/build.sh

commit="$(git rev-parse HEAD)"
if ! head -n 1 main.js | grep -q "; commit $commit;"; then
	echo "release: main.js does not name commit $commit in its first line (did the build change a tracked file?)" >&2
	git status --short >&2
	exit 1
fi

node scripts/release-files.mjs "$root" "$root/release" >/dev/null
echo
echo "release: commit $commit, version $(node -p 'require("./manifest.json").version')"
ls -l release | awk 'NR > 1 {print "release: " $5 " bytes  release/" $9}'
echo "release: SHA256SUMS"
cat release/SHA256SUMS
