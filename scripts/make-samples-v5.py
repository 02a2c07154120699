#!/usr/bin/env python3
"""Regenerate the schema 5 sample files under samples/v5/ (trip zone, member names, successions).

    python3 scripts/make-samples-v5.py        (also run by scripts/make-samples.py)

Deterministic: fixed ids, clocks and key seeds, no randomness, no current time. Built on
scripts/make-samples-v4.py, imported (and through it make-samples-v3.py and make-samples.py:
keys, signed bytes, the Porto story with attachments). Like them it needs PyNaCl and, when
`import nacl` fails, runs itself again with the python of .venv-samples/.

What it writes (docs/FORMAT.md, "Schema 5"):

    samples/v5/<v4 name>               every valid samples/v4 file migrated 4 -> 5 (the same document
                                       with schemaVersion 5, nothing added), re-signed by the same
                                       device key when the v4 file is signed
    samples/v5/porto-zone.trip.json    porto-attachments two days later: the owner's laptop set the
                                       trip's zone, re-signed the three grants with the members'
                                       names (tripsync-member-v2), and holds Sam's laptop's
                                       succession to Sam's new laptop; signed by the owner's laptop
    samples/v5/porto-zone-backup.trip.json   the same document unsigned (a backup)
    samples/v5/invalid/*.trip.json     copies that each break one schema 5 rule (re-signed)
    samples/v5/invalid/index.json      file, pointer, rule, schema, message
    samples/v5/README.md               what the files hold

Self-check afterwards: valid files are canonical, every v5 migration undoes to its v4 file, and
scripts/check-signatures.py (grant v2 messages and succession signatures included) passes.
scripts/check-schemas.py covers what the JSON Schema expresses.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_samples_v4", ROOT / "scripts" / "make-samples-v4.py")
v4 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v4"] = v4
_spec.loader.exec_module(v4)  # without PyNaCl, this runs this script again inside .venv-samples/

v3, ms = v4.v3, v4.ms
canonical, gz, ptr, wall, sample_uuid, write, remove_stale = (
    ms.canonical, ms.gz, ms.ptr, ms.wall, ms.sample_uuid, ms.write, ms.remove_stale)
ALEX, SAM, RITA = ms.ALEX, ms.SAM, v3.RITA
DEVICE_KEY, Case, signed_bytes, json_bytes = v3.DEVICE_KEY, v3.Case, v3.signed_bytes, v4.json_bytes

V4_DIR = v4.V4_DIR
V5_DIR = ms.SAMPLES / "v5"
INVALID_DIR = V5_DIR / "invalid"

# Sam's new laptop: the device Sam's laptop hands over to (its key is a new sample key).
SAM_NEW = sample_uuid("v5/device/sam-new")
SAM_NEW_KEY = "v5/device/sam-new"
v3.KEY_LABELS[SAM_NEW_KEY] = "device key of Sam's new laptop (the successor of Sam's laptop)"
v3.KEYS[SAM_NEW_KEY] = v3.SigningKey(v3.seed(SAM_NEW_KEY))
NAMES = {ALEX: "Alex's laptop", SAM: "Sam's laptop", RITA: "Rita's phone"}
ZONE = "Europe/Lisbon"


def grant_message_v2(trip_id: str, device: str, grant: dict) -> bytes:
    """FORMAT.md, "Schema 5": a grant with a name is signed over tripsync-member-v2."""
    body = {k: grant[k] for k in ("key", "name", "rev", "role", "seen") if k in grant}
    body.update(device=device, tripId=trip_id)
    return b"tripsync-member-v2\n" + v3.compact(body)


def succession_message(trip_id: str, old: str, new: str, key: str) -> bytes:
    return b"tripsync-succession-v1\n" + v3.compact({"from": old, "key": key, "to": new, "tripId": trip_id})


def migrated(v4_bytes: bytes) -> bytes:
    """The v4 file's document as schema 5 (nothing added), signed again by its writer's key when it was signed."""
    doc = json.loads(json_bytes(v4_bytes))
    key = doc.pop("deviceKey", None)
    doc.pop("signature", None)
    doc = dict(doc, schemaVersion=5)
    data = signed_bytes(doc, v4.label_of_key(key)) if key else canonical(doc)
    return gz(data) if v4_bytes[:2] == b"\x1f\x8b" else data


def v4_valid_files() -> list[Path]:
    return sorted(p for p in V4_DIR.iterdir() if p.is_file() and p.name.endswith((".trip.json", ".trip.json.gz")))


def zone_story() -> dict:
    """porto-attachments on Saturday 6 June 2026: Alex's laptop (the owner's) sets the trip zone,
    re-signs each grant with its member's name (a new grant: a new dot, seen = the clock before
    it for the viewer), and carries Sam's laptop's succession to Sam's new laptop (signed by Sam's
    laptop's device key). Alex's laptop publishes: its acks entry is its clock."""
    doc = copy.deepcopy(v4.attachment_story().document)
    doc["schemaVersion"] = 5
    trip_id = doc["tripId"]
    counter = doc["clock"][ALEX]

    def stamp(wall_ms: int) -> list:
        nonlocal counter
        counter = max(wall_ms, counter + 1)
        doc["clock"][ALEX] = counter
        return [counter, ALEX]

    doc["trip"]["zone"] = {"rev": stamp(wall("2026-06-06 08:30:00")), "value": ZONE}
    for i, device in enumerate(sorted(doc["members"])):
        grant = doc["members"][device]
        seen = dict(sorted(doc["clock"].items()))
        grant = {"key": grant["key"], "name": NAMES[device], "rev": stamp(wall("2026-06-06 08:31:00") + i),
                 "role": grant["role"]}
        if grant["role"] in ("viewer", "removed"):
            grant["seen"] = seen
        grant["sig"] = v3.sign(v3.PORTO_OWNER, grant_message_v2(trip_id, device, grant))
        doc["members"][device] = grant
    new_key = v3.key_text(SAM_NEW_KEY)
    doc["successions"] = {SAM_NEW: {"from": SAM, "key": new_key,
                                    "signature": v3.sign(DEVICE_KEY[SAM], succession_message(trip_id, SAM, SAM_NEW, new_key))}}
    doc["clock"] = dict(sorted(doc["clock"].items()))
    doc["acks"][ALEX] = dict(doc["clock"])
    return doc


def invalid_cases(doc: dict) -> list[Case]:
    alex_counter = doc["clock"][ALEX]
    v4_doc = json.loads((V4_DIR / "porto-attachments-backup.trip.json").read_bytes())

    def change(path: tuple, value: Any, resign_grant: str | None = None):
        def build(d: dict) -> bytes:
            target = d
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
            if resign_grant:
                grant = d["members"][resign_grant]
                grant["sig"] = v3.sign(v3.PORTO_OWNER, grant_message_v2(d["tripId"], resign_grant, grant))
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    def v4_with(path: tuple, value: Any):
        def build(_: dict) -> bytes:
            d = copy.deepcopy(v4_doc)
            target = d
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    succession = doc["successions"][SAM_NEW]
    return [
        Case("trip-zone-offset.trip.json", ptr("trip", "zone", "value"),
             "trip.zone's value is an IANA-shaped zone id, never a fixed offset (+01:00)", True,
             "expected an IANA time zone id", change(("trip", "zone", "value"), "+01:00")),
        Case("trip-zone-dot-above-clock.trip.json", ptr("trip", "zone", "rev"),
             "trip.zone's rev counter is above the clock for its device", False, "above the document's clock",
             change(("trip", "zone", "rev", 0), alex_counter + 1)),
        Case("trip-zone-unknown-key.trip.json", ptr("trip", "country"),
             "trip holds only name and zone (country added)", True, 'unknown key "country"',
             change(("trip", "country"), copy.deepcopy(doc["trip"]["zone"]))),
        Case("grant-name-newline.trip.json", ptr("members", SAM, "name"),
             "a grant's name follows the device name rule: no control character (a newline), signed again", True,
             "expected a name with no control characters",
             change(("members", SAM, "name"), "Sam's\nlaptop", resign_grant=SAM)),
        Case("grant-name-not-signed.trip.json", ptr("members", SAM, "sig"),
             "a grant's name is covered by the owner's signature (tripsync-member-v2): Sam's name changed to "
             "\"Eve laptop\" after the owner signed", False, "not signed by the trip's owner key",
             change(("members", SAM, "name"), "Eve laptop")),
        Case("succession-to-itself.trip.json", ptr("successions", SAM_NEW, "from"),
             "a succession's from is the old device, never the new id it is kept under", False,
             "a succession from device", change(("successions", SAM_NEW, "from"), SAM_NEW)),
        Case("succession-key-31-bytes.trip.json", ptr("successions", SAM_NEW, "key"),
             "a succession's key is base64 of 32 bytes (31 here)", True, "expected a public key",
             change(("successions", SAM_NEW, "key"), v3.b64(bytes(31)))),
        Case("succession-signature-63-bytes.trip.json", ptr("successions", SAM_NEW, "signature"),
             "a succession's signature is base64 of 64 bytes (63 here)", True, "expected a signature",
             change(("successions", SAM_NEW, "signature"), v3.b64(bytes(63)))),
        Case("succession-unknown-key.trip.json", ptr("successions", SAM_NEW, "role"),
             "a succession holds only from, key and signature (role added)", True, 'unknown key "role"',
             change(("successions", SAM_NEW, "role"), "editor")),
        Case("succession-id-not-uuid.trip.json", ptr("successions", "sam-new"),
             "successions are keyed by the new device id, a lowercase UUID", True, "expected a lowercase canonical UUID",
             change(("successions",), {"sam-new": dict(succession, signature=v3.sign(
                 DEVICE_KEY[SAM], succession_message(doc["tripId"], SAM, "sam-new", succession["key"])))})),
        Case("zone-in-schema-4.trip.json", ptr("trip", "zone"),
             "trip.zone is a schema 5 key: porto-attachments (schema 4) with a trip zone", True,
             "a schema 5 key in a schema 4 file",
             v4_with(("trip", "zone"), {"rev": [v4_doc["trip"]["name"]["rev"][0], v4_doc["trip"]["name"]["rev"][1]],
                                        "value": ZONE})),
        Case("successions-in-schema-4.trip.json", "/successions",
             "successions is a schema 5 key: porto-attachments (schema 4) with successions {}", True,
             "a schema 5 key in a schema 4 file", v4_with(("successions",), {})),
        Case("grant-name-in-schema-4.trip.json", ptr("members", ALEX, "name"),
             "a grant's name is a schema 5 key: porto-attachments (schema 4) with a name in Alex's grant", True,
             "a schema 5 key in a schema 4 file", v4_with(("members", ALEX, "name"), NAMES[ALEX])),
    ]


def readme(doc: dict, migrated_names: list[str], cases: list[Case]) -> bytes:
    lines = [
        "# Schema 5 sample files (samples/v5)",
        "",
        "Generated by `python3 scripts/make-samples-v5.py` (also run by `scripts/make-samples.py`), never edited "
        "by hand (this README too). Check them with `python3 scripts/check-schemas.py` "
        "(`Schemas/trip.v5.schema.json`) and `python3 scripts/check-signatures.py`. The format is docs/FORMAT.md, "
        "\"Schema 5\". Keys, seeds and device ids are those of `samples/v3/README.md`, plus the device key of "
        f"Sam's new laptop (`{SAM_NEW}`), seed SHA-256 of `tripsync-sample-key:{SAM_NEW_KEY}`.",
        "",
        "Every file is canonical bytes (sorted keys, no whitespace, one trailing newline).",
        "",
        "## Valid files",
        "",
        "Migrated from `samples/v4/` (4 -> 5: the same document with `\"schemaVersion\": 5`, nothing added: no "
        "trip zone, grants without names, no successions), under the same names; a signed v4 file is signed again "
        "by the same device key: " + ", ".join(f"`{n}`" for n in migrated_names) + ".",
        "",
        "- `porto-zone.trip.json`: `porto-attachments` on 6 June 2026. Alex's laptop (it holds the owner key) set "
        f"the trip's zone to `{ZONE}` (`/trip/zone`), re-signed the three grants with the members' names "
        "(" + ", ".join(f"`{NAMES[d]}`" for d in sorted(NAMES)) + "; each a new grant, signed over "
        "`tripsync-member-v2`), and carries the succession of Sam's laptop to Sam's new laptop (`/successions/"
        f"{SAM_NEW}`: from Sam's laptop, the new key, signed by Sam's laptop's device key). Signed by Alex's laptop.",
        "- `porto-zone-backup.trip.json`: the same document without `deviceKey` and `signature`.",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-zone.trip.json` that each break exactly one rule, signed again by Alex's device key after "
        "the change (a changed grant name is signed again by the owner key too, except in `grant-name-not-signed`); "
        "the three `*-in-schema-4` files are `samples/v4/porto-attachments` with one schema 5 key. "
        "`invalid/index.json` lists each file with the JSON Pointer of the bad value, the rule, whether JSON Schema "
        "can detect it (checked against the schema of the file's own `schemaVersion`), and `message`, a substring "
        "expected in the reader's message.",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    lines += case_table(cases, {**NAMES, SAM_NEW: "Sam's new laptop"})
    return ("\n".join(lines) + "\n").encode("utf-8")


def case_table(cases: list[Case], aliases: dict) -> list[str]:
    """The README's rows of the invalid cases (pointers with device ids named), then the legend."""
    rows = []
    for case in sorted(cases, key=lambda c: c.file):
        pointer = "/".join(f"<{aliases[part]}>" if part in aliases else part for part in case.pointer.split("/"))
        rows.append(f"| `{case.file}` | `{pointer or '(the document)'}` | {'yes' if case.schema else 'no'} | {case.rule} |")
    return rows + ["", "In the pointers, `<name>` is that device's id: " +
                   ", ".join(f"`{n}` = `{d}`" for d, n in aliases.items()) + "."]


