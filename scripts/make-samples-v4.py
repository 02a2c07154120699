#!/usr/bin/env python3
"""Regenerate the schema 4 sample files under samples/v4/ (attachments).

    python3 scripts/make-samples-v4.py        (also run by scripts/make-samples.py)

Deterministic: fixed ids, clocks, key seeds and blob bytes, no randomness, no current time.
Built on scripts/make-samples-v3.py, imported (its keys and seeds, signed bytes, member replica
and the Porto story), and through it on scripts/make-samples.py (canonical bytes, the replica,
the reference reader). Like make-samples-v3.py it needs PyNaCl and, when `import nacl` fails,
runs itself again with the python of .venv-samples/ (made there by make-samples-v3.py's code).

What it writes (docs/FORMAT.md, "Schema 4: attachments"):

    samples/v4/<v3 name>                    every valid samples/v3 file migrated 3 -> 4 (the same
                                            document with attachments {}), re-signed by the same
                                            device key when the v3 file is signed
    samples/v4/porto-attachments.trip.json  "Porto 2027" a few days later with five attachments
                                            (photo, ticket, a caption conflict, a detach with a
                                            caption written meanwhile, one whose item was
                                            deleted), signed by the owner's laptop
    samples/v4/porto-attachments-backup.trip.json   the same document unsigned (a backup)
    samples/v4/warnings/attachment-item-unknown.trip.json   valid, one warning: an attachment
                                            names an item the trip does not hold
    samples/v4/invalid/*.trip.json          copies of porto-attachments that each break one rule
    samples/v4/invalid/index.json           file, pointer, rule, schema, message
    samples/v4/README.md                    what the files hold

Self-check afterwards: the reference reader of make-samples.py (dots, registers, seen, acks and
strict JSON, attachments included) plus the attachment warning find nothing in the valid files,
exactly the warning in the warning file and, in each invalid file, nothing but its rule; valid
files are canonical; every v4 migration undoes to its v3 file; scripts/check-signatures.py
(signatures, independently) passes. scripts/check-schemas.py covers what the JSON Schema expresses.

Extra keys someone changed in samples/v4/invalid/index.json (such as "message", the reader's
real wording) are kept when the index is regenerated.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_samples_v3", ROOT / "scripts" / "make-samples-v3.py")
v3 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v3"] = v3  # dataclasses look their module up here
_spec.loader.exec_module(v3)  # without PyNaCl, this runs this script again inside .venv-samples/

ms = v3.ms
canonical, gz, ptr, wall, sample_uuid, write, remove_stale = (
    ms.canonical, ms.gz, ms.ptr, ms.wall, ms.sample_uuid, ms.write, ms.remove_stale)
ALEX, SAM, RITA, P = ms.ALEX, ms.SAM, v3.RITA, v3.P
DEVICE_KEY, Case, signed_bytes = v3.DEVICE_KEY, v3.Case, v3.signed_bytes

V3_DIR = v3.V3_DIR
V4_DIR = ms.SAMPLES / "v4"
INVALID_DIR = V4_DIR / "invalid"
WARNINGS_DIR = V4_DIR / "warnings"
MAX_SIZE = 2**40

# --------------------------------------------------------------------------------------------
# Migration 3 -> 4 (FORMAT.md): the same document with attachments {}
# --------------------------------------------------------------------------------------------


def json_bytes(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def label_of_key(key: str) -> str:
    labels = [label for label in v3.KEY_LABELS if v3.key_text(label) == key]
    assert len(labels) == 1, key
    return labels[0]


def migrated(v3_bytes: bytes) -> bytes:
    """The v3 file's document as schema 4, signed again by its writer's key when it was signed."""
    doc = json.loads(json_bytes(v3_bytes))
    key = doc.pop("deviceKey", None)
    doc.pop("signature", None)
    doc = dict(doc, schemaVersion=4, attachments={})
    data = signed_bytes(doc, label_of_key(key)) if key else canonical(doc)
    return gz(data) if v3_bytes[:2] == b"\x1f\x8b" else data


def v3_valid_files() -> list[Path]:
    return sorted(p for p in V3_DIR.iterdir() if p.is_file() and p.name.endswith((".trip.json", ".trip.json.gz")))


# --------------------------------------------------------------------------------------------
# Blobs and a replica with attachments
# --------------------------------------------------------------------------------------------

# Media type -> (first bytes, last bytes): what a sniffer recognises the bytes by.
MAGIC = {
    "image/jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00", b"\xff\xd9"),
    "image/png": (b"\x89PNG\r\n\x1a\n", b"\x00\x00\x00\x00IEND\xaeB`\x82"),
    "application/pdf": (b"%PDF-1.7\n", b"\n%%EOF\n"),
}
BLOB_PREFIX = "tripsync-sample-blob:"


def blob_bytes(label: str, media_type: str, size: int) -> bytes:
    """size bytes: the type's first bytes, SHAKE-256 of BLOB_PREFIX + label as filler, its last bytes."""
    head, tail = MAGIC[media_type]
    filler = hashlib.shake_256((BLOB_PREFIX + label).encode()).digest(size - len(head) - len(tail))
    return head + filler + tail


