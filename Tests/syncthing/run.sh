#!/usr/bin/env bash
# A real Syncthing pair (issue 6): two Syncthing daemons on 127.0.0.1, each with its own
# folder, paired through their REST API; home A syncs with folder A, home B with folder B,
# Syncthing carries the files between the folders. Both homes must converge, and a Syncthing
# conflict copy must be merged and then removed by the home it belongs to. Members (issue 16):
# home A makes an owned trip (new --owned); B joins with an invite code through its own folder
# (the request and the grant travel through Syncthing), a third laptop C joins by a file
# carried by hand, and a viewer V sharing folder B's side is refused edits by its CLI, and its
# hand-edited file changes nobody's trip. Attachments (issue 17): a 4 MiB photo attached on A
# arrives byte-identical on B and shows as shared there, and only as arriving while it travels;
# the folders hold only its sealed copy (schema 7: the trip is owned).
#
# Usage: Tests/syncthing/run.sh          (TRIPSYNC=path/to/tripsync to pick the binary;
#                                          default .build/debug/tripsync in the package root)
#        KEEP_TMP=1 keeps the temp dir;  ST_WAIT=SECONDS bounds every wait (default 120).
#
# No outside network: the daemons listen on loopback ports only; global and local discovery,
# relays, NAT, usage and crash reporting and upgrades are all off. Output: PASS/FAIL per check,
# then one line "N passed, M failed"; exit 0 only when nothing failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TRIPSYNC=${TRIPSYNC:-.build/debug/tripsync}
case $TRIPSYNC in /*) ;; *) TRIPSYNC=$ROOT/$TRIPSYNC ;; esac
WAIT=${ST_WAIT:-120}
FOLDER_ID=tripsync-test
STARTED=$SECONDS

PASSED=0
FAILED=0
TMP=
PIDS=()

log() { printf '%s\n' "--- $*"; }
pass() { PASSED=$((PASSED + 1)); printf 'PASS  %s\n' "$1"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL  %s\n' "$1"; [ $# -gt 1 ] && printf '      %s\n' "${@:2}"; return 0; }
# check NAME COMMAND...: PASS when the command succeeds.
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }

summary() {
    printf '%s passed, %s failed\n' "$PASSED" "$FAILED"
}

dump_logs() {
    local side
    for side in A B; do
        if [ -n "$TMP" ] && [ -f "$TMP/st$side/syncthing.log" ]; then
            echo "----- syncthing $side log (last 60 lines) -----"
            tail -n 60 "$TMP/st$side/syncthing.log"
        fi
    done
    if [ -n "$TMP" ]; then
        for side in A B; do
            [ -d "$TMP/$side" ] && { echo "----- folder $side -----"; (cd "$TMP/$side" && find . -path ./.stfolder -prune -o -type f -print | sort); }
        done
        for side in A B C V; do
            [ -s "$TMP/tripsync-$side.stderr" ] && { echo "----- tripsync home $side: commands and stderr (last 30 lines) -----"; tail -n 30 "$TMP/tripsync-$side.stderr"; }
        done
    fi
    echo "----- end of logs -----"
}

# fatal MESSAGE...: a step the rest depends on failed; stop here.
fatal() {
    fail "$@"
    dump_logs
    summary
    exit 1
}

# pids PID: the process and all its descendants (Syncthing may run a monitor process and a child).
pids() {
    local pid=$1 f line
    echo "$pid"
    for f in /proc/[0-9]*/stat; do
        line=$(cat "$f" 2>/dev/null) || continue
        line=${line##*) }
        set -- $line
        [ "${2:-}" = "$pid" ] && pids "${f//[^0-9]/}"
    done
}

cleanup() {
    local pid all=()
    for pid in "${PIDS[@]}"; do all+=($(pids "$pid")); done
    for pid in "${all[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${all[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null; done
    if [ -n "$TMP" ] && [ -d "$TMP" ]; then
        if [ "$FAILED" -eq 0 ] && [ -z "${KEEP_TMP:-}" ]; then rm -rf "$TMP"; else echo "(temp dir kept: $TMP)"; fi
    fi
}
trap cleanup EXIT
trap 'fail "interrupted"; summary; exit 130' INT TERM

# wait_until SECONDS DESCRIPTION COMMAND...: poll every 0.5 s; 0 when COMMAND succeeded in time.
wait_until() {
    local limit=$1 what=$2 deadline=$((SECONDS + $1))
    shift 2
    while :; do
        "$@" && return 0
        [ "$SECONDS" -ge "$deadline" ] && { echo "      timed out after ${limit}s waiting for: $what"; return 1; }
        sleep 0.5
    done
}

