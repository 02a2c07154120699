#!/usr/bin/env bash
# The itinerary page in a real browser (issue 19). Two homes plan one trip: flights across zones,
# an overnight flight, a hotel stay, whole-day and multi-day items, titles and notes that try to
# run script, an unscheduled item; both change one title at once and one deletes an item the
# other is editing. `tripsync export --html` writes the page; Tests/browser/check.py loads it in
# headless Chromium and checks the rendered DOM against `show --json` and `conflicts --json`,
# then takes screenshots at phone (390 px) and desktop width.
#
#   bash Tests/browser/run.sh            # what .ci/run runs (after `swift build --product tripsync`)
#   BROWSER_OUT=/tmp/page bash Tests/browser/run.sh    # keep the page, the DOM and the screenshots there
#
# Needs python3 (standard library only) and Debian's `chromium` (`apt-get install -y chromium`).
set -euo pipefail
cd "$(dirname "$0")/../.."

TRIPSYNC=${TRIPSYNC:-$(swift build --show-bin-path)/tripsync}
CHROMIUM=${CHROMIUM:-chromium}
OUT=${BROWSER_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tripsync-browser.XXXXXX")}
mkdir -p "$OUT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tripsync-browser-homes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

command -v "$CHROMIUM" >/dev/null || { echo "browser test: $CHROMIUM not found (apt-get install -y chromium)" >&2; exit 3; }
[ -x "$TRIPSYNC" ] || { echo "browser test: no tripsync at $TRIPSYNC (swift build --product tripsync)" >&2; exit 3; }

# Nothing of the machine's zone or locale may reach the page.
export TZ=America/St_Johns LC_ALL=C.UTF-8
alex() { "$TRIPSYNC" --home "$WORK/alex" "$@"; }
sam() { "$TRIPSYNC" --home "$WORK/sam" "$@"; }

alex init --device-name "Alex's laptop" >/dev/null
sam init --device-name "Sam's laptop" >/dev/null
alex new "Lisbon & New York, June 2027" --zone Europe/Lisbon --owned >/dev/null

alex add "Casa do Patio, Alfama" --day 2027-06-07 --end 2027-06-10 --place "Rua de São Tomé 12, Lisboa" \
    --note "Whole-day stay: three nights, breakfast included." >/dev/null
alex add "Arrive in Lisbon, pick up the keys" --day 2027-06-07 --at 14:30 --place "Casa do Patio" >/dev/null
tram=$(alex add "Tram 28 and the castle" --day 2027-06-08 --at 10:00 --end 2027-06-08T13:30 --place "Largo Martim Moniz")
fado=$(alex add "Fado night" --day 2027-06-08 --at 21:00 --place "Clube de Fado, Alfama")
pack=$(alex add "Pack and check the passports" --day 2027-06-09)
alex add '<img src=x onerror="document.documentElement.setAttribute('"'"'data-pwned'"'"','"'"'img'"'"')">' --day 2027-06-13 --at 12:00 \
    --zone America/New_York --place '"><svg onload="document.documentElement.setAttribute('"'"'data-pwned'"'"','"'"'svg'"'"')">' \
    --note '</style><script>document.documentElement.setAttribute("data-pwned","note")</script>' >/dev/null
alex add '</style><script>document.documentElement.setAttribute("data-pwned","title")</script>' --day 2027-06-13 --at 18:00 \
    --zone America/New_York >/dev/null
alex add "TP 201 Lisbon → New York" --day 2027-06-10 --at 10:00 --end 2027-06-10T13:00 --end-zone America/New_York \
    --place "LIS Terminal 1" --note "Seats 23A and 23C. Bags: 1 × 23 kg each." >/dev/null
alex add "The Jane Hotel" --day 2027-06-10 --at 16:00 --zone America/New_York --end 2027-06-14T11:00 \
    --place "113 Jane St, New York" >/dev/null
alex add "High Line walk" --day 2027-06-11 --at 09:30 --zone America/New_York --end 2027-06-11T11:00 --place "Gansevoort St" >/dev/null
alex add "Dinner at Via Carota" --day 2027-06-11 --at 19:45 --zone America/New_York --place "51 Grove St" >/dev/null
alex add "Call Grandma on Kiritimati (her birthday)" --day 2027-06-13 --at 08:30 --zone Pacific/Kiritimati >/dev/null
alex add "TP 210 New York → Lisbon" --day 2027-06-14 --at 22:15 --zone America/New_York --end 2027-06-15T10:20 \
    --end-zone Europe/Lisbon --place "JFK Terminal 1" >/dev/null
alex add "Buy a SIM card" >/dev/null

# Sam joins through a shared folder (an invite from Alex, the owner), then both change things at once.
mkdir -p "$WORK/folder"
code=$(alex invite --role editor 2>/dev/null)
sam join "$code" "$WORK/folder" >/dev/null
alex sync "$WORK/folder" >/dev/null
sam sync "$WORK/folder" >/dev/null
alex edit "$fado" --title "Fado at Clube de Fado, 21:00 sharp" >/dev/null
alex edit "$pack" --note "Passports are in the blue folder" >/dev/null
sam edit "$fado" --title "Fado night at Tasca do Chico" >/dev/null
sam delete "$pack" >/dev/null
sam sync "$WORK/folder" >/dev/null
alex sync "$WORK/folder" >/dev/null

# Attachments: a ticket PDF and a photo whose file name tries to run script, shared through the
# folder; both laptops caption the ticket at once and rename the trip at once (two more conflicts).
printf '%%PDF-1.4\n%% tram tickets\n' >"$WORK/tram-tickets.pdf"
hostile_name='"><svg onload="document.documentElement.setAttribute('"'"'data-pwned'"'"','"'"'attachment'"'"')">.jpg'
printf '\377\330\377\340\000\020JFIF\000\001\001\000\000\001\000\001\000\000\377\331' >"$WORK/$hostile_name"
alex attach "$tram" "$WORK/tram-tickets.pdf" --caption "Two 24-hour passes" >/dev/null
alex attach "$tram" "$WORK/$hostile_name" --caption '<b onmouseover="x()">caption</b>' >/dev/null
alex sync "$WORK/folder" >/dev/null
sam sync "$WORK/folder" >/dev/null
ticket=$(alex attachments --json | python3 -c 'import json, sys; print(next(a["id"] for a in json.load(sys.stdin) if a["name"] == "tram-tickets.pdf"))')
alex caption "$ticket" "Two 24-hour passes, Carris" >/dev/null
sam caption "$ticket" "Viva Viagem cards" >/dev/null
alex rename "Lisbon & New York, summer 2027" >/dev/null
sam rename "Lisboa e Nova Iorque 2027" >/dev/null
sam sync "$WORK/folder" >/dev/null
alex sync "$WORK/folder" >/dev/null

alex show --json >"$OUT/show.json"
alex attachments --json >"$OUT/attachments.json"
alex conflicts --json >"$OUT/conflicts.json"
SOURCE_DATE_EPOCH=1796292000 alex export --html "$OUT/itinerary.html" --force

python3 Tests/browser/check.py --page "$OUT/itinerary.html" --show "$OUT/show.json" --conflicts "$OUT/conflicts.json" \
    --attachments "$OUT/attachments.json" \
    --chromium "$CHROMIUM" --out "$OUT"
