#!/usr/bin/env bash
# The release `tripsync` is self-contained (issue 29): the Swift runtime, Foundation, libsodium,
# libdeflate, OpenSSL's libcrypto and zlib are all inside the binary (Package.swift), so it runs on
# any x86_64 Linux with glibc. Checked two ways:
#
# 1. `ldd` lists only glibc's libraries (libc, libm, libdl, libpthread, librt, ld-linux, the vDSO)
#    and GCC's runtime (libstdc++, libgcc_s: the static Swift runtime is C++ and the toolchain's
#    static-stdlib-args.lnk links libstdc++ shared; both are on every glibc system, Debian's
#    minbase included);
# 2. the binary runs in a clean Debian root (`debootstrap --variant=minbase bookworm`: no -dev
#    package, no Swift, none of the four libraries' -dev files) through `chroot`: --version, init,
#    new, add, show (and show --in another zone), backup, validate of the bundled samples, sync to
#    a folder, invite/join/sync with a second home, export --ics, attach (SHA-256 by libcrypto,
#    checked against sha256sum), owner export/import with a passphrase file (Argon2id and
#    secretbox by libsodium; a wrong passphrase refused), `open` (libmicrohttpd inside the binary,
#    its TLS calls stubbed: docs/DESIGN.md, "The server") answering raw HTTP over bash's /dev/tcp:
#    401 without the cookie, the token for a cookie, the trip page, an Add, a foreign Host refused,
#    SIGTERM ending it with exit 0. Then the same root with its tz database
#    moved away (bookworm's minbase has tzdata; other systems may not): times still convert with
#    the zone data of Foundation's ICU inside the binary, and an unknown zone is still refused.
#
# Usage: Tests/static/run.sh      (run as root: chroot needs it)
#   TRIPSYNC=path/to/tripsync     a release binary already built (default: builds
#                                 `swift build -c release --product tripsync` in the package root)
#   TRIPSYNC_ROOTFS=DIR           where the clean root is cached (default /var/cache/tripsync-rootfs;
#                                 made once by debootstrap, about 3 minutes; reused afterwards)
#   DEBIAN_MIRROR=URL             debootstrap's mirror (default http://deb.debian.org/debian)
#   KEEP_TMP=1                    keep the work folder inside the root
# Runtime on a cached root with a built binary: about 5 s. Output: PASS/FAIL per check, then
# "N passed, M failed"; exit 0 only when nothing failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${TRIPSYNC_ROOTFS:-/var/cache/tripsync-rootfs}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
RFS=$CACHE/$SUITE-minbase
PASSED=0
FAILED=0

