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

# The first copy, to check the set-up.
"${COPY[@]}" >/dev/null
[ "$(sha256sum "$FINAL" | cut -d' ' -f1)" = "$SHA" ] || fail "the first copy does not verify"

killed_midway=0
resumed=0
for round in $(seq 1 "$ROUNDS"); do
    rm -f "$WORK/dest/"*
    # The moment: once the partial holds a random number of bytes (0 to all of them, which
    # kills during the final fsync, hash check or rename), or, one round in four, at a random
    # time from the start (before the partial exists, or as late as the copy may run).
    target=$(( (RANDOM * 32768 + RANDOM) % (SIZE + 1) ))
    delay_ms=$(( RANDOM % 400 ))
    "${COPY[@]}" >/dev/null 2>&1 &
    pid=$!
    if [ $((round % 4)) = 0 ]; then
        sleep "0.$(printf %03d "$delay_ms")"
        moment="after ${delay_ms} ms"
    else
        while kill -0 "$pid" 2>/dev/null; do
            got=$(stat -c %s "$FINAL.partial" 2>/dev/null || echo -1)
            [ "$got" -ge "$target" ] && break
        done
        moment="at partial >= $target bytes"
    fi
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
    echo "round $round: killed $moment (partial ${partial} bytes): $out"
done
[ ! -e "$WORK/watcher-failed" ] || fail "$(cat "$WORK/watcher-failed")"
echo "killcopy: $ROUNDS rounds passed ($killed_midway killed while running, $resumed resumed from a verified partial)"
