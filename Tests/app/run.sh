#!/usr/bin/env bash
# Tests/app/run.sh: builds Tests/app (a package that imports only `TripSync`, as an app would:
# the public API and nothing `package`) and runs the jobs of docs/DESIGN.md, "The app API",
# on the bundled samples. Exit 1 when a job fails or the example does not compile.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT/Tests/app"
LOG="$(mktemp)"
if ! swift build --scratch-path "${APP_SCRATCH:-$ROOT/Tests/app/.build}" >"$LOG" 2>&1; then
    grep -E "error|warning: " "$LOG" | head -40 >&2
    tail -5 "$LOG" >&2
    echo "Tests/app: the app example does not build against the public API" >&2
    exit 1
fi
tail -1 "$LOG"
BIN="$(swift build --scratch-path "${APP_SCRATCH:-$ROOT/Tests/app/.build}" --show-bin-path)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$BIN/TripSyncAppExample" "$ROOT/samples/lisbon-new-york.trip.json" "$ROOT/samples/invalid/title-empty.trip.json" "$WORK"