# json EXPRESSION [ARG...]: evaluate a Python expression on the JSON read from stdin (bound to
# `d`; the ARGs are sys.argv[2:]).
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); r=eval(sys.argv[1]); print(json.dumps(r) if isinstance(r,(dict,list)) else r)' "$@"; }

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# ---------------------------------------------------------------------------------------------
# 1. Syncthing installed
# ---------------------------------------------------------------------------------------------
need_apt=()
command -v syncthing >/dev/null 2>&1 || need_apt+=(syncthing)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
if [ ${#need_apt[@]} -gt 0 ]; then
    log "installing ${need_apt[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null 2>&1 ||
        fatal "apt-get install -y ${need_apt[*]} (run apt-get update first)"
fi
command -v python3 >/dev/null 2>&1 || fatal "python3 is needed (JSON parsing, free ports)"
ST_VERSION=$(syncthing --version 2>/dev/null | head -n 1)
# The REST calls below (config/devices, config/folders, system/pause, db/scan) exist since 1.12.
if [[ $ST_VERSION =~ ^syncthing\ v([0-9]+)\.([0-9]+) ]] &&
    { [ "${BASH_REMATCH[1]}" -gt 1 ] || [ "${BASH_REMATCH[2]}" -ge 12 ]; }; then
    pass "syncthing installed: $ST_VERSION"
else
    fatal "syncthing >= 1.12 installed" "found: ${ST_VERSION:-nothing}"
fi

if [ -z "${SYNCTHING_ONLY:-}" ]; then
    [ -x "$TRIPSYNC" ] || fatal "tripsync binary at $TRIPSYNC" "build it first (swift build --product tripsync) or set TRIPSYNC"
    "$TRIPSYNC" help sync >/dev/null 2>&1 || fatal "$TRIPSYNC has the sync command"
    pass "tripsync binary: $TRIPSYNC"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tripsync-syncthing.XXXXXX")
mkdir -p "$TMP/A/.stfolder" "$TMP/B/.stfolder"

# ---------------------------------------------------------------------------------------------
# 2. Two daemons on loopback, paired through the REST API
# ---------------------------------------------------------------------------------------------
declare -A GUI LISTEN KEY ID
for side in A B; do
    GUI[$side]=$(free_port)
    LISTEN[$side]=$(free_port)
    KEY[$side]="tripsync-test-key-$side-$RANDOM$RANDOM"
done
[ "${GUI[A]}" != "${GUI[B]}" ] && [ "${LISTEN[A]}" != "${LISTEN[B]}" ] && [ "${GUI[A]}" != "${LISTEN[B]}" ] &&
    [ "${LISTEN[A]}" != "${GUI[B]}" ] && [ "${GUI[A]}" != "${LISTEN[A]}" ] && [ "${GUI[B]}" != "${LISTEN[B]}" ] ||
    fatal "four distinct free loopback ports" "${GUI[*]} ${LISTEN[*]}"

# set_opt FILE TAG VALUE: replace the text of the first <TAG>…</TAG> (a generated config has one).
set_opt() {
    local file=$1 tag=$2 value=$3
    grep -q "<$tag>" "$file" || { echo "      config.xml has no <$tag>"; return 1; }
    sed -i "0,/<$tag>[^<]*<\/$tag>/s||<$tag>$value</$tag>|" "$file"
}

configure() { # configure SIDE
    local side=$1 home=$TMP/st$1 cfg
    cfg=$home/config.xml
    syncthing generate --home "$home" --no-default-folder --skip-port-probing >"$home.generate.log" 2>&1 || {
        cat "$home.generate.log"; return 1; }
    ID[$side]=$(syncthing serve --home "$home" --device-id 2>/dev/null | tr -d '[:space:]')
    [[ ${ID[$side]} =~ ^[A-Z0-9]{7}(-[A-Z0-9]{7}){7}$ ]] || { echo "      bad device id '${ID[$side]}'"; return 1; }
    grep -q '<gui ' "$cfg" || { echo "      config.xml has no <gui> element"; return 1; }
    sed -i "/<gui /,/<\/gui>/s|<address>[^<]*</address>|<address>127.0.0.1:${GUI[$side]}</address>|" "$cfg" &&
        set_opt "$cfg" apikey "${KEY[$side]}" &&
        set_opt "$cfg" listenAddress "tcp://127.0.0.1:${LISTEN[$side]}" &&
        set_opt "$cfg" globalAnnounceEnabled false &&
        set_opt "$cfg" localAnnounceEnabled false &&
        set_opt "$cfg" relaysEnabled false &&
        set_opt "$cfg" natEnabled false &&
        set_opt "$cfg" startBrowser false &&
        set_opt "$cfg" urAccepted -1 &&
        set_opt "$cfg" crashReportingEnabled false &&
        set_opt "$cfg" autoUpgradeIntervalH 0 &&
        set_opt "$cfg" announceLANAddresses false &&
        set_opt "$cfg" restartOnWakeup false &&
        set_opt "$cfg" reconnectionIntervalS 2 &&
        set_opt "$cfg" setLowPriority false
}

start_daemon() { # start_daemon SIDE
    local side=$1 home=$TMP/st$1
    STMONITORED=yes STNODEFAULTFOLDER=1 STNOUPGRADE=1 STNORESTART=1 HOME=$home \
        syncthing serve --home "$home" --no-browser --no-restart --no-upgrade --no-default-folder \
        --gui-address "http://127.0.0.1:${GUI[$side]}" --gui-apikey "${KEY[$side]}" \
        --logflags=3 >"$home/syncthing.log" 2>&1 </dev/null &
    PIDS+=($!)
    eval "PID_$side=$!"
}

# api SIDE METHOD PATH [JSON]: one REST call; prints the body; fails on a transport or HTTP error.
api() {
    local side=$1 method=$2 path=$3
    local args=(-sS -f --max-time 60 -X "$method" -H "X-API-Key: ${KEY[$side]}")
    [ $# -ge 4 ] && args+=(-H 'Content-Type: application/json' --data-binary "$4")
    curl "${args[@]}" "http://127.0.0.1:${GUI[$side]}/rest$path"
}

daemon_up() { api "$1" GET /system/ping 2>/dev/null | grep -q pong; }

for side in A B; do
    mkdir -p "$TMP/st$side"
    configure "$side" || fatal "syncthing $side: generate and configure $TMP/st$side/config.xml"
done
for side in A B; do start_daemon "$side"; done
for side in A B; do
    wait_until "$WAIT" "syncthing $side REST API on 127.0.0.1:${GUI[$side]}" daemon_up "$side" ||
        fatal "syncthing $side started, REST API answers on 127.0.0.1:${GUI[$side]}"
done
pass "both daemons up (REST on 127.0.0.1:${GUI[A]} and :${GUI[B]}, sync on :${LISTEN[A]} and :${LISTEN[B]})"

# The options in force, as the daemons report them: loopback only, nothing reaching outside.
options_offline() {
    local opts
    opts=$(api "$1" GET /config/options) || return 1
    printf '%s' "$opts" | python3 -c '
import json, sys
o = json.load(sys.stdin)
bad = []
for k in ("globalAnnounceEnabled", "localAnnounceEnabled", "relaysEnabled", "natEnabled", "startBrowser", "crashReportingEnabled", "announceLANAddresses"):
    if o.get(k) is not False: bad.append("%s=%r" % (k, o.get(k)))
if o.get("urAccepted") != -1: bad.append("urAccepted=%r" % o.get("urAccepted"))
if o.get("autoUpgradeIntervalH") != 0: bad.append("autoUpgradeIntervalH=%r" % o.get("autoUpgradeIntervalH"))
if o.get("listenAddresses") != ["tcp://127.0.0.1:" + sys.argv[1]]: bad.append("listenAddresses=%r" % o.get("listenAddresses"))
if bad: print("      " + ", ".join(bad)); sys.exit(1)
' "${LISTEN[$1]}" || return 1
    [ "$(api "$1" GET /config/gui | json "d.get('address')")" = "127.0.0.1:${GUI[$1]}" ] ||
        { echo "      GUI address: $(api "$1" GET /config/gui)"; return 1; }
}
for side in A B; do
    check "syncthing $side: GUI/REST on 127.0.0.1:${GUI[$side]}, sync on 127.0.0.1:${LISTEN[$side]} only; discovery, relays, NAT, usage and crash reporting, upgrades off" options_offline "$side"
done

# Pairing: each daemon learns the other's id at a static loopback address, then both share one
# folder (A's at $TMP/A, B's at $TMP/B), watched with a short delay and rescanned every 10 s.
add_device() { # add_device SIDE OTHER
    api "$1" POST /config/devices "{\"deviceID\":\"${ID[$2]}\",\"name\":\"daemon $2\",\"addresses\":[\"tcp://127.0.0.1:${LISTEN[$2]}\"],\"autoAcceptFolders\":false,\"paused\":false}" >/dev/null
}
add_folder() { # add_folder SIDE
    api "$1" POST /config/folders "{\"id\":\"$FOLDER_ID\",\"label\":\"TripSync test\",\"path\":\"$TMP/$1\",\"type\":\"sendreceive\",\"devices\":[{\"deviceID\":\"${ID[A]}\"},{\"deviceID\":\"${ID[B]}\"}],\"rescanIntervalS\":10,\"fsWatcherEnabled\":true,\"fsWatcherDelayS\":1,\"paused\":false}" >/dev/null
}
add_device A B && add_device B A || fatal "pair the daemons through /rest/config/devices"
add_folder A && add_folder B || fatal "share the folder through /rest/config/folders"

connected() { # connected SIDE OTHER
    api "$1" GET /system/connections 2>/dev/null | json "d['connections'].get('${ID[$2]}', {}).get('connected') is True" | grep -q True
}
disconnected() {
    api "$1" GET /system/connections 2>/dev/null | json "d['connections'].get('${ID[$2]}', {}).get('connected') is False" | grep -q True
}
folder_idle() { # folder_idle SIDE: folder state idle, nothing needed from the other device
    api "$1" GET "/db/status?folder=$FOLDER_ID" 2>/dev/null | json "d.get('state') == 'idle' and d.get('needTotalItems', 1) == 0" | grep -q True
}
wait_until "$WAIT" "daemons A and B connected" connected A B &&
    wait_until "$WAIT" "daemons B and A connected" connected B A ||
    fatal "daemons A and B connected over 127.0.0.1"
pass "daemons paired through the REST API and connected over 127.0.0.1"
wait_until "$WAIT" "folder idle on A" folder_idle A && wait_until "$WAIT" "folder idle on B" folder_idle B ||
    fatal "shared folder idle on both daemons"
pass "folder '$FOLDER_ID' shared: $TMP/A <-> $TMP/B"

# Sockets of a daemon (all its processes): every one bound to 127.0.0.1, every peer 127.0.0.1.
sockets_loopback() {
    local pid lines="" bad
    command -v ss >/dev/null 2>&1 || { echo "      (ss not installed: not checked)"; return 0; }
    for pid in $(pids "$1"); do lines+=$(ss -Htuanp 2>/dev/null | grep "pid=$pid,")$'\n'; done
    lines=$(printf '%s' "$lines" | sed '/^$/d')
    [ -n "$lines" ] || { echo "      no socket found for pid $1"; return 1; }
    bad=$(printf '%s\n' "$lines" | awk '$5 !~ /^127\.0\.0\.1:/ || ($6 !~ /^127\.0\.0\.1:/ && $6 != "0.0.0.0:*" && $6 != "*:*")')
    [ -z "$bad" ] || { printf '      %s\n' "$bad"; return 1; }
}
check "syncthing A: every socket (listening and connected) on 127.0.0.1" sockets_loopback "$PID_A"
check "syncthing B: every socket (listening and connected) on 127.0.0.1" sockets_loopback "$PID_B"

# ---------------------------------------------------------------------------------------------
# helpers for the scenario
# ---------------------------------------------------------------------------------------------
scan() { api "$1" POST "/db/scan?folder=$FOLDER_ID" >/dev/null 2>&1; }
scan_both() { scan A; scan B; }

# tree SIDE: "sha256  path" for every file of the folder but Syncthing's own and temp files.
tree() {
    (cd "$TMP/$1" && find . -type f ! -path './.stfolder/*' ! -name '.syncthing.*' ! -name '~syncthing~*' -print0 |
        sort -z | xargs -0 -r sha256sum)
}
trees_equal() {
    local a b
    a=$(tree A) && b=$(tree B) && [ "$a" = "$b" ] && folder_idle A && folder_idle B
}
# settle: have both daemons scan, then wait until both folders hold the same files.
settle() {
    local what=$1
    scan_both
    if wait_until "$WAIT" "$what" trees_equal; then
        return 0
    fi
    echo "      folder A:"; tree A | sed 's/^/        /'
    echo "      folder B:"; tree B | sed 's/^/        /'
    return 1
}

echo "payload" >"$TMP/A/hello.txt"
check "syncthing carries a file from folder A to folder B" settle "hello.txt in folder B"
rm -f "$TMP/A/hello.txt"
check "syncthing carries a deletion from folder A to folder B" settle "hello.txt gone from folder B"
if [ -n "${SYNCTHING_ONLY:-}" ]; then
    echo "(SYNCTHING_ONLY: stopping after $((SECONDS - STARTED))s)"
    summary
    [ "$FAILED" -eq 0 ]
    exit
fi

# ---------------------------------------------------------------------------------------------
# 3. The scenario: two homes, each syncing with its own Syncthing folder
# ---------------------------------------------------------------------------------------------
# ts HOME ARGS...: run tripsync for home A, B, C or V; stdout printed, stderr kept in a log.
ts() {
    local home=$1
    shift
    echo "\$ tripsync --home home$home $*" >>"$TMP/tripsync-$home.stderr"
    "$TRIPSYNC" --home "$TMP/home$home" "$@" 2>>"$TMP/tripsync-$home.stderr"
}
# field JSON EXPR: a value from a JSON document (see json()).
field() { printf '%s' "$1" | json "$2" "${@:3}"; }
# inside HOME FILE: the JSON in a trip file of the folder as laptop HOME, a member, reads it (an
# owned trip's file is sealed, issue 43: opened with the home's epoch keys by
# scripts/sealed_file.py, PyNaCl); fails when it does not open.
inside() { python3 "$ROOT/scripts/sealed_file.py" open --home "$TMP/home$1" "$2"; }
NOT_JSON=0
NOT_JSON_EXAMPLE=
# tsync HOME FOLDER: one sync with --json; the report goes to the variable SYNC_HOME (A/B/C/V).
tsync() {
    local out
    if ! out=$(ts "$1" sync "$2" --json); then
        fail "tripsync --home home$1 sync $2 exits 0" "$(tail -n 5 "$TMP/tripsync-$1.stderr")"
        out='{}'
    fi
    # stdout must be the one JSON line; text lines before it are counted (checked at the end)
    # and the JSON line is read on.
    if [ "$(printf '%s\n' "$out" | wc -l)" -gt 1 ]; then
        NOT_JSON=$((NOT_JSON + 1))
        [ -n "$NOT_JSON_EXAMPLE" ] || NOT_JSON_EXAMPLE="home $1: $(printf '%s\n' "$out" | sed '$d' | head -n 2 | tr '\n' ' ')"
        out=$(printf '%s\n' "$out" | tail -n 1)
    fi
    printf -v "SYNC_$1" '%s' "$out"
    if [ "$(field "$out" "d.get('rekeyed') is None")" != True ]; then
        fail "home $1's sync did not re-key (no fork here)" "$out"
    fi
    printf '%s' "$out" >"$TMP/last-sync-$1.json"
}
fingerprint() { ts "$1" fingerprint; }
same_fingerprint() { local a b; a=$(fingerprint A) && b=$(fingerprint B) && [ -n "$a" ] && [ "$a" = "$b" ]; }
# show_has HOME ITEM KEY VALUE: the item's KEY in `show --json` equals VALUE.
show_has() {
    ts "$1" show --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
items = [i for day in d["days"] for i in day["items"]] + d["unscheduled"]
hit = [i for i in items if i["id"] == sys.argv[1]]
ok = bool(hit) and hit[0].get(sys.argv[2]) == sys.argv[3]
if not ok: print("      %s: %r" % (sys.argv[1], hit[0].get(sys.argv[2]) if hit else "no such item"))
sys.exit(0 if ok else 1)' "$2" "$3" "$4"
}
# rounds: sync A, let Syncthing carry, sync B, carry, until both fingerprints are equal (≤ 6 rounds).
ROUNDS=0
rounds() {
    ROUNDS=0
    while [ "$ROUNDS" -lt 6 ]; do
        ROUNDS=$((ROUNDS + 1))
        tsync A "$TMP/A"
        settle "round $ROUNDS: home A's file carried to folder B" || return 1
        tsync B "$TMP/B"
        settle "round $ROUNDS: home B's file carried to folder A" || return 1
        same_fingerprint && return 0
    done
    echo "      fingerprints still differ after $ROUNDS rounds: A $(fingerprint A), B $(fingerprint B)"
    return 1
}
# notice REPORT TEXT: some trip of a sync report (JSON) has a notice containing TEXT.
notice() {
    [ "$(field "$1" "any(sys.argv[2] in n for t in d.get('trips', []) for n in t.get('notices', []))" "$2")" = True ] ||
        { echo "      no notice containing '$2' in: $(field "$1" "[n for t in d.get('trips', []) for n in t.get('notices', [])]")"; return 1; }
}
# waiting REPORT: the sync report says this laptop asked to join and waits for the owner.
waiting() { [ "$(field "$1" "any(t.get('waitingToJoin') for t in d.get('trips', [])) and not d.get('joined')")" = True ]; }
# device_of HOME: the device id of a home (from its device.json).
device_of() { json "d['deviceId']" <"$TMP/home$1/device.json"; }
# role_of HOME DEVICE: the role `members --json` on HOME shows for DEVICE ("None" when absent).
role_of() { ts "$1" members --json | json "([e.get('role') for e in d if e['device'] == sys.argv[2]] or [None])[0]" "$2"; }
# refused HOME ARGS...: the command exits 1 and says on stderr that a viewer cannot change the trip.
refused() {
    local home=$1 out status
    shift
    echo "\$ tripsync --home home$home $* (expected to be refused)" >>"$TMP/tripsync-$home.stderr"
    out=$("$TRIPSYNC" --home "$TMP/home$home" "$@" 2>&1 >/dev/null)
    status=$?
    printf '%s\n' "$out" >>"$TMP/tripsync-$home.stderr"
    [ "$status" -eq 1 ] && [[ $out == *"is a viewer of"*"cannot change the trip"* ]] ||
        { echo "      exit $status: $out"; return 1; }
}
# hand_edit HOME ITEM TITLE: retitle ITEM in HOME's replica by hand, as a modified client would
# (a new rev of this device, issued in its device.json, so it is no fork): the CLI is bypassed.
hand_edit() {
    python3 - "$TMP/home$1" "$2" "$3" <<'PY'
import gzip, json, os, sys
home, item, title = sys.argv[1:4]
device = json.load(open(os.path.join(home, "device.json")))
me = device["deviceId"]
trips = os.path.join(home, "trips")
names = [n for n in os.listdir(trips) if n.endswith(".trip.json.gz")]
assert len(names) == 1, names
path = os.path.join(trips, names[0])
d = json.loads(gzip.decompress(open(path, "rb").read()))
counter = max(max(d["clock"].values()), device["highWater"]) + 1
d["items"][item]["title"] = {"rev": [counter, me], "value": title}
d["clock"][me] = counter
open(path, "wb").write(gzip.compress(json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()))
device["highWater"] = counter
device["issued"].append([counter, counter])
open(os.path.join(home, "device.json"), "w").write(json.dumps(device, sort_keys=True, separators=(",", ":")))
PY
}

log "home A plans an owned trip with three items and syncs with folder A"
ts A init --device-name "Laptop A" >/dev/null || fatal "tripsync init home A"
TRIP=$(ts A new "Lisbon in June" --zone Europe/Lisbon --owned) || fatal "tripsync new --owned (home A)"
check "home A owns the new trip: members shows the owner key held here and A as owner" eval \
    '[[ $(ts A members) == *"owner key "*"(held here)"* ]] && [ "$(role_of A "$(device_of A)")" = owner ]'
I1=$(ts A add "Tram 28" --day 2027-06-10 --at 10:00) &&
    I2=$(ts A add "Belem tower" --day 2027-06-10 --at 14:00) &&
    I3=$(ts A add "Fado dinner" --day 2027-06-10 --at 20:30) || fatal "tripsync add (home A)"
tsync A "$TMP/A"
DEVA=$(basename "$(field "$SYNC_A" "(d.get('published') or [''])[0]")" .trip.json.gz)
FILE_A=$TRIP/$DEVA.trip.json.gz
check "home A published $FILE_A into folder A" test -f "$TMP/A/$FILE_A"
settle "home A's file carried to folder B" || fatal "Syncthing carries home A's file to folder B"
check "Syncthing carried home A's file to folder B, byte for byte" cmp -s "$TMP/A/$FILE_A" "$TMP/B/$FILE_A"

log "home A invites laptop B as editor; B joins with the code through folder B"
CODE_B=$(ts A invite --role editor) || fatal "tripsync invite --role editor (home A)"
check "the invite code is one line on stdout" eval '[[ $CODE_B =~ ^[A-Za-z0-9._-]+$ ]]'
ts B init --device-name "Laptop B" >/dev/null || fatal "tripsync init home B"
ts B join "$CODE_B" "$TMP/B" >/dev/null || fatal "tripsync join CODE folder-B (home B)"
JOIN_B=$TRIP/$(device_of B).join.json
check "home B wrote its join request $JOIN_B into folder B" test -f "$TMP/B/$JOIN_B"
tsync B "$TMP/B"
check "home B's first sync waits for the owner (nothing joined yet)" waiting "$SYNC_B"
settle "home B's join request carried to folder A" || fatal "Syncthing carries home B's join request to folder A"
check "Syncthing carried the join request to folder A" test -f "$TMP/A/$JOIN_B"
tsync A "$TMP/A"
check "home A's sync admitted Laptop B as editor" notice "$SYNC_A" "admitted Laptop B"
check "home A lists B as editor" test "$(role_of A "$(device_of B)")" = editor
settle "home A's grant carried to folder B" || fatal "Syncthing carries home A's file with the grant to folder B"
tsync B "$TMP/B"
DEVB=$(basename "$(field "$SYNC_B" "(d.get('published') or [''])[0]")" .trip.json.gz)
FILE_B=$TRIP/$DEVB.trip.json.gz
check "home B's next sync joined trip $TRIP from folder B" test "$(field "$SYNC_B" "'$TRIP' in d.get('joined', [])")" = True
check "home B published $FILE_B into folder B" test -f "$TMP/B/$FILE_B"
check "home B has home A's three items" eval 'show_has B "$I1" title "Tram 28" && show_has B "$I2" title "Belem tower" && show_has B "$I3" title "Fado dinner"'
check "home B removed its answered join request from folder B" eval '! test -e "$TMP/B/$JOIN_B"'
check "home B sees itself as editor" test "$(role_of B "$DEVB")" = editor
settle "home B's file carried to folder A" || fatal "Syncthing carries home B's file to folder A"

log "both edit concurrently: A retitles item 1; B retitles item 1 differently and adds a note to item 2"
ts A edit "$I1" --title "Tram 28 at dawn" >/dev/null &&
    ts B edit "$I1" --title "Tram 28 after lunch" >/dev/null &&
    ts B edit "$I2" --note "Bring sunscreen" >/dev/null || fatal "tripsync edit"
if rounds; then pass "homes A and B converge: same fingerprint after $ROUNDS sync round(s) through Syncthing"; else fail "homes A and B converge through Syncthing"; fi
conflict_visible() { # conflict_visible HOME: a title conflict on item 1 holding both titles
    ts "$1" conflicts --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
hit = [c for c in d if c.get("item") == sys.argv[1] and c.get("field") == "title"]
values = {c["current"]["value"] for c in hit} | {a["value"] for c in hit for a in c.get("alternatives", [])}
ok = {"Tram 28 at dawn", "Tram 28 after lunch"} <= values
if not ok: print("      conflicts --json: %s" % json.dumps(d))
sys.exit(0 if ok else 1)' "$I1"
}
check "home A: conflicts --json shows item 1's title conflict with both titles" conflict_visible A
check "home B: conflicts --json shows item 1's title conflict with both titles" conflict_visible B
check "home A has home B's note on item 2" show_has A "$I2" note "Bring sunscreen"
check "home B has its note on item 2" show_has B "$I2" note "Bring sunscreen"

# ---------------------------------------------------------------------------------------------
# 4. A Syncthing conflict copy of home A's file
# ---------------------------------------------------------------------------------------------
# A third laptop C (never connected to Syncthing) is invited as editor; its join request is carried
# into folder B by hand, home A admits it, and C joins the trip from a copy of folder B (its trip
# files and keyrings) and adds an item. While the daemons are disconnected, C's file is copied over A's file in folder B
# (older mtime), and home A publishes a new edit in folder A. On reconnecting Syncthing keeps
# A's newer file and turns folder B's version into A.trip.json.sync-conflict-…gz, which then
# reaches folder A too. The item added by C exists nowhere else: both homes must merge it.
log "a Syncthing conflict copy: concurrent writes of home A's file while the daemons are paused"
mkdir -p "$TMP/C"
ts C init --device-name "Laptop C" >/dev/null || fatal "tripsync init home C"
CODE_C=$(ts A invite --role editor --expires 1) || fatal "tripsync invite --role editor --expires 1 (home A)"
ts C join "$CODE_C" "$TMP/C" >/dev/null || fatal "tripsync join CODE folder-C (home C)"
JOIN_C=$TRIP/$(device_of C).join.json
cp "$TMP/C/$JOIN_C" "$TMP/B/$JOIN_C" || fatal "home C wrote its join request into folder C"
settle "home C's join request carried to folder A" || fatal "Syncthing carries home C's join request (put into folder B by hand) to folder A"
tsync A "$TMP/A"
check "home A's sync admitted Laptop C as editor" notice "$SYNC_A" "admitted Laptop C"
settle "home A's grant for C carried to folder B" || fatal "Syncthing carries home A's grant for C to folder B"
# The trip files and the owner's keyring (issue 43: the files are sealed, and the keyring holds
# the epoch key sealed to C, so without it C's copy of the folder would open nothing).
cp "$TMP/B/$TRIP/"*.trip.json.gz "$TMP/B/$TRIP/"*.keyring.json "$TMP/C/$TRIP/"
tsync C "$TMP/C"
check "home C joined the trip from its copy of folder B" test "$(field "$SYNC_C" "'$TRIP' in d.get('joined', [])")" = True
IC=$(ts C add "Pasteis de nata" --day 2027-06-11 --at 09:00 --zone Europe/Lisbon) || fatal "tripsync add (home C)"
tsync C "$TMP/C"
FILE_C=$(field "$SYNC_C" "(d.get('published') or [''])[0]")
[ -f "$FILE_C" ] || fatal "home C published its file" "$SYNC_C"

api A POST "/system/pause?device=${ID[B]}" >/dev/null && api B POST "/system/pause?device=${ID[A]}" >/dev/null ||
    fatal "pause the device connection through /rest/system/pause"
wait_until "$WAIT" "daemons disconnected" disconnected A B && wait_until "$WAIT" "daemons disconnected" disconnected B A ||
    fatal "daemons disconnected after pausing"
pass "device connection paused on both daemons"

cp "$FILE_C" "$TMP/B/$FILE_A.new" && mv "$TMP/B/$FILE_A.new" "$TMP/B/$FILE_A" && touch -d '-1 hour' "$TMP/B/$FILE_A"
scan B
ts A edit "$I3" --place "Alfama" >/dev/null || fatal "tripsync edit (home A, while paused)"
tsync A "$TMP/A"
scan A
cp "$TMP/A/$FILE_A" "$TMP/a-published-while-paused.gz"
check "home A republished a different file while paused" eval '! cmp -s "$TMP/A/$FILE_A" "$TMP/B/$FILE_A"'

api A POST "/system/resume?device=${ID[B]}" >/dev/null && api B POST "/system/resume?device=${ID[A]}" >/dev/null ||
    fatal "resume the device connection through /rest/system/resume"
wait_until "$WAIT" "daemons reconnected" connected A B && wait_until "$WAIT" "daemons reconnected" connected B A ||
    fatal "daemons reconnected after resuming"
conflict_copies() { # conflict_copies SIDE: names of Syncthing conflict copies in the trip folder
    (cd "$TMP/$1/$TRIP" && ls -1 | grep -F '.sync-conflict-') 2>/dev/null
}
has_conflict_copies() { [ -n "$(conflict_copies A)" ] && [ -n "$(conflict_copies B)" ]; }
scan_both
if wait_until "$WAIT" "a conflict copy in both folders" has_conflict_copies && settle "conflict copy carried to both folders"; then
    pass "Syncthing made a conflict copy, present in both folders: $(conflict_copies A | tr '\n' ' ')"
else
    fatal "Syncthing made a conflict copy present in both folders"
fi
COPY=$(conflict_copies A | head -n 1)
check "exactly one conflict copy" test "$(conflict_copies A | wc -l)" -eq 1
check "the conflict copy is named after home A's file ($DEVA.trip.json.sync-conflict-…)" eval '[[ $COPY == "$DEVA".* ]]'
check "the conflict copy holds home C's content (the loser), A's file holds A's (the winner)" eval \
    'cmp -s "$TMP/A/$TRIP/$COPY" "$FILE_C" && cmp -s "$TMP/A/$FILE_A" "$TMP/a-published-while-paused.gz" && cmp -s "$TMP/B/$FILE_A" "$TMP/a-published-while-paused.gz"'
# Every file that is not home A's (the other device's files) must survive both syncs untouched.
others_snapshot() { (cd "$TMP/$1" && find . -type f ! -path './.stfolder/*' ! -name "$DEVA.*" -print0 | sort -z | xargs -0 -r sha256sum); }
OTHERS_A=$(others_snapshot A)
OTHERS_B=$(others_snapshot B)

log "home B syncs first: merges the conflict copy, which is not its own, and leaves it"
a_files() { (cd "$TMP/$1/$TRIP" && sha256sum "$DEVA".*); }
A_FILES_BEFORE=$(a_files B)
tsync B "$TMP/B"
check "home B's sync left home A's file and A's conflict copy untouched" test "$(a_files B)" = "$A_FILES_BEFORE"
check "home B merged the conflict copy" test "$(field "$SYNC_B" "any(p.endswith('/$COPY') for p in d.get('merged', []))")" = True
check "home B did not remove the conflict copy (it is home A's)" eval 'test -f "$TMP/B/$TRIP/$COPY" && [ "$(field "$SYNC_B" "len(d.get(\"removed\", []))")" = 0 ]'
check "home B has home C's item from the conflict copy" show_has B "$IC" title "Pasteis de nata"
settle "home B's file carried to folder A" || fail "Syncthing carries home B's new file to folder A"

log "home A syncs: merges its own conflict copy, publishes, then removes the copy"
tsync A "$TMP/A"
check "home A merged the conflict copy" test "$(field "$SYNC_A" "any(p.endswith('/$COPY') for p in d.get('merged', []))")" = True
check "home A removed its own conflict copy from folder A" eval '! test -e "$TMP/A/$TRIP/$COPY" && [ "$(field "$SYNC_A" "[p.split(\"/\")[-1] for p in d.get(\"removed\", [])]")" = "[\"$COPY\"]" ]'
check "home A has home C's item from the conflict copy" show_has A "$IC" title "Pasteis de nata"
check "home A's published file is valid" eval '"$TRIPSYNC" validate "$TMP/A/$FILE_A" >/dev/null 2>&1'
settle "the removal carried to folder B" || fail "Syncthing carries home A's removal of the copy to folder B"
check "the conflict copy is gone from folder B too (Syncthing carried the removal)" eval '! test -e "$TMP/B/$TRIP/$COPY"'

if rounds; then pass "homes A and B converge again: same fingerprint after $ROUNDS more round(s)"; else fail "homes A and B converge again after the conflict copy"; fi
check "no conflict copy left in either folder" eval '[ -z "$(conflict_copies A)$(conflict_copies B)" ]'
still_there() { # still_there SIDE SNAPSHOT: every file of the snapshot still exists in the folder
    local sum path missing=""
    while read -r sum path; do [ -n "$path" ] && [ ! -f "$TMP/$1/$path" ] && missing+=" $path"; done <<<"$2"
    [ -z "$missing" ] || { echo "      missing:$missing"; return 1; }
}
check "no other device's file was deleted from folder A" still_there A "$OTHERS_A"
check "no other device's file was deleted from folder B" still_there B "$OTHERS_B"
check "home B's file is in both folders, identical" eval 'test -f "$TMP/A/$FILE_B" && cmp -s "$TMP/A/$FILE_B" "$TMP/B/$FILE_B"'
check "both homes still show the title conflict on item 1" eval 'conflict_visible A && conflict_visible B'
check "both homes have A's place on item 3" eval 'show_has A "$I3" place Alfama && show_has B "$I3" place Alfama'

# ---------------------------------------------------------------------------------------------
# 5. A viewer: laptop V syncs with folder B, next to home B
# ---------------------------------------------------------------------------------------------
log "home A invites laptop V as a viewer; V joins through folder B"
ts V init --device-name "Laptop V" >/dev/null || fatal "tripsync init home V"
CODE_V=$(ts A invite --role viewer) || fatal "tripsync invite --role viewer (home A)"
ts V join "$CODE_V" "$TMP/B" >/dev/null || fatal "tripsync join CODE folder-B (home V)"
DEVV=$(device_of V)
tsync V "$TMP/B"
check "home V's first sync waits for the owner" waiting "$SYNC_V"
settle "home V's join request carried to folder A" || fatal "Syncthing carries home V's join request to folder A"
tsync A "$TMP/A"
check "home A's sync admitted Laptop V as viewer" eval 'notice "$SYNC_A" "admitted Laptop V" && notice "$SYNC_A" "as viewer"'
settle "home A's grant for V carried to folder B" || fatal "Syncthing carries home A's grant for V to folder B"
tsync V "$TMP/B"
check "home V's next sync joined the trip from folder B" test "$(field "$SYNC_V" "'$TRIP' in d.get('joined', [])")" = True
check "home V has the trip: A's place on item 3, B's note on item 2" eval 'show_has V "$I3" place Alfama && show_has V "$I2" note "Bring sunscreen"'
check "home V sees itself as viewer" test "$(role_of V "$DEVV")" = viewer
check "home V's CLI refuses an edit (exit 1, says it is a viewer)" refused V edit "$I2" --title "Belem at night"
check "home V's CLI refuses an add (exit 1, says it is a viewer)" refused V add "Viewer's dinner" --day 2027-06-11
check "home V's refused edit changed nothing" show_has V "$I2" title "Belem tower"
settle "home V's file carried to folder A" || fail "Syncthing carries home V's file to folder A"

log "home V retitles item 2 in its replica by hand (the CLI bypassed) and syncs; nobody takes it"
hand_edit V "$I2" "Viewer was here" || fatal "edit home V's replica by hand"
check "home V shows its hand edit locally" show_has V "$I2" title "Viewer was here"
tsync V "$TMP/B"
FILE_V=$TRIP/$DEVV.trip.json.gz
check "home V published its file with the hand edit into folder B" eval 'test -f "$TMP/B/$FILE_V" && inside V "$TMP/B/$FILE_V" | grep -c "Viewer was here" >/dev/null'
settle "home V's edited file carried to folder A" || fatal "Syncthing carries home V's edited file to folder A"
tsync A "$TMP/A"
check "home A read V's file (a viewer's file gives its acks only)" test "$(field "$SYNC_A" "any(p.endswith('/$DEVV.trip.json.gz') for p in d.get('merged', []) + d.get('unchanged', []))")" = True
check "home A's item 2 keeps its title" show_has A "$I2" title "Belem tower"
settle "home A's file carried to folder B" || fail "Syncthing carries home A's file to folder B"
tsync B "$TMP/B"
check "home B's item 2 keeps its title" show_has B "$I2" title "Belem tower"
if rounds; then pass "homes A and B converge with the viewer's file in the folders: same fingerprint after $ROUNDS round(s)"; else fail "homes A and B converge with the viewer's file present"; fi
check "after the rounds, neither home A nor B took the viewer's title" eval 'show_has A "$I2" title "Belem tower" && show_has B "$I2" title "Belem tower"'
check "home A lists B and C as editors, V as viewer" eval \
    '[ "$(role_of A "$DEVB")" = editor ] && [ "$(role_of A "$(device_of C)")" = editor ] && [ "$(role_of A "$DEVV")" = viewer ]'

# ---------------------------------------------------------------------------------------------
# 6. A photo (issue 17): attached on laptop A, carried by Syncthing, shared on laptop B
# ---------------------------------------------------------------------------------------------
# A 4 MiB JPEG made here (JFIF, a frame and a scan of random entropy-coded bytes) is attached on
# home A: staged until A's sync puts its bytes into folder A and only then names it. Syncthing
# moves files independently: to see the bytes travel after the trip file, daemon B ignores the
# blob folders (.stignore) until A's file naming the photo has reached folder B, and home B's
# sync then shows it as arriving. Then the ignore goes, and home B syncs again and again while
# Syncthing carries the blob: every listing shows arriving until the bytes land, then shared;
# never staged, quarantined or anything else, and nothing quarantined in home B.
log "home A attaches a 4 MiB photo to item 1 and syncs; home B syncs while Syncthing carries it"
PHOTO=$TMP/photo.jpg
python3 - "$PHOTO" <<'PY'
import os, struct, sys
def segment(marker, payload): return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
scan = bytearray(os.urandom(4 << 20))
out = bytearray(b"\xFF\xD8")
out += segment(0xE0, b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
out += segment(0xC0, bytes([8, 0x05, 0xA0, 0x07, 0x80, 1, 1, 0x11, 0]))
out += segment(0xDA, bytes([1, 1, 0, 0, 63, 0]))
out += scan.replace(b"\xFF", b"\xFF\x00")
out += b"\xFF\xD9"
open(sys.argv[1], "wb").write(out)
PY
[ -s "$PHOTO" ] || fatal "python3 writes a 4 MiB JPEG at $PHOTO"
PHOTO_SHA=$(sha256sum "$PHOTO" | cut -d' ' -f1)
PHOTO_SIZE=$(stat -c %s "$PHOTO")
printf 'blobs\n' >"$TMP/B/.stignore"
scan B
ts A attach "$I1" "$PHOTO" --caption "Tram 28 at the stop" >/dev/null || fatal "tripsync attach ITEM photo.jpg (home A)"
# state_of HOME: the photo's state in `attachments --json` on HOME ("none" when not listed).
state_of() {
    ts "$1" attachments --json | json "([e['state'] for e in d if e.get('sha256') == sys.argv[2]] or ['none'])[0]" "$PHOTO_SHA"
}
check "home A lists the photo as staged before its sync" test "$(state_of A)" = staged
check "home A's published file does not name the photo before A's sync" eval 'inside A "$TMP/A/$FILE_A" >"$TMP/a-before.json" && ! grep -q "$PHOTO_SHA" "$TMP/a-before.json"'
tsync A "$TMP/A"
# An owned trip's photo goes into the folder only sealed (schema 7): one file, named by the
# SHA-256 of the sealed bytes, holding none of the photo's bytes.
SEALED=$(ls "$TMP/A/$TRIP/blobs" 2>/dev/null | grep -E '^[0-9a-f]{64}$' | head -n 1)
check "home A's sync put one sealed copy of the photo into folder A (FOLDER/<trip>/blobs/<sha256 of the sealed bytes>)" eval \
    '[ -n "$SEALED" ] && [ "$(ls "$TMP/A/$TRIP/blobs" | grep -c -E "^[0-9a-f]{64}$")" = 1 ] && [ "$(sha256sum "$TMP/A/$TRIP/blobs/$SEALED" | cut -d" " -f1)" = "$SEALED" ]'
check "folder A holds no file named by the photo's own hash" eval '! test -e "$TMP/A/$TRIP/blobs/$PHOTO_SHA"'
check "the sealed copy in folder A holds none of the photo's bytes (a 64-byte slice of its scan)" python3 -c '
import sys
photo, sealed = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
sys.exit(1 if photo[100000:100064] in sealed else 0)' "$PHOTO" "$TMP/A/$TRIP/blobs/$SEALED"
check "home A's published file names the photo" eval 'inside A "$TMP/A/$FILE_A" | grep -q "$PHOTO_SHA"'
check "home A lists the photo as shared" test "$(state_of A)" = shared
check "home A's attachments --json has the keys of CLI.md" eval '[ "$(ts A attachments --json | json "sorted(set(k for e in d for k in (\"id\",\"item\",\"name\",\"caption\",\"sha256\",\"size\",\"type\",\"state\") if k in e))")" = "[\"caption\", \"id\", \"item\", \"name\", \"sha256\", \"size\", \"state\", \"type\"]" ]'
a_file_carried() { cmp -s "$TMP/A/$FILE_A" "$TMP/B/$FILE_A" && folder_idle B; }
scan_both
wait_until "$WAIT" "home A's file naming the photo carried to folder B" a_file_carried ||
    fatal "Syncthing carries home A's file naming the photo to folder B"
check "the photo's sealed copy is not in folder B yet (daemon B ignores blobs/)" eval '! test -e "$TMP/B/$TRIP/blobs/$SEALED"'
tsync B "$TMP/B"
check "home B lists the photo as arriving while its bytes are not in folder B" test "$(state_of B)" = arriving
check "home B's extract of the arriving photo is refused (exit 1), nothing written" eval \
    '! ts B extract "$(ts B attachments --json | json "d[0][\"id\"]")" -o "$TMP/photo-too-early.jpg" >/dev/null && ! test -e "$TMP/photo-too-early.jpg"'
rm -f "$TMP/B/.stignore"
scan_both
SEEN_B=()
photo_shared_on_b() {
    local state
    tsync B "$TMP/B"
    state=$(state_of B) || state="attachments --json failed"
    SEEN_B+=("$state")
    [ "$state" = shared ]
}
if wait_until "$WAIT" "the photo shared on home B" photo_shared_on_b; then
    pass "the photo became shared on home B after ${#SEEN_B[@]} sync(s) of B while Syncthing carried it"
else
    fail "the photo becomes shared on home B" "states seen on B: ${SEEN_B[*]}"
fi
UNEXPECTED=$(printf '%s\n' "${SEEN_B[@]}" | grep -v -x -e none -e arriving -e shared | sort -u | tr '\n' ' ')
check "while it travelled home B showed the photo only as arriving (or not yet named), never broken: ${SEEN_B[*]}" test -z "$UNEXPECTED"
check "home B quarantined nothing" eval '[ -z "$(ls -A "$TMP/homeB/blobs/quarantine" 2>/dev/null)" ]'
check "home B lists the photo with its size, type and caption" eval \
    '[ "$(ts B attachments --json | json "[(e[\"size\"], e[\"type\"], e[\"caption\"]) for e in d if e[\"sha256\"] == sys.argv[2]]" "$PHOTO_SHA")" = "[[$PHOTO_SIZE, \"image/jpeg\", \"Tram 28 at the stop\"]]" ]'
PHOTO_ID=$(ts B attachments --json | json "[e['id'] for e in d if e['sha256'] == sys.argv[2]][0]" "$PHOTO_SHA")
ts B extract "$PHOTO_ID" -o "$TMP/photo-on-b.jpg" >/dev/null
check "the photo extracted on home B is byte-identical to the one attached on A" cmp -s "$PHOTO" "$TMP/photo-on-b.jpg"
check "folder B holds the photo's sealed copy, byte-identical to folder A's" cmp -s "$TMP/A/$TRIP/blobs/$SEALED" "$TMP/B/$TRIP/blobs/$SEALED"
if rounds; then pass "homes A and B converge with the photo: same fingerprint after $ROUNDS round(s)"; else fail "homes A and B converge with the photo"; fi

if [ "$NOT_JSON" -eq 0 ]; then
    pass "every sync --json printed one JSON document on stdout, nothing else"
else
    fail "every sync --json printed one JSON document on stdout, nothing else" \
        "$NOT_JSON syncs printed text lines before the JSON, e.g. $NOT_JSON_EXAMPLE"
fi
check "syncthing A: every socket still on 127.0.0.1" sockets_loopback "$PID_A"
check "syncthing B: every socket still on 127.0.0.1" sockets_loopback "$PID_B"

echo "(runtime $((SECONDS - STARTED))s)"
[ "$FAILED" -eq 0 ] || dump_logs
summary
[ "$FAILED" -eq 0 ]
