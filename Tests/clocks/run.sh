#!/bin/sh
# Issue 40, clocks you cannot trust: the scripted cases, then the seeded simulation, against
# $TRIPSYNC (default: .build/debug/tripsync of this repository). Arguments go to sim.py
# (--seed N --histories K ...). Exits 1 when either fails.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
# A relative $TRIPSYNC names a file from where this was started, not from the repository.
if [ -n "${TRIPSYNC:-}" ]; then
    TRIPSYNC=$(cd "$(dirname "$TRIPSYNC")" && pwd)/$(basename "$TRIPSYNC")
else
    TRIPSYNC=$repo/.build/debug/tripsync
fi
export TRIPSYNC
status=0
python3 "$repo/Tests/clocks/cases.py" || status=1
python3 "$repo/Tests/clocks/sim.py" "$@" || status=1
exit $status