def blob(label: str, media_type: str, size: int) -> dict:
    data = blob_bytes(label, media_type, size)
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data), "type": media_type}


class AttachmentReplica(v3.MemberReplica):
    """The member replica plus attachments: id -> register name -> values, merged like items."""

    def __init__(self, trip_id: str, device: str):
        super().__init__(trip_id, device)
        self.attachments: dict[str, dict[str, list]] = {}

    @classmethod
    def from_document(cls, doc: dict, device: str) -> "AttachmentReplica":
        """The replica of `device` after its sync brought `doc` (a file holding all it had)."""
        doc = copy.deepcopy(doc)

        def values(reg: dict) -> list:
            return [(v["value"], tuple(v["rev"])) for v in [reg, *reg.get("conflicts", [])]]

        def fields(obj: dict) -> dict:
            return {f: values(reg) for f, reg in obj.items()}

        replica = cls(doc["tripId"], device)
        replica.clock = doc["clock"]
        replica.hlc = max(replica.clock.values())
        replica.acks = doc["acks"]
        replica.trip = fields(doc["trip"])
        replica.devices = {d: fields(entry) for d, entry in doc["devices"].items()}
        replica.entities = {i: fields(item) for i, item in doc["items"].items()}
        for item_id, stone in doc["tombstones"].items():
            replica.entities[item_id] = dict(fields(stone["item"]), deleted=values(stone["deleted"]))
        replica.owner, replica.members = doc["owner"], doc["members"]
        replica.attachments = {a: fields(att) for a, att in doc.get("attachments", {}).items()}
        return replica

    def attach(self, attachment_id: str, wall_ms: int, item: str, blob: dict, name: str, caption: str | None,
               item_must_be_live: bool = True) -> None:
        """`tripsync attach` once sync has put the blob into the folder: four registers, four dots."""
        assert attachment_id not in self.attachments
        assert not item_must_be_live or (item in self.entities and "deleted" not in self.entities[item])
        values = {"item": item, "blob": blob, "name": name, "caption": caption}
        self.attachments[attachment_id] = {f: [(v, self.stamp(wall_ms))] for f, v in values.items()}

    def set_caption(self, attachment_id: str, wall_ms: int, caption: str | None) -> None:
        self.attachments[attachment_id]["caption"] = [(caption, self.stamp(wall_ms))]

    def detach(self, attachment_id: str, wall_ms: int) -> None:
        seen = dict(sorted(self.clock.items()))  # what this replica had seen before the detach
        rev = self.stamp(wall_ms)
        self.attachments[attachment_id]["deleted"] = [({"at": ms.utc_stamp(wall_ms), "seen": seen}, rev)]

    def merge_from(self, other: "AttachmentReplica") -> None:
        merged = {}
        for attachment_id in sorted(set(self.attachments) | set(other.attachments)):
            fields = ms.merge_fields(self.attachments.get(attachment_id, {}), other.attachments.get(attachment_id, {}),
                                     self.clock, other.clock)
            if fields:
                merged[attachment_id] = fields
        super().merge_from(other)
        self.attachments = merged

    def document(self) -> dict:
        doc = super().document()
        doc["schemaVersion"] = 4
        doc["attachments"] = {a: {f: ms.register(v) for f, v in fields.items()}
                              for a, fields in sorted(self.attachments.items())}
        return doc


# --------------------------------------------------------------------------------------------
# "Porto 2027" with attachments
# --------------------------------------------------------------------------------------------

