#!/usr/bin/env bash
# The smoke test of one executable, run before anything is published: by `npm run release:build`
# on the files it built, by the tests, and by release.yml on each platform's own runner.
#   release/smoke.sh EXE [RUNNER...]     (from the repository root; RUNNER: e.g. an emulator such
#                                          as qemu-aarch64-static -L /usr/aarch64-linux-gnu)
# Checks: --version, a broken file (exit 2 at its line), plan, a run against an emulator process,
# the demo on the embedded emulator. Says which check failed, and exits 1.
set -uo pipefail
exe="$1"
shift
run() { "$@" "$exe" "${args[@]}"; }
dir="$(mktemp -d)"
emulator=""
cleanup() {
  if [ -n "$emulator" ]; then kill "$emulator" 2>/dev/null; wait "$emulator" 2>/dev/null; fi
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  echo "smoke: $exe: $1" >&2
  [ -f "$dir/out" ] && sed 's/^/  | /' "$dir/out" >&2
  exit 1
}
version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' package.json)"

# Output goes to files, never pipes: Node's Windows runtime under Wine writes only to files.
args=(--version)
run "$@" >"$dir/out" 2>&1
[ "$(tr -d '\r' <"$dir/out")" = "$version" ] || fail "--version did not print $version"

printf 'version: 1\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: severe }\n' >"$dir/broken.yml"
args=(validate "$dir/broken.yml")
run "$@" >"$dir/out" 2>&1
code=$?
[ "$code" = 2 ] || fail "a broken file exited $code, not 2"
grep -q 'broken\.yml:4:22' "$dir/out" || fail "a broken file's error does not name broken.yml:4:22"

args=(plan pipelines/demo.yml --emulator)
run "$@" >"$dir/out" 2>&1 || fail "plan of the demo failed"
grep -q 'update/system' "$dir/out" || fail "the plan does not list the demo's steps"

# exec: $! is the emulator itself (or its runner), which the cleanup stops, not a subshell.
args=(emulator --port 0)
(exec "$@" "$exe" "${args[@]}") >"$dir/emulator.log" 2>&1 &
emulator=$!
# Until it says where it listens or exits: no time limit here (the caller's job has one), so a
# slow machine or an emulated CPU only waits longer.
until grep -q 'listening on' "$dir/emulator.log" 2>/dev/null; do
  kill -0 "$emulator" 2>/dev/null || fail "the emulator process exited: $(cat "$dir/emulator.log")"
  sleep 0.1
done
url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$dir/emulator.log" | head -n 1)"
[ -n "$url" ] || fail "the emulator process did not say where it listens"
printf 'version: 1\ntargets:\n  prod: { server: prod-db.example.com, database: PROD, token: "${{ secrets.PROD_TOKEN }}" }\nsteps:\n  - uses: monitoring/alerts\n    with: { fail-on: critical }\n  - uses: update/vfs\n    with: { target: prod, files: [1001] }\n' >"$dir/release.yml"
args=(run "$dir/release.yml" --report-json "$dir/report.json")
ENGINE_URL="$url" ENGINE_USERNAME=admin ENGINE_PASSWORD=admin PROD_TOKEN=prod-token run "$@" >"$dir/out" 2>&1 || fail "a run against the emulator process at $url failed"
grep -q '"outcome": *"success"' "$dir/report.json" || fail "the run's JSON report does not say success"

args=(run pipelines/demo.yml --emulator)
run "$@" >"$dir/out" 2>&1 || fail "the demo failed"
grep -q 'pipeline "Release 2026.11 (demo)": success' "$dir/out" || fail "the demo did not say success"
echo "smoke: $exe: --version, a broken file, plan, a run against an emulator process, the demo: ok"
