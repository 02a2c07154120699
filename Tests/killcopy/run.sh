#!/usr/bin/env bash
# kill -9 at random moments of a 50 MB blob copy, ROUNDS times (default 30): after each kill the
# copy runs again to completion; every final copy must be complete and verified, and nothing
# half-written may ever sit under the final name (a watcher checks the name's size all along).
# The copy is the library's resumable, verified copy; COPY is the one place that names it (later
# `tripsync sync FOLDER`).
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-30}
SIZE=50000000
swift build --product tripsync-bench >/dev/null
BENCH="$(swift build --show-bin-path)/tripsync-bench"

WORK=$(mktemp -d)
trap 'kill $WATCHER 2>/dev/null || true; rm -rf "$WORK"' EXIT
head -c "$SIZE" /dev/urandom >"$WORK/incoming"
SHA=$(sha256sum "$WORK/incoming" | cut -d' ' -f1)
mkdir -p "$WORK/src" "$WORK/dest"
mv "$WORK/incoming" "$WORK/src/$SHA"
FINAL="$WORK/dest/$SHA"
COPY=("$BENCH" blob-copy "$WORK/src/$SHA" "$WORK/dest")

fail() { echo "killcopy: FAIL: $*" >&2; exit 1; }

# The watcher: whenever the final name exists, it must have every byte.
(
    while true; do
        if [ -e "$FINAL" ]; then
            got=$(stat -c %s "$FINAL" 2>/dev/null || echo gone)
            if [ "$got" != gone ] && [ "$got" != "$SIZE" ]; then echo "half-written: $got bytes under the final name" >"$WORK/watcher-failed"; fi
        fi
        sleep 0.002
    done
) &
WATCHER=$!

# How long one whole copy takes here: kills land anywhere from the start to a little past it.
start=$(date +%s%N)
"${COPY[@]}" >/dev/null
full_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(sha256sum "$FINAL" | cut -d' ' -f1)" = "$SHA" ] || fail "the first copy does not verify"

killed_midway=0
resumed=0
for round in $(seq 1 "$ROUNDS"); do
    rm -f "$WORK/dest/"*
    delay_ms=$(( RANDOM % (full_ms + full_ms / 5 + 1) ))
    "${COPY[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "$((delay_ms / 1000)).$(printf %03d $((delay_ms % 1000)))"
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    if [ "$status" = 137 ]; then killed_midway=$((killed_midway + 1)); fi
    # After the kill: the final name holds the whole blob or nothing.
    if [ -e "$FINAL" ]; then
        [ "$(sha256sum "$FINAL" | cut -d' ' -f1)" = "$SHA" ] || fail "round $round: a killed copy left a wrong file under the final name"
    fi
    partial=0
    [ -e "$FINAL.partial" ] && partial=$(stat -c %s "$FINAL.partial")
    out=$("${COPY[@]}") || fail "round $round: the copy after the kill failed"
    [ "$(sha256sum "$FINAL" | cut -d' ' -f1)" = "$SHA" ] || fail "round $round: the final copy does not verify"
    [ ! -e "$FINAL.partial" ] || fail "round $round: a partial file was left after the copy completed"
    case "$out" in *"resumed from 0"*|*"already there"*) ;; *) resumed=$((resumed + 1)) ;; esac
    echo "round $round: killed after ${delay_ms} ms (partial ${partial} bytes): $out"
done
[ ! -e "$WORK/watcher-failed" ] || fail "$(cat "$WORK/watcher-failed")"
echo "killcopy: $ROUNDS rounds passed ($killed_midway killed while running, $resumed resumed from a verified partial; one whole copy took ${full_ms} ms)"