A = {name: sample_uuid("v4/porto/" + name) for name in (
    "azulejos", "douro-tickets", "cruise-route", "torel-booking", "andante-zones", "ribeira-night",
)}
BLOBS = {
    "azulejos": blob("v4/azulejos-sao-bento.jpg", "image/jpeg", 1_843_214),
    "douro-tickets": blob("v4/cp-douro-tickets.pdf", "application/pdf", 48_213),
    "cruise-route": blob("v4/six-bridges-route.png", "image/png", 311_876),
    "torel-booking": blob("v4/torel-avantgarde-booking.pdf", "application/pdf", 96_540),
    "andante-zones": blob("v4/andante-zone-map.jpg", "image/jpeg", 402_118),
    "ribeira-night": blob("v4/ribeira-at-night.jpg", "image/jpeg", 2_265_903),
}
LISBON_SARDINES = ms.I["sardines"]  # an item of "Lisbon & New York 2027", not of Porto


@dataclass
class AttachmentStory:
    document: dict  # Alex's file after the exchange (porto-attachments)
    alex: AttachmentReplica  # Alex's laptop at that point


def attachment_story() -> AttachmentStory:
    owned = v3.porto_story().owned  # samples/v3/porto-owned (unsigned document)
    start = dict(copy.deepcopy(owned), schemaVersion=4, attachments={})
    alex = AttachmentReplica.from_document(start, ALEX)
    alex.owner_label = v3.PORTO_OWNER
    sam = AttachmentReplica.from_document(start, SAM)

    # Thursday 4 June 2026, morning: Alex attaches four files; the sync that put each blob into
    # the folder wrote its registers, then published.
    alex.attach(A["azulejos"], wall("2026-06-04 09:12:30"), P["sao-bento"], BLOBS["azulejos"],
                "azulejos-são-bento.jpg", "The tile panels by Jorge Colaço (1905-1916)")
    alex.attach(A["cruise-route"], wall("2026-06-04 09:14:05"), P["cruise"], BLOBS["cruise-route"],
                "six-bridges-route.png", "Route of the cruise")
    alex.attach(A["torel-booking"], wall("2026-06-04 09:15:40"), P["checkin"], BLOBS["torel-booking"],
                "torel-avantgarde-booking.pdf", None)
    alex.attach(A["andante-zones"], wall("2026-06-04 09:17:12"), P["andante"], BLOBS["andante-zones"],
                "andante-zone-map.jpg", "Zones Z2 to Z4 cover Gaia")
    alex_file = alex.publish()

    # Midday: Sam's sync brings them; then, offline on a train, Sam attaches the Douro tickets,
    # captions two of Alex's files and deletes the Andante item (its map stays, hidden).
    sam.merge_from(alex_file)
    sam.attach(A["douro-tickets"], wall("2026-06-04 12:41:10"), P["douro-train"], BLOBS["douro-tickets"],
               "cp-douro-tickets.pdf", "3 tickets, coach 2, seats 41-43")
    sam.set_caption(A["cruise-route"], wall("2026-06-04 12:44:52"), "Boats leave from Cais da Ribeira every 30 min")
    sam.set_caption(A["torel-booking"], wall("2026-06-04 12:46:03"), "Booking 7XK2Q, breakfast included")
    sam.delete(P["andante"], wall("2026-06-04 12:48:30"))

    # Meanwhile Alex captions the route too and detaches the booking (a new one will come).
    alex.set_caption(A["cruise-route"], wall("2026-06-04 13:05:00"), "All six bridges, about 50 minutes")
    alex.detach(A["torel-booking"], wall("2026-06-04 13:06:20"))

    # Evening: Sam is back online; Alex's sync merges Sam's file whole (an editor's) and publishes.
    alex.merge_from(sam.publish())
    alex.publish()
    doc = alex.document()

    atts = doc["attachments"]
    assert len(atts) == 5 and not set(atts) - set(A.values())
    assert "conflicts" in atts[A["cruise-route"]]["caption"]
    booking = atts[A["torel-booking"]]
    caption_rev = booking["caption"]["rev"]
    assert "deleted" in booking and booking["deleted"]["value"]["seen"][caption_rev[1]] < caption_rev[0]
    assert P["andante"] in doc["tombstones"] and "deleted" not in atts[A["andante-zones"]]
    return AttachmentStory(document=doc, alex=alex)


