#!/usr/bin/env bash
# The edit journal under kill -9 and injected faults (issue 30; docs/DESIGN.md, "The edit journal").
#
# Phase 1, ROUNDS times (default 200): `tripsync add` or `tripsync edit` on a trip of ITEMS items
# (default 2,000; the journal folds every 256 records, so folds are killed too), killed with -9 at a
# random moment (calibrated on the command's own time: before, during or after its save). After
# each kill a reader must open the trip (a torn tail is dropped with a warning naming the journal,
# never an error; one round in ten also tears the journal's tail by hand, as a power cut can);
# at the end every add whose id was printed and every edit whose "saved:" was
# printed must be there, through `show --json`, after a sync folds the journal, and in the
# published file.
# Phase 2: strace injects EIO into each fsync, and ENOSPC into each write of the journal, of `add`
# and `edit` in turn: the command exits non-zero naming the file, no acknowledged edit is lost,
# and an edit reported as not saved ("nothing was changed") is not there.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-200}
ITEMS=${ITEMS:-2000}
if [ -z "${TRIPSYNC:-}" ]; then
    swift build --product tripsync >/dev/null
    TRIPSYNC="$(swift build --show-bin-path)/tripsync"
fi
swift build --product tripsync-bench >/dev/null
BENCH="$(swift build --show-bin-path)/tripsync-bench"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
HOME_DIR="$WORK/home"
T() { "$TRIPSYNC" --home "$HOME_DIR" "$@"; }
fail() { echo "killjournal: FAIL: $*" >&2; exit 1; }

"$BENCH" generate --items "$ITEMS" --out "$WORK/gen" >/dev/null
T init --device-name "Kill laptop" >/dev/null
T import "$WORK/gen/trip-$ITEMS.trip.json.gz" --merge >/dev/null
TRIP=$(T trips | cut -d' ' -f1)
JOURNAL="$HOME_DIR/trips/$TRIP.journal"
# Items to edit, one per edit round (an acknowledged note is then never overwritten by a later one).
T show --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("\n".join(i["id"] for i in [i for day in d["days"] for i in day["items"]] + d["unscheduled"]))' >"$WORK/ids"
[ "$(wc -l <"$WORK/ids")" -ge "$ROUNDS" ] || fail "the trip has fewer items than rounds"

# How long one add takes here: the kills land from 0 to 1.5 times that. The first add reads the
# trip whole and writes its view (docs/DESIGN.md, "The replica view"); the next ones go quick. One
# round in four is killed within the whole read's span (a view written now and then, or being
# written), the others within a quick add's.
start=$(date +%s%N); T add "calibrate" --day 2027-06-07 >/dev/null 2>&1; end=$(date +%s%N)
SLOW_US=$(( (end - start) / 1000 * 15 / 10 ))
start=$(date +%s%N); T add "calibrate quick" --day 2027-06-07 >/dev/null 2>&1; end=$(date +%s%N)
FAST_US=$(( (end - start) / 1000 * 15 / 10 ))
echo "killjournal: $ITEMS items; kills from 0 to $(( FAST_US / 1000 )) ms after a quick add's start, one round in four to $(( SLOW_US / 1000 )) ms (a whole read's); $ROUNDS rounds"

