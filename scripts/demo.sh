#!/usr/bin/env bash
# CONTRIBUTING.md's command 1 (`npm run demo`): set up, build, and run the
# plugin's main job on the sample vault behind the CLI emulator. Extra
# arguments go to scripts/demo.mjs (e.g. `--install /path/to/vault`).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/build.sh
node scripts/demo.mjs "$@"