def item_unknown(story: AttachmentStory) -> dict:
    """Alex's laptop attaches a photo to an item of another trip (a tool that went wrong passed
    the id of Lisbon's sardines dinner): valid, with a warning; the photo stays hidden."""
    alex = copy.deepcopy(story.alex)
    alex.attach(A["ribeira-night"], wall("2026-06-05 22:10:00"), LISBON_SARDINES, BLOBS["ribeira-night"],
                "ribeira-at-night.jpg", "The Ribeira from the Dom Luís I bridge", item_must_be_live=False)
    alex.publish()
    return alex.document()


def attachment_warnings(doc: Any) -> list[str]:
    """FORMAT.md: an attachment whose item is in neither items nor tombstones is a warning."""
    if not isinstance(doc, dict) or not isinstance(doc.get("attachments"), dict):
        return []
    held = set(doc.get("items") or {}) | set(doc.get("tombstones") or {})
    return [ptr("attachments", a, "item", "value") for a, att in sorted(doc["attachments"].items())
            if isinstance(att, dict) and isinstance(att.get("item"), dict) and att["item"].get("value") not in held]


# --------------------------------------------------------------------------------------------
# Invalid samples: copies of porto-attachments that each break one rule
# --------------------------------------------------------------------------------------------


def invalid_cases(doc: dict, owned_v3: dict) -> list[Case]:
    alex_counter = doc["clock"][ALEX]
    photo, ticket, booking = A["azulejos"], A["douro-tickets"], A["torel-booking"]
    assert doc["attachments"][photo]["caption"]["rev"][1] == ALEX

    def at(attachment: str, *parts: Any) -> str:
        return ptr("attachments", attachment, *parts)

    def change(path: tuple, value: Any):
        def build(d: dict) -> bytes:
            target = d
            for part in path[:-1]:
                target = target[part]
            target[path[-1]] = value
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    def remove(path: tuple):
        def build(d: dict) -> bytes:
            target = d
            for part in path[:-1]:
                target = target[part]
            del target[path[-1]]
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    def v3_owned(**extra: Any):
        def build(_: dict) -> bytes:
            return signed_bytes(dict(copy.deepcopy(owned_v3), **extra), DEVICE_KEY[ALEX])
        return build

    sha = doc["attachments"][photo]["blob"]["value"]["sha256"]
    photo_blob = ("attachments", photo, "blob", "value")
    ticket_name = ("attachments", ticket, "name", "value")
    photo_caption = ("attachments", photo, "caption", "value")
    long_name = "douro-" + "x" * 246 + ".pdf"
    assert len(long_name) == 256
    return [
        # blob (JSON Schema sees every one).
        Case("blob-sha256-upper-case.trip.json", at(photo, "blob", "value", "sha256"),
             "blob.sha256 must be lowercase hex (written in upper case)", True,
             "expected a SHA-256 as 64 lowercase hex digits", change(photo_blob + ("sha256",), sha.upper())),
        Case("blob-sha256-63-characters.trip.json", at(photo, "blob", "value", "sha256"),
             "blob.sha256 must be 64 hex digits (63: the last one left out)", True,
             "expected a SHA-256 as 64 lowercase hex digits", change(photo_blob + ("sha256",), sha[:63])),
        Case("blob-size-negative.trip.json", at(photo, "blob", "value", "size"),
             "blob.size must be 0 ... 2^40 (-1)", True, "expected a size in bytes in 0…1099511627776",
             change(photo_blob + ("size",), -1)),
        Case("blob-size-above-2-pow-40.trip.json", at(photo, "blob", "value", "size"),
             "blob.size must be at most 2^40 (1099511627776); 2^40 + 1", True,
             "expected a size in bytes in 0…1099511627776", change(photo_blob + ("size",), MAX_SIZE + 1)),
        Case("blob-size-fraction.trip.json", at(photo, "blob", "value", "size"),
             "blob.size must be an integer (1843214.5)", True, "with no fraction or exponent",
             change(photo_blob + ("size",), BLOBS["azulejos"]["size"] + 0.5)),
        Case("blob-type-upper-case.trip.json", at(photo, "blob", "value", "type"),
             "blob.type must be a lower-case media type type/subtype (image/JPEG)", True,
             "expected a media type such as image/jpeg", change(photo_blob + ("type",), "image/JPEG")),
        Case("blob-unknown-key.trip.json", at(photo, "blob", "value", "width"),
             "a blob holds only sha256, size and type (width added)", True, 'unknown key "width"',
             change(photo_blob + ("width",), 4032)),
        # name and caption (JSON Schema sees every one).
        Case("name-empty.trip.json", at(ticket, "name", "value"), "an attachment name has 1 ... 255 characters (0)",
             True, "expected an attachment name of 1 to 255 characters, found 0", change(ticket_name, "")),
        Case("name-with-slash.trip.json", at(ticket, "name", "value"),
             "an attachment name is a file name: no \"/\" (tickets/cp-douro-tickets.pdf)", True,
             "expected an attachment name that is a file name", change(ticket_name, "tickets/cp-douro-tickets.pdf")),
        Case("name-with-backslash.trip.json", at(ticket, "name", "value"),
             "an attachment name is a file name: no \"\\\" (tickets\\cp-douro-tickets.pdf)", True,
             "expected an attachment name that is a file name", change(ticket_name, "tickets\\cp-douro-tickets.pdf")),
        Case("name-dot.trip.json", at(ticket, "name", "value"), "an attachment name is not \".\"", True,
             "expected an attachment name that is a file name", change(ticket_name, ".")),
        Case("name-dot-dot.trip.json", at(ticket, "name", "value"), "an attachment name is not \"..\"", True,
             "expected an attachment name that is a file name", change(ticket_name, "..")),
        Case("name-with-newline.trip.json", at(ticket, "name", "value"),
             "an attachment name has no control character (a newline)", True,
             "expected an attachment name with no control characters", change(ticket_name, "cp-douro\ntickets.pdf")),
        Case("name-256-characters.trip.json", at(ticket, "name", "value"),
             "an attachment name has at most 255 characters (256)", True,
             "expected an attachment name of 1 to 255 characters, found 256", change(ticket_name, long_name)),
        Case("caption-too-long.trip.json", at(photo, "caption", "value"),
             "a caption has at most 2000 characters (2001)", True,
             "expected a caption of at most 2000 characters, found 2001", change(photo_caption, "Azulejos. " * 200 + "!")),
        Case("caption-control-character.trip.json", at(photo, "caption", "value"),
             "a caption has no control character but newline and tab (a carriage return)", True,
             "expected a caption with no control characters other than newline and tab",
             change(photo_caption, "The tile panels\r\nby Jorge Colaço")),
        # The attachment object.
        Case("attachment-live-without-caption.trip.json", at(photo),
             "a live attachment (no deleted) holds blob, caption, item and name (caption left out)", True,
             'missing key "caption"', remove(("attachments", photo, "caption"))),
        Case("attachment-unknown-key.trip.json", at(photo, "thumbnail"),
             "an attachment holds only blob, caption, deleted, item and name (thumbnail added)", True,
             'unknown key "thumbnail"',
             change(("attachments", photo, "thumbnail"), copy.deepcopy(doc["attachments"][photo]["blob"]))),
        # Against the clock (JSON Schema cannot see them).
        Case("attachment-dot-above-clock.trip.json", at(photo, "caption", "rev"),
             "an attachment register's rev counter is above the clock for its device", False,
             "above the document's clock", change(("attachments", photo, "caption", "rev", 0), alex_counter + 1)),
        Case("detach-seen-above-clock.trip.json", at(booking, "deleted", "value", "seen", ALEX),
             "a detach's seen entry is above the clock", False, "above the document's clock",
             change(("attachments", booking, "deleted", "value", "seen", ALEX), alex_counter + 1)),
        # Versions.
        Case("attachments-in-schema-3.trip.json", "",
             "attachments is a schema 4 key: porto-owned (schema 3) with attachments {}", True,
             "a schema 4 key in a schema 3 file", v3_owned(attachments={})),
        Case("schema-4-without-attachments.trip.json", "",
             "a schema 4 file needs attachments: porto-owned (schema 3) relabelled schemaVersion 4", True,
             'missing key "attachments"', v3_owned(schemaVersion=4)),
    ]


