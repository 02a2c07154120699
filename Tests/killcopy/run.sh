#!/usr/bin/env bash
# kill -9 at random moments of a 50 MB blob copy, ROUNDS times (default 30): after each kill the
# copy runs again to completion; every final copy must be complete and verified, and nothing
# half-written may ever sit under the final name (a watcher checks the name's size all along).
# The copy is the library's resumable, verified copy; COPY is the one place that names it. A
# second phase kills `tripsync sync FOLDER` itself while it shares an attached 50 MB file.
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

# --- The same through `tripsync sync`, as a person meets it (SYNC_ROUNDS, default 10) ---------
# Laptop A attached a 50 MB file (staged); each round starts from a copy of that home and an
# empty shared folder, kills A's `tripsync sync` at a random moment of the blob's copy, then
# checks what a companion (laptop B, joining the folder then) can see: A's published file names
# the attachment only once its bytes are complete in the folder, and B never shows it as shared
# with other bytes. Then A's sync runs to completion and B gets the photo, byte-identical.
SYNC_ROUNDS=${SYNC_ROUNDS:-10}
swift build --product tripsync >/dev/null
TS="$(swift build --show-bin-path)/tripsync"
kill "$WATCHER" 2>/dev/null || true
rm -rf "$WORK/src" "$WORK/dest"
head -c "$SIZE" /dev/urandom >"$WORK/photo.bin"
PHOTO_SHA=$(sha256sum "$WORK/photo.bin" | cut -d' ' -f1)
"$TS" --home "$WORK/pristine" init --device-name laptop-a >/dev/null
"$TS" --home "$WORK/pristine" new "Kill test" --open >/dev/null
ITEM=$("$TS" --home "$WORK/pristine" add "Museum" | grep -Eo '[0-9a-f]{8}-[0-9a-f-]{27}' | head -1)
[ -n "$ITEM" ] || fail "sync phase: no item id from add"
"$TS" --home "$WORK/pristine" attach "${ITEM:0:8}" "$WORK/photo.bin" >/dev/null || fail "sync phase: attach failed"
TRIP=$("$TS" --home "$WORK/pristine" trips --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["tripId"])')

b_state() {  # the photo's state on laptop B, or "none"
    "$TS" --home "$1" attachments --json 2>/dev/null | python3 -c '
import json, sys
entries = [e for e in json.load(sys.stdin) if e["sha256"] == sys.argv[1]]
print(entries[0]["state"] if entries else "none")' "$PHOTO_SHA" 2>/dev/null || echo none
}

sync_killed=0
for round in $(seq 1 "$SYNC_ROUNDS"); do
    R="$WORK/sync-$round"
    mkdir -p "$R/shared"
    cp -a "$WORK/pristine" "$R/a"
    BLOB="$R/shared/$TRIP/blobs/$PHOTO_SHA"
    target=$(( (RANDOM * 32768 + RANDOM) % (SIZE + 1) ))
    "$TS" --home "$R/a" sync "$R/shared" >/dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        got=$(stat -c %s "$BLOB.partial" 2>/dev/null || echo -1)
        [ "$got" -ge "$target" ] && break
        [ -e "$BLOB" ] && break
    done
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ "$status" = 137 ] && sync_killed=$((sync_killed + 1))
    # Whatever A published names the photo only with its bytes complete under their name.
    for file in "$R/shared/$TRIP"/*.trip.json.gz; do
        [ -e "$file" ] || continue
        if gzip -dc "$file" | grep -q "$PHOTO_SHA"; then
            [ -e "$BLOB" ] && [ "$(sha256sum "$BLOB" | cut -d' ' -f1)" = "$PHOTO_SHA" ] ||
                fail "sync round $round: $file names the photo but its bytes are not complete in the folder"
        fi
    done
    # A companion syncing now never sees it as shared with other bytes.
    if ls "$R/shared/$TRIP"/*.trip.json.gz >/dev/null 2>&1; then
        "$TS" --home "$R/b" sync "$R/shared" >/dev/null 2>&1 || true
        state=$(b_state "$R/b")
        case "$state" in
            none|arriving) ;;
            shared) [ "$(sha256sum "$R/b/blobs/$PHOTO_SHA" | cut -d' ' -f1)" = "$PHOTO_SHA" ] || fail "sync round $round: B shows the photo shared with other bytes" ;;
            *) fail "sync round $round: B shows the photo as $state after A was killed" ;;
        esac
    fi
    # A's next sync completes the copy (resuming its partial); then B gets the photo.
    "$TS" --home "$R/a" sync "$R/shared" >/dev/null 2>&1 || fail "sync round $round: A's sync after the kill failed"
    [ "$(sha256sum "$BLOB" | cut -d' ' -f1)" = "$PHOTO_SHA" ] || fail "sync round $round: the folder's copy does not verify"
    [ ! -e "$BLOB.partial" ] || fail "sync round $round: a partial file was left in the folder"
    "$TS" --home "$R/b" sync "$R/shared" >/dev/null 2>&1 || fail "sync round $round: B's sync failed"
    [ "$(b_state "$R/b")" = shared ] || fail "sync round $round: B does not show the photo as shared after A's sync"
    cmp -s "$R/b/blobs/$PHOTO_SHA" "$WORK/photo.bin" || fail "sync round $round: B's copy differs"
    echo "sync round $round: A's sync killed at partial >= $target bytes (exit $status); then shared, B byte-identical"
    rm -rf "$R"
done
echo "killcopy: $SYNC_ROUNDS sync rounds passed ($sync_killed killed while running)"