pass() { PASSED=$((PASSED + 1)); printf 'PASS  %s\n' "$1"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL  %s\n' "$1"; [ $# -gt 1 ] && printf '      %s\n' "${@:2}"; return 0; }
summary() { printf '%s passed, %s failed\n' "$PASSED" "$FAILED"; }
die() { printf 'Tests/static/run.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (it runs the binary through chroot in a debootstrap root)"
command -v chroot >/dev/null || die "needs chroot (coreutils)"
command -v ldd >/dev/null || die "needs ldd (libc-bin)"

# --- the binary
if [ -z "${TRIPSYNC:-}" ]; then
    echo "--- building the release binary (swift build -c release --product tripsync)"
    (cd "$ROOT" && swift build -c release --product tripsync) || die "the release build failed"
    TRIPSYNC=$ROOT/.build/release/tripsync
fi
case $TRIPSYNC in /*) ;; *) TRIPSYNC=$ROOT/$TRIPSYNC ;; esac
[ -x "$TRIPSYNC" ] || die "no tripsync binary at $TRIPSYNC"

# --- 1. ldd: only glibc's libraries and GCC's runtime
echo "--- ldd $TRIPSYNC"
LDD=$(ldd "$TRIPSYNC" 2>&1)
printf '%s\n' "$LDD" | sed 's/^/      /'
UNEXPECTED=$(printf '%s\n' "$LDD" | awk '{print $1}' | grep -v -E '^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1|statically)$' || true)
if [ -z "$UNEXPECTED" ]; then
    pass "ldd lists only glibc's libraries, libstdc++ and libgcc_s"
else
    fail "ldd lists libraries a bare glibc system may lack:" $UNEXPECTED
fi
for lib in libsodium libdeflate libcrypto libz.so libswift libFoundation libdispatch; do
    case $LDD in *"$lib"*) fail "ldd names $lib (it should be inside the binary)" ;; *) pass "$lib is inside the binary (not in ldd)" ;; esac
done

# --- 2. a clean root: debootstrap once, cached outside the repository
if [ ! -x "$RFS/bin/sh" ]; then
    command -v debootstrap >/dev/null || die "needs debootstrap (apt-get install -y debootstrap) to make the clean root $RFS"
    echo "--- making the clean root: debootstrap --variant=minbase $SUITE $RFS $MIRROR (once, about 3 minutes)"
    mkdir -p "$CACHE" || die "cannot make $CACHE"
    rm -rf "$RFS.partial"
    if ! debootstrap --variant=minbase "$SUITE" "$RFS.partial" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1; then
        tail -5 "$CACHE/debootstrap.log" >&2
        die "debootstrap could not make a $SUITE root from $MIRROR (is the mirror reachable? DEBIAN_MIRROR sets another); its log: $CACHE/debootstrap.log"
    fi
    mv "$RFS.partial" "$RFS" || die "cannot move $RFS.partial to $RFS"
fi
echo "--- the clean root: $RFS"

DEV=$(chroot "$RFS" dpkg-query -W -f '${Package}\n' | grep -E -- '-dev$' || true)
[ -z "$DEV" ] && pass "the root has no -dev package" || fail "the root has -dev packages:" $DEV
chroot "$RFS" /bin/sh -c 'command -v swift swiftc' >/dev/null && fail "the root has a Swift toolchain" || pass "the root has no Swift toolchain"
for lib in libsodium libdeflate libcrypto.so libssl; do
    if ls "$RFS"/usr/lib/x86_64-linux-gnu/"$lib"* >/dev/null 2>&1; then
        fail "the root has $lib (it would hide a missing static link)"
    else
        pass "the root has no $lib"
    fi
done

WORK=$(mktemp -d "$RFS/tmp/tripsync-static.XXXXXX") || die "cannot make a folder in $RFS/tmp"
IN=${WORK#"$RFS"} # the same folder as seen inside the root
MOUNTED_PROC=
cleanup() {
    [ -d "$RFS/usr/share/zoneinfo.hidden" ] && mv "$RFS/usr/share/zoneinfo.hidden" "$RFS/usr/share/zoneinfo"
    [ -n "$MOUNTED_PROC" ] && umount "$RFS/proc" 2>/dev/null
    if [ "${KEEP_TMP:-}" = 1 ]; then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
# A machine has /proc; mount it in the root when it is not there (a container may forbid it: then
# the binary runs without, which it must survive too).
if [ ! -e "$RFS/proc/self" ] && mount -t proc proc "$RFS/proc" 2>/dev/null; then MOUNTED_PROC=1; fi
[ -n "$MOUNTED_PROC" ] && echo "--- /proc mounted in the root" || echo "--- no /proc in the root (mount refused or already there)"

cp "$TRIPSYNC" "$WORK/tripsync"
cp -r "$ROOT/samples" "$WORK/samples"
mkdir "$WORK/shared"

# ts HOME ARGS...: runs the copied binary inside the root, in home $IN/homeHOME, with a bare
# environment; stdout in $OUT, stderr in $ERR, the exit code in $RC.
ts() {
    local home=$1; shift
    chroot "$RFS" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
        "$IN/tripsync" --home "$IN/home$home" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
    RC=$?
    OUT=$(cat "$WORK/out.txt")
    ERR=$(cat "$WORK/err.txt")
}
# check NAME EXPECTED-TEXT: exit 0 and the text in stdout+stderr.
check() {
    if [ "$RC" = 0 ] && case "$OUT$ERR" in *"$2"*) true ;; *) false ;; esac; then
        pass "$1"
    else
        fail "$1 (exit $RC; expected 0 and '$2')" "$OUT" "$ERR"
    fi
}
must() { [ "$RC" = 0 ] || { fail "setup: $1 (exit $RC)" "$OUT" "$ERR"; summary; exit 1; }; }

echo "--- inside the root"
START=$(date +%s)
chroot "$RFS" ldd "$IN/tripsync" >"$WORK/ldd.txt" 2>&1
grep -q "not found" "$WORK/ldd.txt" && fail "the root lacks a library the binary needs:" "$(grep 'not found' "$WORK/ldd.txt")" || pass "every library the binary needs is in the root (ldd there)"

ts A --version
check "tripsync --version" "tripsync "
ts A init --device-name "Laptop A"
check "init" "device "
ts A new "Lisbon 2027" --zone Europe/Lisbon
must "new"
TRIP=$OUT
[ -n "$TRIP" ] && pass "new prints the trip id ($TRIP)" || fail "new prints the trip id"
ts A add "Fado night" --day 2027-06-08 --at 21:00 --place "Alfama"
must "add"
ITEM=$OUT
pass "add prints the item id ($ITEM)"
ts A add "Flight home" --day 2027-06-10 --at 11:00 --end 2027-06-10T13:30 --end-zone America/New_York
check "add a flight ending in another zone" ""
ts A show
check "show lists the item" "Fado night"
check "show gives its local time" "21:00"
ts A show --in America/New_York
check "show --in America/New_York converts with the tz database (21:00 Lisbon is 16:00 there)" "16:00"

ts A backup -o "$IN/backup.trip.json.gz"
check "backup -o FILE" "wrote"
[ "$(head -c 2 "$WORK/backup.trip.json.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] && pass "the backup is gzip (libdeflate)" || fail "the backup is gzip (libdeflate)"
# README's main job: every bundled sample that is not under an invalid/ folder (README's first
# command lists the same folders).
SAMPLES=$(cd "$WORK" && find samples -name '*.trip.json*' -not -path '*/invalid/*' | sort | sed "s|^|$IN/|")
# shellcheck disable=SC2086
ts A validate "$IN/backup.trip.json.gz" $SAMPLES
check "validate the backup and the bundled samples ($(echo $SAMPLES | wc -w) files)" ""

ts A attach "$ITEM" "$IN/backup.trip.json.gz" --caption "a file"
check "attach a small file" "attached"
ts A attachments --json
HASH=$(printf '%s' "$OUT" | grep -o '"sha256" *: *"[0-9a-f]*"' | head -1 | grep -o '[0-9a-f]\{64\}')
WANT=$(chroot "$RFS" sha256sum "$IN/backup.trip.json.gz" | cut -d' ' -f1)
[ -n "$HASH" ] && [ "$HASH" = "$WANT" ] && pass "the attachment's SHA-256 (libcrypto) equals sha256sum's" || fail "the attachment's SHA-256 (libcrypto) equals sha256sum's ($HASH, sha256sum $WANT)" "$OUT"

ts A sync "$IN/shared"
check "sync to a folder" ""
[ -n "$(ls -A "$WORK/shared" 2>/dev/null)" ] && pass "sync wrote into the folder" || fail "sync wrote into the folder"

ts A export --ics "$IN/trip.ics"
check "export --ics" "wrote"
ICS=$(cat "$WORK/trip.ics" 2>/dev/null)
case $ICS in *BEGIN:VCALENDAR*"Fado night"*END:VCALENDAR*) pass "the calendar holds the item" ;; *) fail "the calendar holds the item" "$ICS" ;; esac
# 21:00 in Lisbon in June (WEST, UTC+1) is 20:00 UTC; either form of DTSTART is right.
case $ICS in *"DTSTART:20270608T200000Z"* | *"DTSTART;TZID=Europe/Lisbon:20270608T210000"*) pass "the calendar's start is 21:00 Lisbon time" ;; *) fail "the calendar's start is 21:00 Lisbon time" "$(printf '%s\n' "$ICS" | grep DTSTART)" ;; esac

echo "--- tripsync open: the server (libmicrohttpd inside the binary) answers, takes a change, stops on SIGTERM"
# http PORT REQUEST: sends REQUEST over bash's /dev/tcp and prints the whole response.
http() {
    exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
    printf '%b' "$2" >&3
    timeout 10 cat <&3
    exec 3<&- 3>&-
}
chroot "$RFS" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    "$IN/tripsync" --home "$IN/homeA" open --no-browser >"$WORK/open.txt" 2>"$WORK/open-err.txt" &
OPEN_PID=$!
for _ in $(seq 1 50); do [ -s "$WORK/open.txt" ] && break; sleep 0.1; done
LINE=$(head -1 "$WORK/open.txt")
# http://LABEL.localhost:PORT/ (sign in through /…/open/login-….html): the home's own host name,
# and the one-time sign-in in a private page (the token is in no argument; issue 42).
LABEL=$(printf '%s' "$LINE" | sed -n 's|^http://\([a-z0-9]\{20\}\)\.localhost:[0-9]*/ (sign in through .*)$|\1|p')
PORT=$(printf '%s' "$LINE" | sed -n 's|^http://[a-z0-9]\{20\}\.localhost:\([0-9]*\)/ (sign in through .*)$|\1|p')
LOGIN=$(printf '%s' "$LINE" | sed -n 's|^.* (sign in through \(.*\))$|\1|p')
TOKEN=$(grep -o 'token=[0-9a-f]*' "$RFS$LOGIN" 2>/dev/null | head -1 | cut -d= -f2)
if [ -n "$PORT" ] && [ -n "$LABEL" ] && [ -n "$TOKEN" ]; then
    pass "open prints the home's own address and a private sign-in page ($(wc -l <"$WORK/open.txt") line, page mode $(stat -c %a "$RFS$LOGIN"))"
    HOST="$LABEL.localhost:$PORT"
    R=$(http "$PORT" "GET /trips/$TRIP HTTP/1.1\r\nHost: $HOST\r\nConnection: close\r\n\r\n")
    case $R in "HTTP/1.1 401"*) case $R in *"Fado night"*) fail "without the cookie: 401 and no trip data" ;; *) pass "without the cookie: 401 and no trip data" ;; esac ;; *) fail "without the cookie: 401" "$R" ;; esac
    R=$(http "$PORT" "GET /?token=$TOKEN HTTP/1.1\r\nHost: $HOST\r\nConnection: close\r\n\r\n")
    COOKIE=$(printf '%s' "$R" | tr -d '\r' | sed -n "s/^Set-Cookie: \(tripsync_$LABEL=[0-9a-f]*\);.*HttpOnly.*/\1/p")
    [ -n "$COOKIE" ] && pass "the token gives an HttpOnly cookie of this home's own name" || fail "the token gives an HttpOnly cookie" "$R"
    R=$(http "$PORT" "GET /trips/$TRIP HTTP/1.1\r\nHost: $HOST\r\nCookie: $COOKIE\r\nConnection: close\r\n\r\n")
    case $R in "HTTP/1.1 200"*"Fado night"*) pass "the trip page shows the itinerary" ;; *) fail "the trip page shows the itinerary" "$(printf '%s' "$R" | head -3)" ;; esac
    CSRF=$(printf '%s' "$R" | grep -o 'name="csrf" value="[0-9a-f]*"' | head -1 | grep -o '[0-9a-f]\{64\}')
    FORM=$(printf '%s' "$R" | grep -o 'name="formkey" value="[0-9a-f]*"' | head -1 | sed 's/.*value="\([0-9a-f]*\)"/\1/')
    BODY="csrf=$CSRF&formkey=$FORM&title=Pasteis&day=9+Jun+2027&time=9%3A30&zone=Europe%2FLisbon"
    R=$(http "$PORT" "POST /trips/$TRIP/items HTTP/1.1\r\nHost: $HOST\r\nCookie: $COOKIE\r\nOrigin: http://$HOST\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${#BODY}\r\nConnection: close\r\n\r\n$BODY")
    case $R in "HTTP/1.1 303"*) pass "Add through the page (303)" ;; *) fail "Add through the page" "$(printf '%s' "$R" | head -3)" ;; esac
    R=$(http "$PORT" "GET /trips/$TRIP HTTP/1.1\r\nHost: 127.0.0.1:$PORT\r\nCookie: $COOKIE\r\nConnection: close\r\n\r\n")
    case $R in "HTTP/1.1 421"*) pass "the bare loopback address is refused as a Host (421)" ;; *) fail "the bare loopback address is refused as a Host" "$(printf '%s' "$R" | head -3)" ;; esac
    R=$(http "$PORT" "GET /trips/$TRIP HTTP/1.1\r\nHost: evil.example\r\nCookie: $COOKIE\r\nConnection: close\r\n\r\n")
    case $R in "HTTP/1.1 421"*) pass "a foreign Host is refused" ;; *) fail "a foreign Host is refused" "$(printf '%s' "$R" | head -3)" ;; esac