# --------------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------------

NAMES = {ALEX: "Alex's laptop", SAM: "Sam's laptop", RITA: "Rita's phone"}


def readme(doc: dict, migrated_names: list[str], cases: list[Case]) -> bytes:
    titles = {i: item["title"]["value"] for i, item in doc["items"].items()}
    titles.update({i: stone["item"]["title"]["value"] + " (deleted)" for i, stone in doc["tombstones"].items()})
    label = {v: k for k, v in A.items()}
    lines = [
        "# Schema 4 sample files (samples/v4)",
        "",
        "Generated by `python3 scripts/make-samples-v4.py` (also run by `scripts/make-samples.py`), never edited "
        "by hand (this README too). Check them with `python3 scripts/check-schemas.py` "
        "(`Schemas/trip.v4.schema.json`) and `python3 scripts/check-signatures.py`. The format is docs/FORMAT.md, "
        "\"Schema 4: attachments\". Keys, seeds and device ids are those of `samples/v3/README.md`.",
        "",
        "Every file is canonical bytes (sorted keys, no whitespace, one trailing newline).",
        "",
        "## Valid files",
        "",
        "Migrated from `samples/v3/` (3 -> 4: the same document with `\"schemaVersion\": 4` and "
        "`\"attachments\": {}`, nothing else changed), under the same names; a signed v3 file is signed again "
        "by the same device key (a signature covers the bytes, so it changes): "
        + ", ".join(f"`{n}`" for n in migrated_names) + ". `open-trip.trip.json` is therefore also the "
        "migration 2 -> 4 of `samples/lisbon-new-york.trip.json`.",
        "",
        "- `porto-attachments.trip.json`: `porto-owned` three days later (4 June 2026). Alex's laptop attached "
        "four files, Sam's laptop (an editor) one, both captioned the route at once, Alex detached the booking "
        "while Sam, offline, captioned it, and Sam deleted the Andante item; Alex's laptop merged Sam's file "
        f"and signed the result (`deviceId` {ALEX}).",
        "- `porto-attachments-backup.trip.json`: the same document without `deviceKey` and `signature`.",
        "- `warnings/attachment-item-unknown.trip.json` (valid, exactly one warning, at "
        f"`/attachments/{A['ribeira-night']}/item/value`): the backup after Alex's laptop attached one more "
        f"photo to item `{LISBON_SARDINES}`, which this trip does not hold (it is an item of Lisbon & New York): "
        "the attachment stays hidden. Unsigned.",
        "",
        "Attachments of `porto-attachments.trip.json` (the warning file adds `ribeira-night`):",
        "",
        "| id | item | name | type | size | shown? |",
        "|---|---|---|---|---|---|",
    ]
    for attachment_id, att in sorted(doc["attachments"].items(), key=lambda kv: label[kv[0]]):
        value = att["blob"]["value"]
        item = att["item"]["value"]
        if "deleted" in att:
            state = "no: detached; its caption was written by Sam's laptop after the detach's `seen`"
        elif item in doc["tombstones"]:
            state = "no: its item is deleted (a restore of the item brings it back)"
        elif "conflicts" in att["caption"]:
            state = "yes; caption conflict (Alex's laptop's caption wins, Sam's laptop's in `conflicts`)"
        else:
            state = "yes"
        lines.append(f"| `{label[attachment_id]}` `{attachment_id}` | {titles[item]} | `{att['name']['value']}` | "
                     f"`{value['type']}` | {value['size']:,} | {state} |")
    lines += [
        "",
        "The blobs themselves are not in `samples/` (a trip file names its blobs, it never holds them). "
        "Each `sha256` and `size` is that of the bytes the script's `blob_bytes(label, type, size)` makes: "
        "the type's first bytes (JPEG `FF D8 FF E0` JFIF, PNG signature, `%PDF-1.7`), then SHAKE-256 of "
        f"`{BLOB_PREFIX}<label>` as filler, then the type's last bytes, so a sniffer would give the type stated.",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-attachments.trip.json` that each break exactly one rule, signed again by Alex's "
        "device key after the change (every signature verifies; `attachments-in-schema-3` and "
        "`schema-4-without-attachments` are copies of v3's `porto-owned` instead). `invalid/index.json` lists"
        " each file with the JSON Pointer of the bad value, the rule, whether JSON Schema can detect it "
        "(`\"schema\": true`; checked against the schema of the file's own `schemaVersion`), and `message`, a "
        "short substring expected in the reader's message (edited there to the reader's wording, it survives "
        "regeneration). 100,001 attachments (`maxProperties`) has no sample: even detached attachments "
        "holding only `deleted` (162 bytes each) make a 16 MB file.",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    aliases = {**label, **NAMES}  # id -> what the table calls it
    for case in sorted(cases, key=lambda c: c.file):
        pointer = "/".join(f"<{aliases[part]}>" if part in aliases else part for part in case.pointer.split("/"))
        rule = case.rule.replace("\\", "\\\\")
        lines.append(f"| `{case.file}` | `{pointer or '(the document)'}` | {'yes' if case.schema else 'no'} | {rule} |")
    lines += ["", "In the pointers, `<name>` is the id of attachment `name` in the table above, and `<Alex's laptop>` is "
              f"`{ALEX}`."]
    return ("\n".join(lines) + "\n").encode("utf-8")


# --------------------------------------------------------------------------------------------
# Writing and the self-check
# --------------------------------------------------------------------------------------------


def main() -> int:
    written: set[Path] = set()
    migrated_names = []
    for path in v3_valid_files():
        write(V4_DIR / path.name, migrated(path.read_bytes()), written)
        migrated_names.append(path.name)
    story = attachment_story()
    doc = story.document
    signed = signed_bytes(doc, DEVICE_KEY[ALEX])
    write(V4_DIR / "porto-attachments.trip.json", signed, written)
    write(V4_DIR / "porto-attachments-backup.trip.json", canonical(doc), written)
    remove_stale(V4_DIR, written)
    warning_doc = item_unknown(story)
    write(WARNINGS_DIR / "attachment-item-unknown.trip.json", canonical(warning_doc), written)
    remove_stale(WARNINGS_DIR, written)

    owned_v3 = json.loads((V3_DIR / "porto-backup.trip.json").read_bytes())
    cases = invalid_cases(doc, owned_v3)
    assert len({c.file for c in cases}) == len(cases), "duplicate sample names"
    for case in cases:
        write(INVALID_DIR / case.file, case.build(copy.deepcopy(doc)), written)
    remove_stale(INVALID_DIR, written)
    v3.write_index(INVALID_DIR / "index.json", cases, written)
    write(V4_DIR / "README.md", readme(doc, migrated_names, cases), written)

    # Self-check 1: the reference reader (attachments included) and the attachment warning.
    problems: list[str] = []
    valid = sorted(p for p in V4_DIR.iterdir() if p.name.endswith((".trip.json", ".trip.json.gz")))
    for path in valid:
        problems += ms.check_valid(path, [])
        if attachment_warnings(json.loads(json_bytes(path.read_bytes()))):
            problems.append(f"{path.name}: an attachment names an item the trip does not hold")
    warning_path = WARNINGS_DIR / "attachment-item-unknown.trip.json"
    problems += ms.check_valid(warning_path, [])
    if attachment_warnings(warning_doc) != [ptr("attachments", A["ribeira-night"], "item", "value")]:
        problems.append(f"{warning_path.name}: warnings {attachment_warnings(warning_doc)}")
    for case in cases:
        problems += ms.check_invalid(INVALID_DIR / case.file, case)
        doc_or_none, _, parsed = ms.strict_json((INVALID_DIR / case.file).read_bytes())
        if parsed and attachment_warnings(doc_or_none):
            problems.append(f"{case.file}: unexpected attachment warnings")

    # Self-check 2: each migration undoes to its v3 file (signatures aside).
    def unsigned(data: bytes) -> dict:
        d = json.loads(json_bytes(data))
        d.pop("deviceKey", None)
        d.pop("signature", None)
        return d
    for name in migrated_names:
        v4_doc = unsigned((V4_DIR / name).read_bytes())
        if v4_doc.pop("attachments") != {} or v4_doc["schemaVersion"] != 4 \
                or dict(v4_doc, schemaVersion=3) != unsigned((V3_DIR / name).read_bytes()):
            problems.append(f"{name}: not the migration 3 -> 4 of samples/v3/{name}")
    lisbon = json.loads((ms.SAMPLES / "lisbon-new-york.trip.json").read_bytes())
    if canonical(dict(lisbon, schemaVersion=4, owner=None, members={}, attachments={})) \
            != (V4_DIR / "open-trip.trip.json").read_bytes():
        problems.append("open-trip.trip.json is not the migration 2 -> 4 of samples/lisbon-new-york.trip.json")

    # Self-check 3: the independent checker of signatures (v3 and v4) passes.
    sys.stdout.flush()
    if subprocess.run([sys.executable, str(ROOT / "scripts" / "check-signatures.py"), "--quiet"]).returncode != 0:
        problems.append("scripts/check-signatures.py failed")

    print(f"samples/v4: {len(valid)} valid files ({len(migrated_names)} migrated from v3; porto-attachments "
          f"{len(doc['attachments'])} attachments, {len(signed)} bytes), 1 warning file, "
          f"{len(cases)} invalid files + index.json")
    print(("SELF-CHECK FAILED (v4):" + "".join(f"\n  {p}" for p in problems)) if problems else "self-check v4: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
