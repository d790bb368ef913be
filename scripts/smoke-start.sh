#!/usr/bin/env bash
# `bash scripts/smoke-start.sh [MAJOR]`: README's `npm start` on that Node (scripts/use-node.sh), on a fresh data
# directory and free ports; passes once /api/health answers {"ok":true} and the server still runs 5 s later.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh "${1:-24}"
data="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
log="$data/start.log"
PORT=$port SFU_PORT=$((port + 1)) HOST=127.0.0.1 DATA_DIR="$data" LOG_LEVEL=warn setsid npm start >"$log" 2>&1 &
pid=$!
# npm start runs the server as a grandchild: its own process group is stopped whole.
stop() { kill -TERM -- "-$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
trap 'stop; rm -rf "$data"' EXIT
for _ in $(seq 1 240); do
  if curl -fsS "http://127.0.0.1:$port/api/health" 2>/dev/null | grep -q '"ok":true'; then
    sleep 5
    if kill -0 "$pid" 2>/dev/null && curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null; then
      echo "smoke-start: npm start on $(node --version) answers /api/health on port $port"
      exit 0
    fi
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
echo "smoke-start: npm start on $(node --version) did not answer /api/health; its output:" >&2
tail -40 "$log" >&2
exit 1