else
    fail "open prints one URL with a token" "$(cat "$WORK/open.txt" "$WORK/open-err.txt")"
fi
kill -TERM "$OPEN_PID" 2>/dev/null
wait "$OPEN_PID"
OPEN_RC=$?
[ "$OPEN_RC" = 0 ] && pass "open stops on SIGTERM with exit 0" || fail "open stops on SIGTERM with exit 0 (exit $OPEN_RC)" "$(cat "$WORK/open-err.txt")"
ts A show
check "the item added in the browser is in the trip" "Pasteis"

echo "--- a second laptop joins; the owner key moves to it"
ts A invite --role editor
must "invite"
CODE=$OUT
ts B init --device-name "Laptop B"
must "init B"
ts B join "$CODE" "$IN/shared"
check "join with the invite" "asked to join"
ts A sync "$IN/shared"
must "the owner's sync"
ts B sync "$IN/shared"
check "the second laptop syncs" ""
ts B show
check "the second laptop shows the trip read from the folder (gzip inflated by libdeflate)" "Fado night"
printf 'correct horse battery staple\n' >"$WORK/pass.txt"
printf 'a wrong passphrase entirely\n' >"$WORK/wrong.txt"
ts A owner export -o "$IN/owner.key" --passphrase-file "$IN/pass.txt"
check "owner export with a passphrase file (Argon2id, secretbox)" "wrote the owner key"
ts B owner import "$IN/owner.key" --passphrase-file "$IN/wrong.txt"
[ "$RC" != 0 ] && pass "owner import with a wrong passphrase is refused (exit $RC)" || fail "owner import with a wrong passphrase is refused" "$OUT"
ts B owner import "$IN/owner.key" --passphrase-file "$IN/pass.txt"
check "owner import with the passphrase" "is an owner"
echo "    (the checks inside the root took $(($(date +%s) - START)) s)"

echo "--- the same root without its tz database (usr/share/zoneinfo moved away)"
mv "$RFS/usr/share/zoneinfo" "$RFS/usr/share/zoneinfo.hidden"
ts A show
check "show still works" "Fado night"
ts A show --in America/New_York
check "show --in America/New_York still converts (Foundation's own zone data)" "16:00"
ts A add "Sushi" --day 2027-06-09 --at 19:00 --zone Asia/Tokyo
check "add --zone Asia/Tokyo still works" ""
ts A add "Nowhere" --day 2027-06-09 --at 19:00 --zone Mars/Olympus_Mons
if [ "$RC" != 0 ]; then
    case "$OUT$ERR" in *Mars/Olympus_Mons*) pass "an unknown zone is still refused, naming it (exit $RC)" ;; *) fail "an unknown zone is refused naming it" "$OUT" "$ERR" ;; esac
else
    fail "an unknown zone is still refused without the tz database (exit 0)" "$OUT"
fi
mv "$RFS/usr/share/zoneinfo.hidden" "$RFS/usr/share/zoneinfo"

summary
[ "$FAILED" = 0 ]
