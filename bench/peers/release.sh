#!/bin/bash
# The release workload as a user would script it with curl (bench/release.mjs): the same calls
# as release.yml, failing on a critical alert or an unsuccessful update. `release.sh URL`.
set -euo pipefail
api() { curl -sf -u "$ENGINE_USERNAME:$ENGINE_PASSWORD" -H 'content-type: application/json' "$@"; }
if api "$1/api/monitoring/v1/alerts" | grep -q '"severity":"critical"'; then echo "critical alert" >&2; exit 1; fi
api -X POST "$1/api/devops/v1/transaction-log/clear" > /dev/null
api -X POST "$1/api/devops/v1/replication/sync" > /dev/null
api -d '{"targetDBName":"PROD","targetServer":"prod-db.example.com","targetAuthToken":"prod-token","files":[1001,1004]}' "$1/api/devops/v1/update/vfs" | grep -q '"success":true'
for t in STAGING:staging-db.example.com:staging-token PROD:prod-db.example.com:prod-token; do
  IFS=: read -r db server token <<< "$t"
  api -d "{\"targetDBName\":\"$db\",\"targetServer\":\"$server\",\"targetAuthToken\":\"$token\",\"trackingId\":\"REL-1\"}" "$1/api/devops/v1/update/system" | grep -q '"success":true'
done
