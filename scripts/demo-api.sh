#!/usr/bin/env bash
# The main job for now (npm run demo): start the embedded emulator, make real calls in the four
# API areas with `enginectl api`, then stop it. The pipeline demo replaces this in a later step.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
node dist/cli.mjs emulator --port 0 >"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q '^listening on ' "$log" && break; sleep 0.1; done
ENGINE_URL=$(sed -n 's/^listening on //p' "$log")
[ -n "$ENGINE_URL" ] || { echo "the emulator did not start" >&2; exit 1; }
export ENGINE_URL ENGINE_USERNAME=admin ENGINE_PASSWORD=admin
echo "emulator: $ENGINE_URL (admin/admin)"

call() {
  echo
  echo "\$ enginectl api $*"
  node dist/cli.mjs api "$@"
}

call GET /api/monitoring/v1/alerts
call GET '/api/classes/v1/classes/22/entities?entidade=3001'
call GET /api/licensing/v1/licenses/2
call POST /api/devops/v1/update/vfs --data '{"targetDBName":"PROD","targetServer":"prod-db.example.com","targetAuthToken":"prod-token","files":[1001,1004]}'
call POST /api/devops/v1/replication/configs/1/sync
echo
echo "demo done: 5 API calls against the embedded emulator"