: >"$WORK/acked-adds"
: >"$WORK/acked-edits"
killed=0
torn=0
for round in $(seq 1 "$ROUNDS"); do
    if [ $((round % 2)) = 0 ]; then
        item=$(sed -n "${round}p" "$WORK/ids")
        kind=edit
        T edit "$item" --note "kill note $round" >"$WORK/out" 2>"$WORK/err" &
    else
        kind=add
        T add "kill add $round" --day 2027-06-08 --at 09:00 >"$WORK/out" 2>"$WORK/err" &
    fi
    pid=$!
    if [ $((round % 4)) = 1 ]; then
        # Without a view, this round reads the trip whole and writes one: killed while it does.
        rm -f "$HOME_DIR/trips/$TRIP.view"
        SPAN_US=$SLOW_US
    else
        SPAN_US=$FAST_US
    fi
    delay=$(( (RANDOM * 32768 + RANDOM) % (SPAN_US + 1) ))
    sleep "$(printf '%d.%06d' $((delay / 1000000)) $((delay % 1000000)))"
    kill -9 "$pid" 2>/dev/null || true
    status=0
    wait "$pid" 2>/dev/null || status=$?
    [ "$status" = 137 ] && killed=$((killed + 1))
    if [ "$kind" = add ] && grep -Eq '^[0-9a-f-]{36}$' "$WORK/out"; then echo "kill add $round" >>"$WORK/acked-adds"; fi
    if [ "$kind" = edit ] && grep -q '^saved: note' "$WORK/out"; then echo "$item kill note $round" >>"$WORK/acked-edits"; fi
    if [ "$status" != 0 ] && [ "$status" != 137 ]; then fail "round $round: $kind exited $status: $(cat "$WORK/err")"; fi
    # A kill -9 cannot tear a write() the kernel took, but a power cut can: one round in ten, the
    # next append is torn by hand (a prefix of a real record, or zeros, past the last record).
    if [ $((round % 10)) = 5 ] && [ -s "$JOURNAL" ]; then
        if [ $((round % 20)) = 5 ]; then
            head -c $(( (RANDOM % 1000) + 1 )) /dev/zero >>"$JOURNAL"
        else
            # Shorter than the whole first record (8 bytes of length and CRC, then its payload).
            first=$(od -An -tu4 -j44 -N4 "$JOURNAL" | tr -d ' ')
            n=$(( (RANDOM % (first + 7)) + 1 ))
            head -c $((44 + n)) "$JOURNAL" | tail -c "$n" >"$WORK/torn"
            cat "$WORK/torn" >>"$JOURNAL"
        fi
    fi
    # A reader opens the trip after every kill: a torn tail is a warning, never an error.
    T show --json >"$WORK/show.json" 2>"$WORK/show.err" || fail "round $round: the trip does not open after a kill: $(cat "$WORK/show.err")"
    if grep -q "dropped a torn record" "$WORK/show.err"; then
        grep -q "$JOURNAL: dropped a torn record at its end" "$WORK/show.err" || fail "round $round: the torn-tail warning does not name the journal: $(cat "$WORK/show.err")"
        torn=$((torn + 1))
    fi
done

check_all() {  # $1: what is checked, $2: a show --json file
    python3 - "$WORK/acked-adds" "$WORK/acked-edits" "$2" "$1" <<'EOF'
import json, sys
adds = [line.rstrip("\n") for line in open(sys.argv[1]) if line.strip()]
edits = [line.rstrip("\n").split(" ", 1) for line in open(sys.argv[2]) if line.strip()]
data = json.load(open(sys.argv[3]))
items = {i["id"]: i for i in [i for day in data["days"] for i in day["items"]] + data["unscheduled"]}
titles = {i["title"] for i in items.values()}
lost = [a for a in adds if a not in titles] + [f"{i}: {n}" for i, n in edits if items.get(i, {}).get("note") != n]
if lost:
    sys.exit(f"killjournal: FAIL: {sys.argv[4]}: {len(lost)} acknowledged edits lost: {lost[:5]}")
print(f"killjournal: {sys.argv[4]}: all {len(adds)} acknowledged adds and {len(edits)} acknowledged edits present")
EOF
}
T show --json >"$WORK/final.json" 2>/dev/null
check_all "after $ROUNDS kills" "$WORK/final.json"
# A sync folds the journal: the replica alone and the published file hold everything.
mkdir -p "$WORK/shared"
T sync "$WORK/shared" >/dev/null 2>&1 || fail "the sync after the kills failed"
[ ! -e "$JOURNAL" ] || fail "the sync left the journal"
T validate "$HOME_DIR/trips/$TRIP.trip.json.gz" >/dev/null || fail "the folded replica does not validate"
T show --json >"$WORK/folded.json"
check_all "after the sync's fold" "$WORK/folded.json"
# The published file (one whole document, the shared folder's format) holds them too.
PUBLISHED=$(ls "$WORK/shared/$TRIP/"*.trip.json.gz)
[ "$(ls "$WORK/shared/$TRIP" | grep -c 'trip.json.gz')" = 1 ] || fail "the shared folder holds more than one file of this device"
python3 - "$PUBLISHED" "$WORK/acked-adds" "$WORK/acked-edits" <<'EOF'
import gzip, json, sys
doc = json.load(gzip.open(sys.argv[1]))
items = doc["items"]
titles = {i["title"]["value"] for i in items.values()}
adds = [line.rstrip("\n") for line in open(sys.argv[2]) if line.strip()]
edits = [line.rstrip("\n").split(" ", 1) for line in open(sys.argv[3]) if line.strip()]
lost = [a for a in adds if a not in titles] + [i for i, n in edits if (items.get(i, {}).get("note") or {}).get("value") != n]
if lost:
    sys.exit(f"killjournal: FAIL: the published file lacks {len(lost)} acknowledged edits: {lost[:5]}")
