#!/usr/bin/env bash
# `tripsync open` as people use it (issue 28, DESIGN.md section 8): two laptops (two homes sharing
# one trip through a temporary shared folder, joined with an invite code), each with its own
# `tripsync open --no-browser`, driven by two headless Chromiums through Selenium (browser.py:
# plan, sync, conflict, keep, converge, delete and restore, live CLI changes, upload, members,
# keyboard, axe-core, screenshots; issue 42: each browser signed in through the private page its
# server wrote, a page on another port of 127.0.0.1 given no cookie, every wrong field marked at
# once, and a third laptop, Jo's, joining from the page); then another home asked with raw HTTP
# (refusals.py: token, cookie, Host, Origin, anti-forgery token, headers, attachment types; the
# trip unchanged; and local.py: a second `open`, a fake browser recording every command line, a
# second local user `tripsync-other` when .ci/run made one, 64 half-open connections).
#
#   TRIPSYNC=.build/debug/tripsync bash Tests/webapp/run.sh     # builds nothing itself
#   WEBAPP_OUT=/tmp/web bash Tests/webapp/run.sh                # keep the homes and server logs there
#
# Screenshots (itinerary and conflicts at 390 and 1280 px) are written to Tests/webapp/screenshots/
# (WEBAPP_SHOTS elsewhere). Needs python3 with selenium and axe-selenium-python (pip), Pillow, and
# Debian's chromium and chromium-driver (/usr/bin/chromedriver).
set -euo pipefail
cd "$(dirname "$0")/../.."

TRIPSYNC=${TRIPSYNC:-$(swift build --show-bin-path)/tripsync}
SHOTS=${WEBAPP_SHOTS:-Tests/webapp/screenshots}
[ -x "$TRIPSYNC" ] || { echo "webapp test: no tripsync at $TRIPSYNC (swift build --product tripsync, then TRIPSYNC=path)" >&2; exit 3; }
for tool in "${CHROMIUM:-/usr/bin/chromium}" "${CHROMEDRIVER:-/usr/bin/chromedriver}"; do
    [ -x "$tool" ] || { echo "webapp test: $tool missing (apt-get install -y chromium chromium-driver)" >&2; exit 3; }
done
python3 -c 'import selenium, axe_selenium_python, PIL' 2>/dev/null ||
    { echo "webapp test: python3 lacks selenium, axe-selenium-python or Pillow (python3 -m pip install selenium axe-selenium-python pillow)" >&2; exit 3; }

if ! "$TRIPSYNC" help open >/dev/null 2>&1; then
    echo "webapp test: FAIL: $TRIPSYNC has no 'open' command (issue 28: tripsync open is not built yet)" >&2
    exit 1
fi

WORK=${WEBAPP_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tripsync-webapp.XXXXXX")}
mkdir -p "$WORK"
[ -n "${WEBAPP_OUT:-}" ] || trap 'rm -rf "$WORK"' EXIT
export WEBAPP_OUT=$WORK
# Nothing of the machine's zone or locale may reach the pages.
export TZ=America/St_Johns LC_ALL=C.UTF-8

alex() { "$TRIPSYNC" --home "$WORK/alex" "$@"; }
sam() { "$TRIPSYNC" --home "$WORK/sam" "$@"; }
rm -rf "$WORK/alex" "$WORK/sam" "$WORK/refusals" "$WORK/folder"
mkdir -p "$WORK/folder"

alex init --device-name "Alex's laptop" >/dev/null
sam init --device-name "Sam's laptop" >/dev/null
alex new "Porto & Lisbon, June" --zone Europe/Lisbon --owned >/dev/null
alex add "Train to Porto" --day 2027-06-09 --at 08:00 --end 2027-06-09T11:15 --place "Lisboa Santa Apolónia" >/dev/null
alex add "Livraria Lello at opening" --day 2027-06-10 --at 09:00 --place "Rua das Carmelitas 144" >/dev/null
alex add "Francesinha at Café Santiago" --day 2027-06-10 --at 20:00 --note "Book a table; closes at 23:00." >/dev/null
alex add '<script>alert(1)</script>' --day 2027-06-11 --at 10:00 --place '"><img src=x onerror=alert(3)>' >/dev/null
alex add '"><img src=x onerror=alert(2)>' --day 2027-06-11 --at 12:00 --note '<script>alert(4)</script>' >/dev/null
# Sam joins with an invite code through the shared folder; Alex's sync admits, Sam's brings the trip.
code=$(alex invite --role editor 2>/dev/null)
sam join "$code" "$WORK/folder" >/dev/null
alex sync "$WORK/folder" >/dev/null
sam sync "$WORK/folder" >/dev/null
[ "$(alex fingerprint)" = "$(sam fingerprint)" ] || { echo "webapp test: setup: the two homes differ after joining" >&2; exit 1; }

status=0
python3 Tests/webapp/browser.py --tripsync "$TRIPSYNC" --alex "$WORK/alex" --sam "$WORK/sam" --out "$WORK" --screenshots "$SHOTS" || status=1

"$TRIPSYNC" --home "$WORK/refusals" init --device-name "Robin's laptop" >/dev/null
"$TRIPSYNC" --home "$WORK/refusals" new "Porto & Lisbon, June" --zone Europe/Lisbon --owned >/dev/null
python3 Tests/webapp/refusals.py --tripsync "$TRIPSYNC" --home "$WORK/refusals" --out "$WORK" || status=1

if [ "$status" -eq 0 ]; then
    echo "webapp test: passed (screenshots in $SHOTS)"
else
    echo "webapp test: FAILED (server logs in $WORK when WEBAPP_OUT is set)" >&2
fi
exit "$status"
