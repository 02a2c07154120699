#!/usr/bin/env bash
# Attacks of issue 26 by someone who can write into the shared folder (findings 2, 3 and 4), each
# crafted by Tests/attacks/craft.py (PyNaCl, from docs/FORMAT.md alone) and played against the
# built binary; the outcomes are checked by exit codes, `members --json`, `show` and fingerprints:
#
# - a removed member asks again for its old device id with a new key, answering its own used
#   invite; a demoted viewer does the same; a new device answers a used viewer invite: none is
#   admitted by the owner's sync, `approve --all` admits only the new device and only as a viewer,
#   `members decline` refuses a request for good;
# - a backup naming another owner key (one that sorts first) for the same trip id is invalid
#   (`validate`), and `import --merge` and `merge` refuse it; the owner can still invite;
# - a schema 2 copy of an owned trip, with an edit attributed to a member, is refused by
#   `import --merge` and `merge` (a trip made by `new`, and one claimed later);
# - a file dropped into the folder of an open trip claims it for another owner key: no replica
#   adopts it, each keeps editing, and its person can still run `members claim`;
# - (issue 41) the folder's host, with no key, drops an unsigned file whose fake succession for a
#   restored laptop's new id sorts above the real one: the owner still takes the laptop's files;
# - (issue 43) a member opens the owner's sealed file with the trip's key, adds an item in the
#   owner's name, seals it again and signs it with its own key: no member takes it.
#
# Usage: Tests/attacks/run.sh     (TRIPSYNC=path/to/tripsync picks the binary; default
#                                   .build/debug/tripsync in the package root; KEEP_TMP=1 keeps the temp dir)
# Needs python3 with PyNaCl (.ci/run installs it). Output: PASS/FAIL per check, then
# "N passed, M failed"; exit 0 only when nothing failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TRIPSYNC=${TRIPSYNC:-.build/debug/tripsync}
case $TRIPSYNC in /*) ;; *) TRIPSYNC=$ROOT/$TRIPSYNC ;; esac
# craft ARGS...: Tests/attacks/craft.py; a failure (a file it could not read) is written down and
# fails the run at the end, so no refusal below passes because the attack file was never made.
CRAFT=craft
craft() { python3 "$ROOT/Tests/attacks/craft.py" "$@" || echo "craft.py $* exited $?" >>"$TMP/craft-failures"; }
PASSED=0
FAILED=0

python3 -c 'import nacl.signing' 2>/dev/null || { echo "Tests/attacks/run.sh needs PyNaCl: python3 -m pip install pynacl"; exit 1; }
[ -x "$TRIPSYNC" ] || { echo "no tripsync binary at $TRIPSYNC (swift build --product tripsync)"; exit 1; }

TMP=$(mktemp -d)
cleanup() { if [ "${KEEP_TMP:-}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi; }
trap cleanup EXIT
cd "$TMP" || exit 1
mkdir shared shared2

pass() { PASSED=$((PASSED + 1)); printf 'PASS  %s\n' "$1"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL  %s\n' "$1"; [ $# -gt 1 ] && printf '      %s\n' "${@:2}"; return 0; }
# ts HOME ARGS...: runs tripsync in homeHOME; its stdout in $OUT, stderr in $ERR, exit code in $RC.
ts() {
    local home=$1; shift
    "$TRIPSYNC" --home "home$home" "$@" >out.txt 2>err.txt
    RC=$?
    OUT=$(cat out.txt)
    ERR=$(cat err.txt)
}
# must HOME ARGS...: a setup step that has to work.
must() {
    ts "$@"
    [ "$RC" = 0 ] || { fail "setup: tripsync --home home$1 ${*:2} (exit $RC)" "$ERR"; summary; exit 1; }
}
expect_rc() { if [ "$RC" = "$2" ]; then pass "$1"; else fail "$1 (exit $RC, expected $2)" "$OUT" "$ERR"; fi; }
contains() { case $2 in *"$3"*) pass "$1" ;; *) fail "$1: expected '$3' in" "$2" ;; esac; }
lacks() { case $2 in *"$3"*) fail "$1: did not expect '$3' in" "$2" ;; *) pass "$1" ;; esac; }
device() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["deviceId"])' "home$1/device.json"; }
# role HOME DEVICE: the device's non-pending role in `members --json` (none when absent).
role() {
    "$TRIPSYNC" --home "home$1" members --json 2>/dev/null |
        python3 -c 'import json,sys; e=[m for m in json.load(sys.stdin) if m["device"]==sys.argv[1] and not m["pending"]]; print(e[0]["role"] if e else "none")' "$2"
}
# pending HOME DEVICE: yes when `members --json` lists the device as pending.
pending() {
    "$TRIPSYNC" --home "home$1" members --json 2>/dev/null |
        python3 -c 'import json,sys; print("yes" if any(m["device"]==sys.argv[1] and m["pending"] for m in json.load(sys.stdin)) else "no")' "$2"
}
summary() { printf '%s passed, %s failed\n' "$PASSED" "$FAILED"; }

echo "--- finding 2: invites are spent once, and a removal sticks"
must A init --device-name "Laptop A"
must A new "Lisbon 2027" --owned --zone Europe/Lisbon
TRIP=$OUT
must A add "Fado night" --day 2027-06-08 --at 21:00
must A sync shared
must A invite --role editor
CODE_B=$OUT
must B init --device-name "Laptop B"
must B join "$CODE_B" shared
must B sync shared
must A sync shared
must B sync shared
B=$(device B)
[ "$(role A "$B")" = editor ] && pass "B joined as an editor" || fail "B joined as an editor ($(role A "$B"))"
must A members remove "$B"
must A sync shared
$CRAFT join --code "$CODE_B" --device "$B" --name "Laptop B" -o "shared/$TRIP/$B.join.json" >/dev/null
ts A sync shared
expect_rc "the owner's sync with the removed member's new request exits 0" 0
lacks "the owner's sync does not admit the removed member" "$OUT$ERR" "admitted Laptop B"
[ "$(role A "$B")" = removed ] && pass "the removed member stays removed" || fail "the removed member stays removed (now $(role A "$B"))"
[ "$(pending A "$B")" = yes ] && pass "its request is listed as pending" || fail "its request is listed as pending"
ts A members approve --all
[ "$(role A "$B")" = removed ] && pass "approve --all does not re-admit a removed device" || fail "approve --all does not re-admit a removed device (now $(role A "$B"))"
ts A members decline "$B"
expect_rc "members decline DEVICE refuses the request" 0
ts A sync shared
[ "$(pending A "$B")" = no ] && pass "a declined request stays refused after the next sync" || fail "a declined request stays refused after the next sync"
[ "$(role A "$B")" = removed ] && pass "still removed after the decline" || fail "still removed after the decline ($(role A "$B"))"

# A demoted viewer asks again with a new key, answering its own used editor invite.
must A invite --role editor
CODE_C=$OUT
must C init --device-name "Laptop C"
must C join "$CODE_C" shared
must C sync shared
must A sync shared
must C sync shared
C=$(device C)
must A members set "$C" --role viewer
must A sync shared
$CRAFT join --code "$CODE_C" --device "$C" --name "Laptop C" -o "shared/$TRIP/$C.join.json" >/dev/null
must A sync shared
[ "$(role A "$C")" = viewer ] && pass "a demoted viewer does not re-promote itself" || fail "a demoted viewer does not re-promote itself (now $(role A "$C"))"
ts A members approve --all --role editor
[ "$(role A "$C")" = viewer ] && pass "approve --all never raises a demoted device" || fail "approve --all never raises a demoted device (now $(role A "$C"))"

# A new device answers a used viewer invite: pending, and approve --all grants it no more than viewer.
must A invite --role viewer
CODE_V=$OUT
must V init --device-name "Laptop V"
must V join "$CODE_V" shared
must A sync shared
V=$(device V)
E=$(python3 -c 'import uuid; print(uuid.uuid4())')
$CRAFT join --code "$CODE_V" --device "$E" --name "Laptop E" -o "shared/$TRIP/$E.join.json" >/dev/null
must A sync shared
[ "$(role A "$E")" = none ] && [ "$(pending A "$E")" = yes ] && pass "a second device answering a used invite waits for the owner" ||
    fail "a second device answering a used invite waits for the owner (role $(role A "$E"), pending $(pending A "$E"))"
ts A members approve --all
[ "$(role A "$E")" = viewer ] && pass "approve --all grants no more than the invite's role (viewer)" || fail "approve --all grants no more than the invite's role ($(role A "$E"))"
[ "$(role A "$V")" = viewer ] && pass "the invite's own device was admitted as a viewer" || fail "the invite's own device was admitted as a viewer ($(role A "$V"))"

echo "--- finding 3: every entrance checks the same way"
A=$(device A)
# The owner's file is sealed (issue 43): the forger opens it as C, a member (a viewer), does.
$CRAFT other-owner --from "shared/$TRIP/$A.trip.json.gz" --home homeC --note "Planted by the forger" -o forged.trip.json >/dev/null
ts A validate forged.trip.json
expect_rc "validate reports a backup naming another owner for a derived trip id" 1
contains "validate names /owner/key" "$OUT$ERR" "/owner/key"
ts A import forged.trip.json --merge --yes
expect_rc "import --merge refuses a backup naming another owner" 1
ts A merge "shared/$TRIP/$A.trip.json.gz" forged.trip.json -o merged.trip.json
expect_rc "merge refuses a backup naming another owner" 1
[ ! -e merged.trip.json ] && pass "merge wrote nothing" || fail "merge wrote nothing"
ts A invite --role viewer
expect_rc "the real owner can still invite" 0
ts A show
lacks "the forged item is not in the trip" "$OUT" "Planted by the forger"
ts A backup -o own.trip.json.gz
ts A import own.trip.json.gz --merge --yes
expect_rc "the owner's own backup still merges back in" 0

$CRAFT downgrade --from "shared/$TRIP/$A.trip.json.gz" --home homeC --note "Downgraded edit" -o downgraded.trip.json >/dev/null
ts A import downgraded.trip.json --merge --yes
expect_rc "import --merge refuses a schema 2 copy of a derived trip" 1

# A trip claimed later (its id is not derived): the downgraded copy passes validation, but no entrance takes it.
must D init --device-name "Laptop D"
must D import "$ROOT/samples/lisbon-new-york.trip.json" --merge --yes
must D members claim
must D backup -o claimed.trip.json
$CRAFT downgrade --from claimed.trip.json --note "Downgraded edit" -o claimed-downgraded.trip.json >/dev/null
BEFORE=$("$TRIPSYNC" --home homeD fingerprint 2>/dev/null)
ts D import claimed-downgraded.trip.json --merge --yes
expect_rc "import --merge refuses a schema 2 copy of an owned trip" 1
contains "the refusal says it is an older copy of an owned trip" "$ERR" "schema 2"
ts D merge claimed.trip.json claimed-downgraded.trip.json -o merged2.trip.json
expect_rc "merge refuses a schema 2 copy of an owned trip" 1
[ "$("$TRIPSYNC" --home homeD fingerprint 2>/dev/null)" = "$BEFORE" ] && pass "the trip is unchanged (fingerprint)" || fail "the trip is unchanged (fingerprint)"

echo "--- issue 43: on a sealed trip, a member cannot write in another member's name"
# C, a viewer holding the trip's epoch key, opens the owner's sealed file, adds an item as if A
# had typed it, seals it again with the same key under A's name, and signs it with its own key.
must V sync shared
must C sync shared
$CRAFT reseal --from "shared/$TRIP/$A.trip.json.gz" --home homeC --note "Planted in A's name" -o "shared/$TRIP/$A.trip.json.gz" >/dev/null
ts V sync shared
expect_rc "a member syncs with the owner's file re-sealed and signed by C" 0
contains "it skips the owner's file signed by C's key" "$ERR" "$A.trip.json.gz: skipped"
ts V show
lacks "the item planted in the owner's name is not in its trip" "$OUT" "Planted in A's name"
ts A sync shared
ts A show
lacks "nor in the owner's trip" "$OUT" "Planted in A's name"

echo "--- finding 4: the folder's host cannot make itself owner of an open trip"
must E init --device-name "Laptop E"
must E new "Open trip" --open
OPEN=$OUT
must E sync shared2
must F init --device-name "Laptop F"
must F sync shared2
EID=$(device E)
CLAIM=$($CRAFT claim --from "shared2/$OPEN/$EID.trip.json.gz" --name "Folder host" -o "shared2/$OPEN/host.trip.json.gz")
HOST_KEY=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["ownerFingerprint"])' "$CLAIM")
for H in E F; do
    ts "$H" sync shared2
    expect_rc "laptop $H syncs with the claim in the folder" 0
    contains "laptop $H is told of the claim, with its key" "$ERR" "$HOST_KEY"
    ts "$H" members
    contains "laptop $H keeps the trip open" "$OUT" "is an open trip"
    ts "$H" add "Still editing on $H" --day 2027-06-09
    expect_rc "laptop $H can still edit" 0
done
ts E members claim
expect_rc "the creator can still claim the trip" 0
lacks "the claim is the creator's own key, not the host's" "$OUT" "$HOST_KEY"

echo "--- issue 41: the folder's host cannot make members skip a restored laptop"
mkdir shared3
must G init --device-name "Laptop G"
must G new "Porto 2027" --owned --zone Europe/Lisbon
PORTO=$OUT
must G sync shared3
must G invite --role editor
CODE_H=$OUT
must H init --device-name "Laptop H"
must H join "$CODE_H" shared3
must H sync shared3
must G sync shared3
must H sync shared3
cp -a homeH homeI
must I add "Typed on the restored laptop" --day 2027-06-09
I=$(device I)
must I sync shared3
must G sync shared3
G=$(device G)
# G's file is sealed (issue 43): the host is handed what H, a member, reads (the strongest such
# host: one that kept a copy from before the trip was sealed); its file stays unsigned and plain.
$CRAFT fake-succession --from "shared3/$PORTO/$G.trip.json.gz" --home homeH --to "$I" -o "shared3/$PORTO/host.trip.json.gz" >/dev/null
must I add "Typed after the host's file" --day 2027-06-10
must I sync shared3
ts G sync shared3
expect_rc "the owner syncs with the host's fake succession in the folder" 0
lacks "the restored laptop's file is not skipped" "$ERR" "$I.trip.json.gz: skipped"
[ "$(role G "$I")" = editor ] && pass "the restored laptop stays an editor" || fail "the restored laptop stays an editor (now $(role G "$I"))"
ts G show
contains "the restored laptop's later item reaches the owner" "$OUT" "Typed after the host's file"

if [ -e "$TMP/craft-failures" ]; then fail "every attack file was crafted" "$(cat "$TMP/craft-failures")"; else pass "every attack file was crafted"; fi
summary
[ "$FAILED" = 0 ]