def main() -> int:
    written: set[Path] = set()
    migrated_names = []
    for path in v4_valid_files():
        write(V5_DIR / path.name, migrated(path.read_bytes()), written)
        migrated_names.append(path.name)
    doc = zone_story()
    signed = signed_bytes(doc, DEVICE_KEY[ALEX])
    write(V5_DIR / "porto-zone.trip.json", signed, written)
    write(V5_DIR / "porto-zone-backup.trip.json", canonical(doc), written)
    remove_stale(V5_DIR, written)
    cases = invalid_cases(doc)
    assert len({c.file for c in cases}) == len(cases), "duplicate sample names"
    for case in cases:
        write(INVALID_DIR / case.file, case.build(copy.deepcopy(doc)), written)
    remove_stale(INVALID_DIR, written)
    v3.write_index(INVALID_DIR / "index.json", cases, written)
    write(V5_DIR / "README.md", readme(doc, migrated_names, cases), written)

    problems: list[str] = []
    for path in sorted(p for p in V5_DIR.iterdir() if p.name.endswith(".trip.json")):
        data = path.read_bytes()
        if canonical(json.loads(data)) != data:
            problems.append(f"{path.name}: not canonical bytes")

    def unsigned(data: bytes) -> dict:
        d = json.loads(json_bytes(data))
        d.pop("deviceKey", None)
        d.pop("signature", None)
        return d
    for name in migrated_names:
        if dict(unsigned((V5_DIR / name).read_bytes()), schemaVersion=4) != unsigned((V4_DIR / name).read_bytes()):
            problems.append(f"{name}: not the migration 4 -> 5 of samples/v4/{name}")

    sys.stdout.flush()
    if subprocess.run([sys.executable, str(ROOT / "scripts" / "check-signatures.py"), "--quiet"]).returncode != 0:
        problems.append("scripts/check-signatures.py failed")
    print(f"samples/v5: {len(migrated_names) + 2} valid files ({len(migrated_names)} migrated from v4), "
          f"{len(cases)} invalid files + index.json")
    print(("SELF-CHECK FAILED (v5):" + "".join(f"\n  {p}" for p in problems)) if problems else "self-check v5: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