print(f"killjournal: the published file holds all {len(adds)} acknowledged adds and {len(edits)} acknowledged edits")
EOF
echo "killjournal: phase 1: $ROUNDS rounds, $killed killed while running, $torn torn tails dropped with a warning"

# Phase 2: injected faults. Each failing run must exit non-zero naming a file; nothing acknowledged
# before it may be lost, and the home must still open.
if ! strace -qq -e trace=none /bin/true 2>/dev/null; then
    echo "killjournal: phase 2 skipped: strace is not installed or may not trace here (apt-get install strace)"
    exit 0
fi
faults=0
views=0
item=$(sed -n "$((ROUNDS + 1))p" "$WORK/ids")
# `add` and `edit` go quick (three fsyncs: the counter ledger's file and folder, the journal); the
# `whole-` runs have their view removed first, so they read the trip whole and write the view
# (the journal's folder, the view's file and folder: a failure there is a warning, the edit saved).
for kind in add edit whole-add whole-edit; do
    for n in 1 2 3 4 5 6 7; do
        for fault in "fsync:error=EIO:when=$n" "write:error=ENOSPC:when=$n"; do
            name=${fault%%:*}
            label="$kind, $name #$n fails"
            case "$kind" in
                whole-*) rm -f "$HOME_DIR/trips/$TRIP.view" ;;
            esac
            if [ "${kind#whole-}" = add ]; then args=(add "fault $name $n $kind" --day 2027-06-09); else args=(edit "$item" --note "fault $name $n $kind"); fi
            filter=()
            # Writes: only those of the journal (the terminal's writes are not the subject).
            [ "$name" = write ] && filter=(-P "$JOURNAL")
            status=0
            strace -f -qq -o "$WORK/strace.log" "${filter[@]}" -e trace="$name" -e inject="$fault" -- \
                "$TRIPSYNC" --home "$HOME_DIR" "${args[@]}" >"$WORK/out" 2>"$WORK/err" || status=$?
            if ! grep -q INJECTED "$WORK/strace.log"; then continue; fi  # fewer calls than n: nothing failed
            faults=$((faults + 1))
            if [ "$status" = 0 ]; then
                # Only the trip's view may fail with a warning (a cache: the edit itself was saved,
                # and the next edit reads the trip whole; docs/DESIGN.md, "The replica view").
                grep -q "\.view: .*edits read the trip whole until it is" "$WORK/err" \
                    || fail "$label: exit 0 although the fault was injected: $(cat "$WORK/out") $(cat "$WORK/err")"
                T show --json >"$WORK/after.json" 2>"$WORK/after.err" || fail "$label: the home does not open after the fault: $(cat "$WORK/after.err")"
                grep -q "\"fault $name $n $kind\"" "$WORK/after.json" || fail "$label: the edit said saved is not there"
                views=$((views + 1))
                echo "killjournal: $label: exit 0, the view not written: $(head -c 300 "$WORK/err" | tr '\n' ' ')"
                continue
            fi
            grep -Eq "$HOME_DIR/(trips/|device)" "$WORK/err" || fail "$label: the error names no file: $(cat "$WORK/err")"
            T show --json >"$WORK/after.json" 2>"$WORK/after.err" || fail "$label: the home does not open after the fault: $(cat "$WORK/after.err")"
            if grep -q "nothing was changed\|not saved" "$WORK/err"; then
                # Refused: the edit must not be there.
                ! grep -q "\"fault $name $n $kind\"" "$WORK/after.json" || fail "$label: an edit reported as not saved is there"
            fi
            check_all "$label" "$WORK/after.json" >/dev/null
            echo "killjournal: $label: exit $status, $(head -c 300 "$WORK/err" | tr '\n' ' ')"
        done
    done
done
[ "$faults" -ge 8 ] || fail "only $faults faults were injected"
[ "$views" -ge 2 ] || fail "no injected fault hit the view's write ($views)"
echo "killjournal: phase 2: $faults injected faults, each an error naming the file ($views of them the view's, a warning), nothing acknowledged lost"
