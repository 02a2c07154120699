#!/usr/bin/env bash
# Tests/app/run.sh: builds Tests/app (a package that imports only `TripSync`, as an app would:
# the public API and nothing `package`) and runs the jobs of docs/DESIGN.md, "The app API",
# on the bundled samples. Exit 1 when a job fails or the example does not compile.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT/Tests/app"
swift build --scratch-path "${APP_SCRATCH:-$ROOT/Tests/app/.build}" 2>&1 | tail -3
BIN="$(swift build --scratch-path "${APP_SCRATCH:-$ROOT/Tests/app/.build}" --show-bin-path)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$BIN/TripSyncAppExample" "$ROOT/samples/lisbon-new-york.trip.json" "$ROOT/samples/invalid/title-empty.trip.json" "$WORK"
