#!/usr/bin/env python3
"""Regenerate the TripSync sample files under samples/ (schemaVersion 2, 1 in samples/v1/, 3, 4, 5, 6 and 7 in samples/v3/, samples/v4/, samples/v5/, samples/v6/ and samples/v7/).

    python3 scripts/make-samples.py

Deterministic: fixed ids, fixed clocks, no randomness, no current time. The same script
always writes the same bytes. Python 3.11 standard library only.

What it writes (paths relative to the repository root):

    samples/lisbon-new-york.trip.json(.gz)   a realistic two-device trip, canonical bytes
    samples/warnings/*.trip.json             valid files that must produce a warning
    samples/invalid/*.trip.json(.gz)         files that each break exactly one rule
    samples/invalid/index.json               file, JSON Pointer, rule, and whether the
                                             v2 JSON Schema can detect it
    samples/v1/porto-{alex,sam}.trip.json    schemaVersion 1: one trip as two devices last
                                             pulled it (same server rows; Alex has one dirty row)
    samples/v1/invalid/*.trip.json, index.json   schema 1 files that each break one rule
    samples/v1/README.md                     what the v1 files hold (generated)
    samples/v3/...                           schemaVersion 3 (members, owner, signed files):
                                             written by scripts/make-samples-v3.py, which this
                                             script runs last (it needs PyNaCl and installs it
                                             into .venv-samples/ itself)
    samples/v4/...                           schemaVersion 4 (attachments): written by
                                             scripts/make-samples-v4.py, run after it
    samples/v5/...                           schemaVersion 5 (trip zone, member names,
                                             successions): scripts/make-samples-v5.py
    samples/v6/...                           schemaVersion 6 (a member's encryption key in its
                                             grant): scripts/make-samples-v6.py
    samples/v7/...                           schemaVersion 7 (sealed attachment bytes):
                                             scripts/make-samples-v7.py, run last

samples/v1/porto-merged.expected.trip.json is written by the Swift tool, never by this script:
it is never removed as stale and, when present, checked with the schema 2 reference reader.

The documents are not written by hand: two simulated replicas (Alex's and Sam's laptops)
stamp writes with a hybrid logical clock and merge each other's state with the register rule
of DESIGN.md, so clocks, `seen`, `acks` and conflicts are what a real run would produce.

After writing, a self-check (a small reference reader for the rules JSON Schema cannot
express, see docs/FORMAT.md) verifies that every valid sample is canonical and clean, that
each warning sample gives exactly its warning, and that each invalid sample breaks its rule at
its pointer and nothing else that this reader can see (scripts/check-schemas.py covers the
rules the JSON Schema expresses). The script exits non-zero if the self-check fails.

Extra keys that someone added to entries of samples/invalid/index.json or
samples/v1/invalid/index.json (for example the exact "message" a reader must produce) are kept
when the index is regenerated.
"""

from __future__ import annotations

import copy
import datetime as _dt
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import uuid
import zlib
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

MAX_COUNTER = 2**53
MAX_DEPTH = 64
ITEM_FIELDS = ("title", "sortKey", "start", "end", "place", "note")

# --------------------------------------------------------------------------------------------
# Canonical bytes and small helpers
# --------------------------------------------------------------------------------------------


def canonical(doc: Any) -> bytes:
    """The canonical bytes of FORMAT.md."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return (text + "\n").encode("utf-8")


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def sample_uuid(label: str) -> str:
    """A fixed, version-4-shaped UUID derived from a label (deterministic, lowercase)."""
    raw = bytearray(hashlib.sha256(("tripsync-sample:" + label).encode()).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return str(uuid.UUID(bytes=bytes(raw)))


def ptr(*parts: Any) -> str:
    """RFC 6901 JSON Pointer from path components."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def wall(text: str) -> int:
    """Milliseconds since the epoch for a UTC time 'YYYY-MM-DD HH:MM:SS(.fff)'."""
    t = _dt.datetime.fromisoformat(text).replace(tzinfo=_dt.timezone.utc)
    return int(t.timestamp() * 1000)


def utc_stamp(ms: int) -> str:
    """YYYY-MM-DDTHH:MM:SSZ for a millisecond counter (whole seconds, floor)."""
    t = _dt.datetime.fromtimestamp(ms // 1000, tz=_dt.timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def local(text: str, zone: str) -> dict:
    return {"local": text, "zone": zone}


def day(text: str) -> dict:
    return {"date": text}


LIS = "Europe/Lisbon"
NYC = "America/New_York"

# --------------------------------------------------------------------------------------------
# A tiny replica: hybrid logical clock, multi-value registers with dots, full-state merge
# --------------------------------------------------------------------------------------------

Value = tuple[Any, tuple[int, str]]  # (value, (counter, deviceId))


def merge_values(a: list[Value], b: list[Value], ca: dict, cb: dict) -> list[Value]:
    """DESIGN.md register rule: keep what the other side has not seen or still holds."""
    a_dots = {r for _, r in a}
    b_dots = {r for _, r in b}
    keep = [(v, r) for v, r in a if r in b_dots or cb.get(r[1], 0) < r[0]]
    keep += [(v, r) for v, r in b if r not in a_dots and ca.get(r[1], 0) < r[0]]
    return keep


def merge_fields(a: dict, b: dict, ca: dict, cb: dict) -> dict:
    out = {}
    for field in sorted(set(a) | set(b)):
        values = merge_values(a.get(field, []), b.get(field, []), ca, cb)
        if values:
            out[field] = values
    return out


def pointwise_max(a: dict, b: dict) -> dict:
    return {k: max(a.get(k, 0), b.get(k, 0)) for k in sorted(set(a) | set(b))}


class Replica:
    def __init__(self, trip_id: str, device: str):
        self.trip_id = trip_id
        self.device = device
        self.hlc = 0
        self.clock: dict[str, int] = {}
        self.acks: dict[str, dict[str, int]] = {}
        self.trip: dict[str, list[Value]] = {}
        self.devices: dict[str, dict[str, list[Value]]] = {}
        self.entities: dict[str, dict[str, list[Value]]] = {}  # item id -> field -> values

    # Writes ------------------------------------------------------------------------------

    def stamp(self, wall_ms: int) -> tuple[int, str]:
        counter = max(wall_ms, self.hlc + 1)
        assert counter <= MAX_COUNTER
        self.hlc = counter
        self.clock[self.device] = counter
        return (counter, self.device)

    def set_trip_name(self, name: str, wall_ms: int) -> None:
        self.trip["name"] = [(name, self.stamp(wall_ms))]

    def set_device_name(self, name: str, wall_ms: int) -> None:
        self.devices[self.device] = {"name": [(name, self.stamp(wall_ms))]}

    def create(self, item_id: str, wall_ms: int, **fields: Any) -> None:
        assert item_id not in self.entities and fields.get("title") and fields.get("sortKey")
        assert set(fields) <= set(ITEM_FIELDS)
        entity = self.entities[item_id] = {}
        for field in ITEM_FIELDS:  # every register gets its own dot
            entity[field] = [(fields.get(field), self.stamp(wall_ms))]

    def edit(self, item_id: str, wall_ms: int, **fields: Any) -> None:
        entity = self.entities[item_id]
        for field in ITEM_FIELDS:
            if field in fields:
                entity[field] = [(fields[field], self.stamp(wall_ms))]

    def delete(self, item_id: str, wall_ms: int) -> None:
        seen = dict(sorted(self.clock.items()))  # what this replica had seen before the delete
        rev = self.stamp(wall_ms)
        self.entities[item_id]["deleted"] = [({"at": utc_stamp(wall_ms), "seen": seen}, rev)]

    # Sync --------------------------------------------------------------------------------

    def publish(self) -> "Replica":
        """Record our ack and return the state another device would read from our file."""
        self.acks[self.device] = dict(sorted(self.clock.items()))
        return copy.deepcopy(self)

    def merge_from(self, other: "Replica") -> None:
        ca, cb = self.clock, other.clock
        self.trip = merge_fields(self.trip, other.trip, ca, cb)
        devices = {}
        for dev in sorted(set(self.devices) | set(other.devices)):
            merged = merge_fields(self.devices.get(dev, {}), other.devices.get(dev, {}), ca, cb)
            if merged:
                devices[dev] = merged
        self.devices = devices
        entities = {}
        for item_id in sorted(set(self.entities) | set(other.entities)):
            merged = merge_fields(self.entities.get(item_id, {}), other.entities.get(item_id, {}), ca, cb)
            if merged:
                entities[item_id] = merged
        self.entities = entities
        self.clock = pointwise_max(ca, cb)
        for dev in set(other.acks):
            self.acks[dev] = pointwise_max(self.acks.get(dev, {}), other.acks[dev])
        self.hlc = max([self.hlc, *self.clock.values()])

    # Export ------------------------------------------------------------------------------

    def document(self) -> dict:
        items, tombstones = {}, {}
        for item_id, fields in self.entities.items():
            body = {f: register(v) for f, v in fields.items() if f != "deleted"}
            if fields.get("deleted"):
                tombstones[item_id] = {"deleted": register(fields["deleted"]), "item": body}
            else:
                assert set(body) == set(ITEM_FIELDS), (item_id, sorted(body))
                items[item_id] = body
        return {
            "schemaVersion": 2,
            "tripId": self.trip_id,
            "deviceId": self.device,
            "clock": dict(self.clock),
            "trip": {f: register(v) for f, v in self.trip.items()},
            "devices": {d: {f: register(v) for f, v in fs.items()} for d, fs in self.devices.items()},
            "items": items,
            "tombstones": tombstones,
            "acks": {d: dict(c) for d, c in self.acks.items()},
        }


def register(values: list[Value]) -> dict:
    """Greatest rev wins; the others are conflicts in descending rev order."""
    ordered = sorted(values, key=lambda vr: vr[1], reverse=True)
    (value, rev), rest = ordered[0], ordered[1:]
    out: dict[str, Any] = {"value": value, "rev": list(rev)}
    if rest:
        out["conflicts"] = [{"value": v, "rev": list(r)} for v, r in rest]
    return out


# --------------------------------------------------------------------------------------------
# The main sample: "Lisbon & New York 2027"
# --------------------------------------------------------------------------------------------

TRIP_ID = "6f1c0d2e-8a4b-4c1e-9b7a-2d3e4f5a6b7c"
ALEX = "a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d"  # Alex's laptop
SAM = "5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c2d"  # Sam's laptop

I = {name: sample_uuid("lisbon-new-york/" + name) for name in (
    "checkin-lisbon", "tram-28", "dinner-ramiro", "jeronimos", "pasteis", "lunch",
    "lx-factory", "sunset", "fado", "oceanario", "taxi-airport", "flight",
    "checkin-nyc", "high-line", "via-carota", "esim", "sintra-day", "train-sintra",
    "pena", "sardines", "pack",
)}


def lisbon_new_york() -> dict:
    alex = Replica(TRIP_ID, ALEX)
    sam = Replica(TRIP_ID, SAM)

    # Saturday 22 May: Alex starts the trip and fills in Lisbon.
    w = wall("2026-05-22 18:04:12")
    alex.set_trip_name("Lisbon & New York 2027", w)
    alex.set_device_name("Alex's laptop", w + 900)
    alex.create(I["checkin-lisbon"], wall("2026-05-22 18:06:40"),
                title="Check in: Casa do Príncipe Real", sortKey="1",
                start=local("2027-06-07T15:00", LIS), end=None,
                place="Rua da Escola Politécnica 42, 1250-102 Lisboa",
                note="Self check-in; the door code comes by SMS on the day.")
    alex.create(I["tram-28"], wall("2026-05-22 18:09:03"),
                title="Tram 28 to Graça", sortKey="4",
                start=local("2027-06-07T17:00", LIS), end=local("2027-06-07T17:45", LIS),
                place="Martim Moniz", note="Board at the first stop to get a seat.")
    alex.create(I["dinner-ramiro"], wall("2026-05-22 18:12:27"),
                title="Dinner at Cervejaria Ramiro", sortKey="7",
                start=local("2027-06-07T20:30", LIS), end=local("2027-06-07T22:30", LIS),
                place="Av. Almirante Reis 1, Lisboa",
                note="No reservations: queue from 19:45.\nOrder the garlic prawns and a prego for dessert.")
    alex.create(I["jeronimos"], wall("2026-05-22 18:15:50"),
                title="Jerónimos Monastery", sortKey="A",
                start=local("2027-06-08T10:00", LIS), end=local("2027-06-08T12:00", LIS),
                place="Praça do Império, Belém", note="Tickets online, €18 each. Closed on Mondays.")
    alex.create(I["pasteis"], wall("2026-05-22 18:17:31"),
                title="Pastéis de Belém", sortKey="D",
                start=local("2027-06-08T12:15", LIS), end=None,
                place="Rua de Belém 84-92", note=None)
    alex.create(I["lunch"], wall("2026-05-22 18:19:05"),
                title="Lunch", sortKey="G",
                start=local("2027-06-08T13:30", LIS), end=local("2027-06-08T15:00", LIS),
                place=None, note=None)
    alex.create(I["lx-factory"], wall("2026-05-22 18:21:44"),
                title="LX Factory", sortKey="J",
                start=local("2027-06-08T16:00", LIS), end=local("2027-06-08T18:30", LIS),
                place="Rua Rodrigues de Faria 103, Alcântara", note="Ler Devagar bookshop is inside.")
    alex.create(I["sunset"], wall("2026-05-22 18:23:10"),
                title="Sunset at Miradouro da Senhora do Monte", sortKey="M",
                start=local("2027-06-08T20:45", LIS), end=None,
                place="Miradouro da Senhora do Monte, Graça", note=None)
    alex.create(I["fado"], wall("2026-05-22 18:25:58"),
                title="Fado night in Alfama", sortKey="P",
                start=local("2027-06-08T21:30", LIS), end=local("2027-06-08T23:30", LIS),
                place="Alfama", note=None)
    alex.create(I["oceanario"], wall("2026-05-22 18:27:36"),
                title="Oceanário de Lisboa", sortKey="S",
                start=local("2027-06-09T10:00", LIS), end=local("2027-06-09T12:30", LIS),
                place="Esplanada Dom Carlos I, Parque das Nações", note=None)
    alex.create(I["taxi-airport"], wall("2026-05-22 18:30:02"),
                title="Taxi to Humberto Delgado Airport", sortKey="V",
                start=local("2027-06-10T07:30", LIS), end=None,
                place="Casa do Príncipe Real", note="About 25 minutes; book the night before.")
    alex.create(I["flight"], wall("2026-05-22 18:32:49"),
                title="TP 201 Lisbon → New York", sortKey="Y",
                start=local("2027-06-10T10:00", LIS), end=local("2027-06-10T13:00", NYC),
                place="Lisbon Airport (LIS), Terminal 1",
                note="Booking ref. QX7P2L\nSeats 23A and 23C. Online check-in opens 36 h before.")
    alex_file = alex.publish()

    # Tuesday 25 May: Sam reads Alex's file, adds Sintra and New York.
    sam.merge_from(alex_file)
    sam.set_device_name("Sam's laptop", wall("2026-05-25 07:41:18"))
    sam.create(I["sintra-day"], wall("2026-05-25 07:43:02"),
               title="Day trip to Sintra", sortKey="Q",
               start=day("2027-06-09"), end=day("2027-06-09"),
               place="Sintra", note="Wear good shoes: lots of hills and stairs.")
    sam.create(I["train-sintra"], wall("2026-05-25 07:45:37"),
               title="Train from Rossio to Sintra", sortKey="Qk",
               start=local("2027-06-09T09:11", LIS), end=local("2027-06-09T09:51", LIS),
               place="Rossio station", note="Viva Viagem card, zapping is fine.")
    sam.create(I["pena"], wall("2026-05-25 07:48:20"),
               title="Pena Palace (timed entry)", sortKey="R",
               start=local("2027-06-09T10:30", LIS), end=local("2027-06-09T13:00", LIS),
               place="Estrada da Pena, Sintra", note=None)
    sam.create(I["pack"], wall("2026-05-25 07:50:09"),
               title="Pack for New York", sortKey="U",
               start=day("2027-06-09"), end=None, place=None,
               note="Adapters: type F for Lisbon, type A/B for New York.")
    sam.create(I["checkin-nyc"], wall("2026-05-25 07:53:44"),
               title="Check in: The Jane Hotel", sortKey="a",
               start=local("2027-06-10T15:00", NYC), end=None,
               place="113 Jane St, New York, NY 10014", note=None)
    sam.create(I["high-line"], wall("2026-05-25 07:55:31"),
               title="Walk the High Line", sortKey="d",
               start=local("2027-06-10T17:00", NYC), end=local("2027-06-10T18:30", NYC),
               place="Gansevoort St entrance", note=None)
    sam.create(I["via-carota"], wall("2026-05-25 07:58:16"),
               title="Dinner at Via Carota", sortKey="g",
               start=local("2027-06-10T19:30", NYC), end=local("2027-06-10T21:30", NYC),
               place="51 Grove St, New York, NY 10014", note="Walk-in only; put our names down early.")
    sam.create(I["esim"], wall("2026-05-25 08:01:55"),
               title="Buy a US eSIM", sortKey="j",
               start=None, end=None, place=None, note=None)
    sam.create(I["sardines"], wall("2026-05-25 08:03:12"),
               title="Souvenirs: tinned sardines", sortKey="m",
               start=None, end=None, place="Conserveira de Lisboa, Rua dos Bacalhoeiros 34",
               note=None)
    sam.edit(I["pasteis"], wall("2026-05-25 08:05:40"), note="Take-away counter is faster than the tables.")
    sam_file = sam.publish()

    # Wednesday 26 May: Alex reads Sam's file; both are in step again.
    alex.merge_from(sam_file)
    alex_file = alex.publish()
    sam.merge_from(alex_file)

    # 28-30 May, offline on both sides (concurrent edits):
    # - both rename the lunch (a field conflict: the greater rev wins, the other is kept);
    # - Sam deletes the fado night while Alex adds the booking to its note (edited while deleted);
    # - Alex drops the Oceanário.
    alex.edit(I["lunch"], wall("2026-05-28 21:14:07"), title="Lunch at Mercado de Campo de Ourique")
    alex.edit(I["fado"], wall("2026-05-28 21:16:49"),
              note="Booked Clube de Fado, 21:30, table for 2.\nPay at the door, cash only.")
    alex.delete(I["oceanario"], wall("2026-05-28 21:18:30"))
    sam.edit(I["lunch"], wall("2026-05-29 12:02:33"), title="Lunch at Time Out Market", place="Mercado da Ribeira")
    sam.delete(I["fado"], wall("2026-05-29 12:05:10"))
    sam.edit(I["checkin-nyc"], wall("2026-05-29 12:07:58"), note="Tiny cabins; ask for a room with a window.")
    sam_file = sam.publish()

    # Sunday 30 May: Alex merges Sam's file and publishes; this is Alex's file.
    alex.merge_from(sam_file)
    alex.publish()
    return alex.document()


# --------------------------------------------------------------------------------------------
# Small documents: warnings and the base of the invalid samples
# --------------------------------------------------------------------------------------------


def warning_unknown_zone() -> dict:
    trip = sample_uuid("warnings/unknown-zone/trip")
    alex = Replica(trip, ALEX)
    alex.set_trip_name("Olympus Mons base camp", wall("2026-05-23 09:00:00"))
    alex.set_device_name("Alex's laptop", wall("2026-05-23 09:00:01"))
    alex.create(sample_uuid("warnings/unknown-zone/flight"), wall("2026-05-23 09:01:00"),
                title="Leave Lisbon", sortKey="V",
                start=local("2027-06-07T09:00", LIS), end=None, place=None, note=None)
    alex.create(sample_uuid("warnings/unknown-zone/summit"), wall("2026-05-23 09:02:00"),
                title="Summit at local noon", sortKey="k",
                start=local("2027-06-08T12:00", "Mars/Olympus_Mons"), end=None,
                place="Olympus Mons", note="The zone id is well-formed but in no tz database.")
    alex.publish()
    return alex.document()


def warning_end_before_start() -> dict:
    trip = sample_uuid("warnings/end-before-start/trip")
    alex = Replica(trip, ALEX)
    alex.set_trip_name("Lisbon weekend", wall("2026-05-23 10:00:00"))
    alex.set_device_name("Alex's laptop", wall("2026-05-23 10:00:01"))
    alex.create(sample_uuid("warnings/end-before-start/castle"), wall("2026-05-23 10:01:00"),
                title="Castelo de São Jorge", sortKey="V",
                start=local("2027-06-08T10:00", LIS), end=local("2027-06-08T12:00", LIS),
                place="Castelo de São Jorge", note=None)
    alex.create(sample_uuid("warnings/end-before-start/dinner"), wall("2026-05-23 10:02:00"),
                title="Dinner in Bairro Alto", sortKey="k",
                start=local("2027-06-08T20:00", LIS), end=local("2027-06-08T19:00", LIS),
                place="Bairro Alto", note="End typed before start: a warning, not an error.")
    alex.publish()
    return alex.document()


BASE_TRIP = sample_uuid("base/trip")
B = {name: sample_uuid("base/" + name) for name in ("breakfast", "high-line", "sintra", "oceanario")}


def base_document() -> dict:
    """Small valid document: 3 items (one with a title conflict), 1 tombstone, 2 devices."""
    alex = Replica(BASE_TRIP, ALEX)
    sam = Replica(BASE_TRIP, SAM)
    alex.set_trip_name("Lisbon & New York 2027", wall("2026-05-24 08:00:00"))
    alex.set_device_name("Alex's laptop", wall("2026-05-24 08:00:02"))
    alex.create(B["breakfast"], wall("2026-05-24 08:01:00"),
                title="Breakfast", sortKey="V",
                start=local("2027-06-08T09:00", LIS), end=None, place="Rossio", note=None)
    alex.create(B["high-line"], wall("2026-05-24 08:02:00"),
                title="Walk the High Line", sortKey="k",
                start=local("2027-06-10T17:00", NYC), end=local("2027-06-10T19:00", NYC),
                place="Gansevoort St entrance",
                note="Start at the south end.\nCoffee at Intelligentsia on the way.")
    alex.create(B["sintra"], wall("2026-05-24 08:03:00"),
                title="Day trip to Sintra", sortKey="c",
                start=day("2027-06-09"), end=day("2027-06-09"), place="Sintra", note=None)
    alex.create(B["oceanario"], wall("2026-05-24 08:04:00"),
                title="Oceanário de Lisboa", sortKey="g",
                start=local("2027-06-09T10:00", LIS), end=None, place="Parque das Nações", note=None)
    sam.merge_from(alex.publish())
    sam.set_device_name("Sam's laptop", wall("2026-05-24 12:00:00"))
    # Concurrent: both name the breakfast, Sam deletes the Oceanário.
    sam.edit(B["breakfast"], wall("2026-05-24 12:01:00"), title="Breakfast at Confeitaria Nacional")
    sam.delete(B["oceanario"], wall("2026-05-24 12:02:00"))
    alex.edit(B["breakfast"], wall("2026-05-24 18:30:00"), title="Breakfast at Café Nicola")
    alex.merge_from(sam.publish())
    alex.publish()
    return alex.document()


# --------------------------------------------------------------------------------------------
# Invalid samples: one broken rule each
# --------------------------------------------------------------------------------------------


@dataclass
class Case:
    file: str
    pointer: str
    rule: str
    schema: bool  # can the JSON Schema of its version (v2, or v1 under samples/v1) detect it?
    build: Callable[[dict], bytes]  # gets a fresh deep copy of the base document


def _doc_edit(fn: Callable[[dict], None]) -> Callable[[dict], bytes]:
    def build(doc: dict) -> bytes:
        fn(doc)
        return canonical(doc)
    return build


def _set(path: tuple, value: Any) -> Callable[[dict], bytes]:
    def fn(doc: dict) -> None:
        target = doc
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return _doc_edit(fn)


def _replace_once(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, (old, data.count(old))
    return data.replace(old, new)


def _flip(data: bytes, index: int) -> bytes:
    out = bytearray(data)
    out[index] ^= 0xFF
    return bytes(out)


def _corrupt_deflate(data: bytes) -> bytes:
    """Flip the first byte, from the middle of the deflate data on, that makes inflate itself
    fail (not only the CRC check afterwards)."""
    for index in range(len(data) // 2, len(data) - 8):
        bad = _flip(data, index)
        try:
            zlib.decompressobj(-zlib.MAX_WBITS).decompress(bad[10:-8])
        except zlib.error:
            return bad
    raise AssertionError("no byte flip breaks inflate")


def invalid_cases(base: dict) -> list[Case]:
    br, hl, si, oc = B["breakfast"], B["high-line"], B["sintra"], B["oceanario"]
    clock = base["clock"]
    base_bytes = canonical(base)
    base_gz = gz(base_bytes)
    hl_item = base["items"][hl]
    br_title = base["items"][br]["title"]
    assert br_title["value"] == "Breakfast at Café Nicola" and len(br_title["conflicts"]) == 1

    def duplicate_key(doc: dict) -> bytes:
        data = canonical(doc)
        item_text = json.dumps(doc["items"][hl], ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        again = dict(hl_item["title"], value="High Line")  # same dot, other text: last one wins in lax parsers
        dup = item_text[:-1] + ',"title":' + json.dumps(again, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "}"
        return _replace_once(data, item_text.encode(), dup.encode())

    def invalid_utf8(doc: dict) -> bytes:
        # "Café" written in Latin-1 (0xE9) instead of UTF-8 (0xC3 0xA9).
        return _replace_once(canonical(doc), '"value":"Breakfast at Café Nicola"'.encode(),
                             b'"value":"Breakfast at Caf\xe9 Nicola"')

    def deep_nesting(doc: dict) -> bytes:
        depth = 100_000
        data = canonical(doc)
        assert data.endswith(b"}\n")
        return gz(data[:-2] + b',"x":' + b"[" * depth + b"]" * depth + b"}\n")

    def counter_exponent(doc: dict) -> bytes:
        c = clock[ALEX]
        text = f"{c / 10**12:.12f}".rstrip("0") + "e12"
        assert float(text) == c
        prefix = f'"clock":{{"{SAM}":{clock[SAM]},"{ALEX}":'
        return _replace_once(canonical(doc), f"{prefix}{c}}}".encode(), f"{prefix}{text}}}".encode())

    def schema_version_float(doc: dict) -> bytes:
        return _replace_once(canonical(doc), b'"schemaVersion":2,', b'"schemaVersion":2.0,')

    def lone_surrogate(doc: dict) -> bytes:
        return _replace_once(canonical(doc), b'"value":"Walk the High Line"', b'"value":"Walk the High Line \\ud83d"')

    def uppercase_key(doc: dict) -> None:
        doc["items"][hl.upper()] = doc["items"].pop(hl)

    def remove(path: tuple) -> Callable[[dict], None]:
        def fn(doc: dict) -> None:
            target = doc
            for part in path[:-1]:
                target = target[part]
            del target[path[-1]]
        return fn

    def winner_not_greatest(doc: dict) -> None:
        title = doc["items"][br]["title"]
        title["rev"], title["conflicts"][0]["rev"] = title["conflicts"][0]["rev"], title["rev"]

    def conflict_repeats_rev(doc: dict) -> None:
        title = doc["items"][br]["title"]
        # The same write (dot and value) twice. Two different values under one dot are valid:
        # a forked device wrote them, and both are kept (docs/DESIGN.md, "Forks").
        title["conflicts"].append({"value": title["conflicts"][0]["value"], "rev": list(title["conflicts"][0]["rev"])})

    def id_in_both(doc: dict) -> None:
        used = {r for r in all_revs(doc)}
        counter = clock[SAM] - 1
        while (counter, SAM) in used:
            counter -= 1
        doc["tombstones"][si] = {
            "deleted": {"value": {"at": utc_stamp(counter), "seen": dict(clock)}, "rev": [counter, SAM]},
            "item": {},
        }

    def unknown_item_key(doc: dict) -> None:
        doc["items"][hl]["color"] = {"value": "#ff8800", "rev": list(hl_item["title"]["rev"])}

    def top_level_array(doc: dict) -> bytes:
        return canonical([doc])

    long_title = ("Walk the whole High Line from Gansevoort St to Hudson Yards, "
                  "then the Vessel, the Little Island piers and back along the river ") * 3
    long_place = ("Gansevoort St entrance, Meatpacking District, Manhattan, New York, NY 10014, USA; ") * 7
    long_note = "\n".join(f"{n:03d}. Bring water, sunscreen and a hat; the High Line has little shade." for n in range(1, 200))
    note_10001 = (long_note * 2)[:10001]

    T = ("items", hl)  # the plain item most cases edit
    cases = [
        # Whole-file problems.
        Case("empty.trip.json", "", "the file is empty; expected a JSON document", False, lambda d: b""),
        Case("not-json.trip.json", "", "not JSON at all", False,
             lambda d: "Lisbon & New York 2027\n- Tram 28\n- Pastéis de Belém\n".encode()),
        Case("invalid-utf8-in-string.trip.json", ptr("items", br, "title", "value"),
             "a string holds bytes that are not UTF-8 (Latin-1 é)", False, invalid_utf8),
        Case("trailing-bytes.trip.json", "", "more bytes after the JSON value", False,
             lambda d: canonical(d) + b"{}\n"),
        Case("truncated.trip.json.gz", "", "gzip stream cut short (no CRC/length trailer)", False,
             lambda d: base_gz[: len(base_gz) // 2]),
        Case("corrupt-gzip-crc.trip.json.gz", "", "gzip CRC-32 does not match the data", False,
             lambda d: _flip(base_gz, len(base_gz) - 8)),
        Case("corrupt-gzip-data.trip.json.gz", "", "gzip deflate data corrupted (inflate fails before the CRC)", False,
             lambda d: _corrupt_deflate(base_gz)),
        Case("top-level-array.trip.json", "", "the top-level value must be an object", True, top_level_array),
        # JSON syntax the reader is stricter about than JSON Schema.
        Case("duplicate-key.trip.json", ptr(*T), "duplicate key (\"title\" twice in one item)", False, duplicate_key),
        Case("nesting-100000-deep.trip.json.gz", "/x", "nesting deeper than 64 (100,000 nested arrays)", False, deep_nesting),
        Case("counter-exponent.trip.json", ptr("clock", ALEX),
             "a number written with an exponent; counters are plain integers", False, counter_exponent),
        Case("title-lone-surrogate.trip.json", ptr(*T, "title", "value"),
             "a string with a lone surrogate escape (not a Unicode scalar)", False, lone_surrogate),
        # schemaVersion.
        Case("schema-version-missing.trip.json", "", "required key schemaVersion is missing", True,
             _doc_edit(remove(("schemaVersion",)))),
        Case("schema-version-string.trip.json", "/schemaVersion", "schemaVersion must be the integer 2, not a string", True,
             _set(("schemaVersion",), "2")),
        Case("schema-version-float.trip.json", "/schemaVersion", "schemaVersion written as 2.0; numbers are integers without fraction", False,
             schema_version_float),
        Case("schema-version-newer.trip.json", "/schemaVersion", "schemaVersion 7 is newer than this reader", True,
             _set(("schemaVersion",), 7)),
        # Ids and counters.
        Case("item-id-uppercase.trip.json", ptr("items", hl.upper()), "item id must be a lowercase canonical UUID", True,
             _doc_edit(uppercase_key)),
        Case("device-id-without-hyphens.trip.json", "/deviceId", "deviceId must be a canonical UUID (with hyphens)", True,
             _set(("deviceId",), ALEX.replace("-", ""))),
        Case("counter-zero.trip.json", ptr(*T, "place", "rev", 0), "counter must be at least 1", True,
             _set(T + ("place", "rev", 0), 0)),
        Case("counter-above-2-pow-53.trip.json", ptr("clock", SAM), "counter must be at most 2^53 (9007199254740992)", True,
             _set(("clock", SAM), MAX_COUNTER + 1)),
        Case("counter-fraction.trip.json", ptr("acks", SAM, ALEX), "counter must be an integer, not 1.5", True,
             _set(("acks", SAM, ALEX), 1.5)),
        Case("rev-three-elements.trip.json", ptr(*T, "place", "rev"), "rev must be [counter, deviceId]", True,
             _set(T + ("place", "rev"), [*hl_item["place"]["rev"], "extra"])),
        # Clock accounting.
        Case("dot-above-clock.trip.json", ptr(*T, "place", "rev"), "a dot's counter is above the clock for its device", False,
             _set(T + ("place", "rev", 0), clock[ALEX] + 1)),
        Case("tombstone-dot-above-clock.trip.json", ptr("tombstones", oc, "item", "place", "rev"),
             "a dot in a tombstone's body is above the clock for its device", False,
             _set(("tombstones", oc, "item", "place", "rev", 0), clock[ALEX] + 1)),
        Case("seen-above-clock.trip.json", ptr("tombstones", oc, "deleted", "value", "seen", ALEX),
             "a delete's seen entry is above the clock", False,
             _set(("tombstones", oc, "deleted", "value", "seen", ALEX), clock[ALEX] + 1)),
        Case("ack-above-clock.trip.json", ptr("acks", SAM, ALEX), "an acks entry is above the clock", False,
             _set(("acks", SAM, ALEX), clock[ALEX] + 1)),
        # Registers.
        Case("winner-rev-not-greatest.trip.json", ptr("items", br, "title", "conflicts", 0, "rev"),
             "a conflict's rev is greater than the winner's", False, _doc_edit(winner_not_greatest)),
        Case("conflict-repeats-rev.trip.json", ptr("items", br, "title", "conflicts", 1, "rev"),
             "one write (rev and value) appears twice in a register", False, _doc_edit(conflict_repeats_rev)),
        Case("conflicts-empty.trip.json", ptr(*T, "title", "conflicts"), "conflicts, when present, has 1 to 1000 entries", True,
             _set(T + ("title", "conflicts"), [])),
        Case("item-missing-note.trip.json", ptr(*T), "a live item has all six registers (note removed instead of null)", True,
             _doc_edit(remove(T + ("note",)))),
        Case("item-unknown-key.trip.json", ptr(*T, "color"), "unknown key in an item", True, _doc_edit(unknown_item_key)),
        Case("missing-acks.trip.json", "", "required top-level key acks is missing", True, _doc_edit(remove(("acks",)))),
        # Text.
        Case("title-empty.trip.json", ptr(*T, "title", "value"), "title must have 1 to 200 characters (empty)", True,
             _set(T + ("title", "value"), "")),
        Case("title-null.trip.json", ptr(*T, "title", "value"), "title must not be null", True,
             _set(T + ("title", "value"), None)),
        Case("title-too-long.trip.json", ptr(*T, "title", "value"), "title must have 1 to 200 characters (201)", True,
             _set(T + ("title", "value"), long_title[:201])),
        Case("title-control-character.trip.json", ptr(*T, "title", "value"), "title must not contain control characters (a tab)", True,
             _set(T + ("title", "value"), "Walk the\tHigh Line")),
        Case("place-too-long.trip.json", ptr(*T, "place", "value"), "place must have at most 500 characters (501)", True,
             _set(T + ("place", "value"), long_place[:501])),
        Case("note-too-long.trip.json", ptr(*T, "note", "value"), "note must have at most 10000 characters (10001)", True,
             _set(T + ("note", "value"), note_10001)),
        Case("trip-name-empty.trip.json", ptr("trip", "name", "value"), "trip name must have 1 to 200 characters (empty)", True,
             _set(("trip", "name", "value"), "")),
        # sortKey.
        Case("sort-key-ends-in-zero.trip.json", ptr(*T, "sortKey", "value"), "sortKey must not end in 0", True,
             _set(T + ("sortKey", "value"), "k0")),
        Case("sort-key-bad-character.trip.json", ptr(*T, "sortKey", "value"), "sortKey uses only 0-9A-Za-z (has -)", True,
             _set(T + ("sortKey", "value"), "k-1")),
        # Times.
        Case("start-february-30.trip.json", ptr(*T, "start", "value", "local"), "2027-02-30 does not exist", False,
             _set(T + ("start", "value", "local"), "2027-02-30T10:00")),
        Case("start-february-29-non-leap.trip.json", ptr("items", si, "start", "value", "date"),
             "2027-02-29 does not exist (2027 is not a leap year)", False,
             _set(("items", si, "start", "value", "date"), "2027-02-29")),
        Case("start-hour-24.trip.json", ptr(*T, "start", "value", "local"), "hour 24 does not exist (00:00-23:59)", True,
             _set(T + ("start", "value", "local"), "2027-06-10T24:00")),
        Case("start-with-seconds.trip.json", ptr(*T, "start", "value", "local"), "local time is YYYY-MM-DDTHH:MM (no seconds)", True,
             _set(T + ("start", "value", "local"), "2027-06-10T17:00:00")),
        Case("zone-fixed-offset.trip.json", ptr(*T, "start", "value", "zone"), "zone must be an IANA id, never a fixed offset", True,
             _set(T + ("start", "value", "zone"), "+01:00")),
        Case("time-local-and-date.trip.json", ptr(*T, "end", "value"), "a time is either {local, zone} or {date}", True,
             _set(T + ("end", "value"), {"local": "2027-06-10T19:00", "zone": NYC, "date": "2027-06-10"})),
        Case("deletion-at-bad-format.trip.json", ptr("tombstones", oc, "deleted", "value", "at"),
             "deletion at must be YYYY-MM-DDTHH:MM:SSZ (no fraction)", True,
             _set(("tombstones", oc, "deleted", "value", "at"),
                  base["tombstones"][oc]["deleted"]["value"]["at"][:-1] + ".000Z")),
        # Items and tombstones.
        Case("id-in-items-and-tombstones.trip.json", ptr("tombstones", si), "an id is in both items and tombstones", False,
             _doc_edit(id_in_both)),
    ]
    return cases


# --------------------------------------------------------------------------------------------
# Self-check: a small reference reader for the rules JSON Schema cannot express
# --------------------------------------------------------------------------------------------


class DupDict(dict):
    """A JSON object that had duplicate keys."""
    duplicates: list[str]


class Fraction(float):
    """A JSON number written with a fraction or an exponent."""


def _pairs(pairs: list) -> dict:
    out: dict = {}
    dups = []
    for k, v in pairs:
        if k in out:
            dups.append(k)
        out[k] = v
    if dups:
        flagged = DupDict(out)
        flagged.duplicates = dups
        return flagged
    return out


def _depth_problem(text: str) -> str | None:
    """Pointer of the top-level member under which nesting exceeds MAX_DEPTH, if any."""
    depth, in_string, escape, key, top_key = 0, False, False, [], None
    for ch in text:
        if in_string:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == '"':
                in_string = False
            elif depth == 1:
                key.append(ch)
            continue
        if ch == '"':
            in_string = True
            if depth == 1:
                key = []
        elif ch == ":" and depth == 1:
            top_key = "".join(key)
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return "" if top_key is None else ptr(top_key)
        elif ch in "]}":
            depth -= 1
    return None


def _is_counter(x: Any) -> bool:
    return type(x) is int and 1 <= x <= MAX_COUNTER


def _valid_date(text: Any) -> bool:
    """YYYY-MM-DD that exists on the proleptic Gregorian calendar, year 0001-9999."""
    if not (isinstance(text, str) and len(text) == 10 and text[4] == text[7] == "-"
            and (text[:4] + text[5:7] + text[8:]).isascii() and (text[:4] + text[5:7] + text[8:]).isdigit()):
        return False
    try:
        _dt.date(int(text[:4]), int(text[5:7]), int(text[8:]))
        return True
    except ValueError:
        return False


def _valid_local(text: Any) -> bool:
    return isinstance(text, str) and len(text) == 16 and text[10] == "T" and _valid_date(text[:10]) \
        and text[13] == ":" and text[11:13].isascii() and text[11:13].isdigit() and text[14:].isascii() and text[14:].isdigit() \
        and int(text[11:13]) < 24 and int(text[14:]) < 60


def _valid_at(text: Any) -> bool:
    return isinstance(text, str) and len(text) == 20 and text.endswith("Z") and _valid_local(text[:16]) \
        and text[16] == ":" and text[17:19].isdigit() and int(text[17:19]) < 60


def all_revs(doc: dict):
    for _, reg in registers(doc):
        for entry in [reg, *(reg.get("conflicts") or [])]:
            rev = entry.get("rev") if isinstance(entry, dict) else None
            if isinstance(rev, list) and len(rev) == 2:
                yield tuple(rev)


def registers(doc: dict):
    """(pointer, register) for every register of a document (defensive about shapes)."""
    def obj(x):
        return x if isinstance(x, dict) else {}
    if isinstance(obj(doc.get("trip")).get("name"), dict):
        yield ptr("trip", "name"), doc["trip"]["name"]
    for dev, entry in obj(doc.get("devices")).items():
        if isinstance(obj(entry).get("name"), dict):
            yield ptr("devices", dev, "name"), entry["name"]
    for item_id, item in obj(doc.get("items")).items():
        for field, reg in obj(item).items():
            if isinstance(reg, dict):
                yield ptr("items", item_id, field), reg
    for item_id, stone in obj(doc.get("tombstones")).items():
        if isinstance(obj(stone).get("deleted"), dict):
            yield ptr("tombstones", item_id, "deleted"), stone["deleted"]
        for field, reg in obj(obj(stone).get("item")).items():
            if isinstance(reg, dict):
                yield ptr("tombstones", item_id, "item", field), reg
    for attachment_id, attachment in obj(doc.get("attachments")).items():  # schema 4
        for field, reg in obj(attachment).items():
            if isinstance(reg, dict):
                yield ptr("attachments", attachment_id, field), reg


def deletes(doc: dict):
    """(pointer, register) of every delete: tombstones' and (schema 4) attachments' detaches."""
    for key in ("tombstones", "attachments"):
        entries = doc.get(key) if isinstance(doc.get(key), dict) else {}
        for entry_id, entry in entries.items():
            if isinstance(entry, dict) and isinstance(entry.get("deleted"), dict):
                yield ptr(key, entry_id, "deleted"), entry["deleted"]


def strict_json(data: bytes) -> tuple[Any, list[tuple[str, str]], bool]:
    """(document, errors, parsed) for the strict JSON rules shared by every schema version:
    gzip by magic bytes, UTF-8, nesting at most 64, duplicate keys, integers without fraction
    or exponent, Unicode scalars. `parsed` is False when nothing past the errors can be read."""
    errors: list[tuple[str, str]] = []
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            return None, [("", f"gzip: {e}")], False
    if not data:
        return None, [("", "empty file")], False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="surrogateescape")
        errors.append(("?utf8", "invalid UTF-8"))
    deep = _depth_problem(text)
    if deep is not None:
        return None, [(deep, "nesting deeper than 64")], False
    try:
        doc = json.loads(text, object_pairs_hook=_pairs, parse_float=Fraction,
                         parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except ValueError as e:
        return None, [("", f"not JSON: {e}")], False

    # Walk every value: duplicate keys, non-integer numbers, invalid strings.
    def walk(value: Any, path: tuple) -> None:
        if isinstance(value, DupDict):
            errors.append((ptr(*path), f"duplicate keys {value.duplicates}"))
        if isinstance(value, dict):
            for k, v in value.items():
                if any(0xD800 <= ord(c) <= 0xDFFF for c in k):
                    errors.append((ptr(*path, k), "key is not valid Unicode"))
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))
        elif isinstance(value, Fraction):
            errors.append((ptr(*path), "number with fraction or exponent"))
        elif isinstance(value, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in value):
            errors.append((ptr(*path), "string is not valid Unicode (invalid UTF-8 or lone surrogate)"))
    walk(doc, ())
    errors = [e for e in errors if e[0] != "?utf8" or not any(x[1].startswith("string is not") for x in errors)]
    return doc, errors, True


def reference_check(data: bytes) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Errors and warnings [(pointer, message)] for the non-JSON-Schema rules of FORMAT.md."""
    warnings: list[tuple[str, str]] = []
    doc, errors, parsed = strict_json(data)
    if not parsed or not isinstance(doc, dict):
        return errors, warnings

    clock = doc.get("clock") if isinstance(doc.get("clock"), dict) else {}

    def covered(device: Any, counter: Any) -> bool:
        limit = clock.get(device) if isinstance(device, str) else None
        if not _is_counter(counter) or not _is_counter(limit):
            return True  # a type problem, the schema's business
        return counter <= limit

    # Dots and register ordering.
    for where, reg in registers(doc):
        entries = [reg] + [c for c in (reg.get("conflicts") or []) if isinstance(c, dict)] \
            if isinstance(reg.get("conflicts", []), list) else [reg]
        seen_writes = set()
        winner = reg.get("rev")

        def value_bytes(entry: dict) -> bytes:
            return json.dumps(entry.get("value"), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")

        for n, entry in enumerate(entries):
            rev = entry.get("rev")
            at = where + ("/rev" if n == 0 else f"/conflicts/{n - 1}/rev")
            if not (isinstance(rev, list) and len(rev) == 2 and _is_counter(rev[0]) and isinstance(rev[1], str)):
                continue
            if not covered(rev[1], rev[0]):
                errors.append((at, "dot above the clock"))
            # A version is a write: its dot and its value (two values under one dot are a fork).
            key = (rev[0], rev[1], value_bytes(entry))
            if n > 0:
                if key in seen_writes:
                    errors.append((at, "rev repeats in one register"))
                elif isinstance(winner, list) and len(winner) == 2 and key > (winner[0], winner[1], value_bytes(reg)):
                    errors.append((at, "conflict rev greater than the winner's"))
            seen_writes.add(key)

    # seen and acks.
    for where, reg in deletes(doc):
        for n, entry in enumerate([reg, *(reg.get("conflicts") or [])]):
            value = entry.get("value") if isinstance(entry, dict) else None
            if not isinstance(value, dict):
                continue
            base = where + ("/value" if n == 0 else f"/conflicts/{n - 1}/value")
            for dev, counter in (value.get("seen") or {}).items() if isinstance(value.get("seen"), dict) else ():
                if not covered(dev, counter) or (_is_counter(counter) and dev not in clock):
                    errors.append((base + ptr("seen", dev), "seen above the clock"))
            if "at" in value and isinstance(value["at"], str) and len(value["at"]) == 20 and not _valid_at(value["at"]) \
                    and value["at"][4] == "-":
                errors.append((base + "/at", "no such date/time"))
    for acker, ack in (doc.get("acks") or {}).items() if isinstance(doc.get("acks"), dict) else ():
        for dev, counter in ack.items() if isinstance(ack, dict) else ():
            if not covered(dev, counter) or (_is_counter(counter) and dev not in clock):
                errors.append((ptr("acks", acker, dev), "ack above the clock"))

    # Ids in both maps.
    items = doc.get("items") if isinstance(doc.get("items"), dict) else {}
    stones = doc.get("tombstones") if isinstance(doc.get("tombstones"), dict) else {}
    for item_id in sorted(set(items) & set(stones)):
        errors.append((ptr("tombstones", item_id), "id in both items and tombstones"))

    # Times: calendar validity, unknown zones, end before start.
    def instant(t: Any, where: str) -> Any:
        if not isinstance(t, dict):
            return None
        if "date" in t and set(t) == {"date"}:
            if isinstance(t["date"], str) and len(t["date"]) == 10 and t["date"][4] == "-" and not _valid_date(t["date"]):
                errors.append((where + "/date", "no such date"))
                return None
            return ("date", t["date"]) if _valid_date(t["date"]) else None
        if set(t) == {"local", "zone"}:
            lt, zone = t["local"], t["zone"]
            if isinstance(lt, str) and len(lt) == 16 and lt[4] == "-" and lt[10] == "T" and not _valid_local(lt) \
                    and lt[11:13] != "24":  # hour 24 is a pattern (schema) error
                errors.append((where + "/local", "no such date/time"))
                return None
            if not _valid_local(lt) or not isinstance(zone, str):
                return None
            try:
                tz = zoneinfo.ZoneInfo(zone)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                if zone[:1].isalpha():
                    warnings.append((where + "/zone", "unknown zone"))
                return ("date", lt[:10])
            moment = _dt.datetime.fromisoformat(lt).replace(tzinfo=tz)
            return ("instant", moment.timestamp(), lt[:10])
        return None

    for where_root, body in [*((ptr("items", k), v) for k, v in items.items()),
                             *((ptr("tombstones", k, "item"), (v or {}).get("item")) for k, v in stones.items())]:
        if not isinstance(body, dict):
            continue
        moments = {}
        for field in ("start", "end"):
            reg = body.get(field)
            if not isinstance(reg, dict):
                continue
            moments[field] = instant(reg.get("value"), where_root + f"/{field}/value")
            for n, c in enumerate(reg.get("conflicts") or []):
                if isinstance(c, dict):
                    instant(c.get("value"), where_root + f"/{field}/conflicts/{n}/value")
        s, e = moments.get("start"), moments.get("end")
        if s and e:
            if s[0] == e[0] == "instant":
                before = e[1] < s[1]
            else:
                before = e[-1] < s[-1]
            if before:
                warnings.append((where_root + "/end/value", "end before start"))
    return errors, warnings


def check_valid(path: Path, expected_warnings: list[str]) -> list[str]:
    problems = []
    data = path.read_bytes()
    raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    errors, warnings = reference_check(data)
    if errors:
        problems.append(f"{path}: unexpected errors {errors}")
    if sorted(p for p, _ in warnings) != sorted(expected_warnings):
        problems.append(f"{path}: warnings {warnings}, expected at {expected_warnings}")
    doc = json.loads(raw)
    if canonical(doc) != raw:
        problems.append(f"{path}: not canonical bytes")
    for where, reg in registers(doc):
        revs = [tuple(c["rev"]) for c in reg.get("conflicts", [])]
        if revs != sorted(revs, reverse=True):
            problems.append(f"{where}: conflicts not in descending rev order")
    return problems


def check_invalid(path: Path, case: Case) -> list[str]:
    """The reference reader must see exactly the case's problem (or, for a problem only JSON
    Schema sees, nothing at all except possibly at the case's pointer)."""
    errors, warnings = reference_check(path.read_bytes())
    at = sorted({p for p, _ in errors})
    if case.schema:
        ok = at in ([], [case.pointer])
    else:
        ok = at == [case.pointer]
    problems = [] if ok else [f"{path}: reference reader found {errors}, expected only at {case.pointer!r}"]
    if warnings:
        problems.append(f"{path}: unexpected warnings {warnings}")
    return problems


# --------------------------------------------------------------------------------------------
# Schema 1 (the older format): samples/v1/
# --------------------------------------------------------------------------------------------
#
# Schema 1 is what the old server-based app kept on each device: the server's rows, each with
# its serverRev, plus that device's unpushed local edits (dirty rows). Nothing writes it any
# more; a reader validates it against Schemas/trip.v1.schema.json and the rules below, then
# migrates it to schema 2. The rows are plain data here (no replica simulation): both files
# hold the same server state, and Alex's file has one row edited locally.

V1_DIR = SAMPLES / "v1"
# Written by the Swift tool (`samples/v1/porto-merged.expected.trip.json`), never by this
# script: never removed as stale, only checked when present.
V1_KEEP = ("porto-merged.expected.trip.json", "porto-merged.expected.trip.json.gz")
V1_MAX_INSTANT = 253402300799999  # 9999-12-31T23:59:59.999Z
V1_ZONE_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*")
KTM = "Asia/Kathmandu"  # UTC+05:45
CXI = "Pacific/Kiritimati"  # UTC+14

PORTO_TRIP = sample_uuid("v1/porto/trip")
ABSENT = object()  # an optional key (place, note) left out of the row


@dataclass
class V1Row:
    name: str  # label for the id and for the cases below
    title: str
    sort_key: str
    start_utc: str | None  # "YYYY-MM-DD HH:MM" UTC, or None when unscheduled
    zone: str | None
    local: str | None  # the local time this instant is in its zone (checked, shown in the README)
    server_rev: int
    place: Any = ABSENT
    note: Any = ABSENT
    deleted_at: int | None = None

    @property
    def item_id(self) -> str:
        return sample_uuid("v1/porto/" + self.name)

    def row(self) -> dict:
        out = {
            "itemId": self.item_id,
            "tripId": PORTO_TRIP,
            "title": self.title,
            "sortKey": self.sort_key,
            "startInstant": None if self.start_utc is None else wall(self.start_utc + ":00"),
            "startZoneId": self.zone,
            "serverRev": self.server_rev,
            "deletedAt": self.deleted_at,
            "dirty": False,
        }
        if self.place is not ABSENT:
            out["place"] = self.place
        if self.note is not ABSENT:
            out["note"] = self.note
        return out


# The server state both devices last pulled. June 2027 in Porto is WEST (UTC+1).
PORTO_ROWS = [
    V1Row("checkin", "Check in: Torel Avantgarde", "1", "2027-06-11 14:00", LIS, "2027-06-11T15:00", 1,
          place="Rua da Restauração 336, 4050-501 Porto",
          note="Check-in from 15:00; ask for a room with a river view."),
    V1Row("dinner", "Dinner", "4", "2027-06-11 20:30", LIS, "2027-06-11T21:30", 2, place=None, note=None),
    V1Row("lello", "Livraria Lello", "7", "2027-06-12 08:30", LIS, "2027-06-12T09:30", 3,
          place="Rua das Carmelitas 144, Porto",
          note="Timed tickets online, €10, deducted from a book bought inside."),
    V1Row("sao-bento", "Azulejos at São Bento station", "A", "2027-06-12 10:00", LIS, "2027-06-12T11:00", 1,
          place="Praça de Almeida Garrett"),
    V1Row("grahams", "Port tasting at Graham's Lodge", "D", "2027-06-12 14:00", LIS, "2027-06-12T15:00", 2,
          place="Rua do Agro 141, Vila Nova de Gaia",
          note="Booked the vintage tasting for 2.\nConfirmation PT-48213; pay on arrival."),
    V1Row("cruise", "Six bridges boat cruise", "G", "2027-06-12 16:00", LIS, "2027-06-12T17:00", 4,
          place="Cais da Ribeira", note=None, deleted_at=wall("2026-05-29 17:42:10") + 512),
    V1Row("grandma", "Call Grandma on Kiritimati (her birthday)", "J", "2027-06-12 18:30", CXI, "2027-06-13T08:30", 1,
          place=None, note="08:30 on the 13th her time is 19:30 on the 12th in Porto."),
    V1Row("douro-train", "Train to Pinhão (Douro valley)", "M", "2027-06-13 08:10", LIS, "2027-06-13T09:10", 1,
          place="Estação de São Bento",
          note="Linha do Douro, about 2 h 30 min.\nSit on the right-hand side for the river."),
    V1Row("trek-call", "Video call with the trek agency in Kathmandu", "P", "2027-06-13 10:15", KTM, "2027-06-13T16:00", 1,
          place=None, note="Confirm the Annapurna permits for October.\tTheir office closes at 17:00."),
    V1Row("bomfim", "Lunch and tasting at Quinta do Bomfim", "S", "2027-06-13 12:00", LIS, "2027-06-13T13:00", 2,
          place="Quinta do Bomfim, Pinhão"),
    V1Row("andante", "Buy Andante cards for the metro", "V", None, None, None, 1),
    # 2027-10-31: clocks go back at 02:00 WEST to 01:00 WET, so 01:00-02:00 happens twice.
    # 00:30Z is 01:30 WEST, the FIRST 01:30 (the earlier offset, which schema 2 picks).
    V1Row("night-bus", "Next visit: night bus arrives in Porto", "Y", "2027-10-31 00:30", LIS, "2027-10-31T01:30", 1,
          place="Campo 24 de Agosto, Porto",
          note="Clocks go back at 02:00 that night, so 01:30 happens twice: this is the first one (WEST, UTC+1)."),
]
PORTO_DIRTY = ("dinner", "Dinner at Cantinho do Avillez")  # Alex's local, unpushed rename


def porto_document(device: str) -> dict:
    rows = []
    for spec in PORTO_ROWS:
        row = spec.row()
        if device == ALEX and spec.name == PORTO_DIRTY[0]:
            row["title"] = PORTO_DIRTY[1]
            row["dirty"] = True
        rows.append(row)
    rows.sort(key=lambda r: r["itemId"])
    return {"schemaVersion": 1, "tripId": PORTO_TRIP, "deviceId": device, "name": "Porto 2027", "items": rows}


def v1_index(doc: dict, name: str) -> int:
    item_id = sample_uuid("v1/porto/" + name)
    return next(n for n, r in enumerate(doc["items"]) if r["itemId"] == item_id)


def v1_invalid_cases(base: dict) -> list[Case]:
    """Invalid schema 1 files, each a copy of Alex's file with one rule broken."""
    L = v1_index(base, "lello")
    C = v1_index(base, "cruise")
    T = ("items", L)
    lello_instant = base["items"][L]["startInstant"]
    assert sum(r["startInstant"] == lello_instant for r in base["items"]) == 1
    # Two neighbours in itemId order; the later one takes the earlier one's itemId.
    first, second = 2, 3

    def duplicate_item_id(doc: dict) -> None:
        doc["items"][second]["itemId"] = doc["items"][first]["itemId"]

    def remove_dirty(doc: dict) -> None:
        del doc["items"][L]["dirty"]

    def unknown_key(doc: dict) -> None:
        doc["items"][L]["color"] = "#ff8800"

    def uppercase_id(doc: dict) -> None:
        doc["items"][L]["itemId"] = doc["items"][L]["itemId"].upper()

    def instant_exponent(doc: dict) -> bytes:
        text = f"{lello_instant / 10**12:.12f}".rstrip("0") + "e12"
        assert float(text) == lello_instant and "e" in text
        return _replace_once(canonical(doc), f'"startInstant":{lello_instant},'.encode(),
                             f'"startInstant":{text},'.encode())

    long_title = ("Livraria Lello, then the Clérigos tower, the Majestic café on Rua de Santa Catarina "
                  "and the Bolhão market before lunch ") * 3
    deleted_at = base["items"][C]["deletedAt"]
    deleted_at_iso = _dt.datetime.fromtimestamp(deleted_at / 1000, tz=_dt.timezone.utc) \
        .isoformat(timespec="milliseconds").replace("+00:00", "Z")
    assert deleted_at_iso == "2026-05-29T17:42:10.512Z", deleted_at_iso

    return [
        # Rules JSON Schema cannot express.
        Case("duplicate-item-id.trip.json", ptr("items", second, "itemId"),
             f"itemId at /items/{second} repeats the itemId at /items/{first} (each itemId at most once)", False,
             _doc_edit(duplicate_item_id)),
        Case("row-trip-id-differs.trip.json", ptr(*T, "tripId"), "a row's tripId must equal the file's tripId", False,
             _set(T + ("tripId",), sample_uuid("v1/other-trip"))),
        Case("zone-unknown.trip.json", ptr(*T, "startZoneId"),
             "a well-formed zone unknown to the tz database (Mars/Olympus_Mons) refuses the file at migration", False,
             _set(T + ("startZoneId",), "Mars/Olympus_Mons")),
        Case("start-instant-exponent.trip.json", ptr(*T, "startInstant"),
             "a number written with an exponent; startInstant is a plain integer", False, instant_exponent),
        # Rules of the schema.
        Case("server-rev-zero.trip.json", ptr(*T, "serverRev"), "serverRev must be at least 1", True,
             _set(T + ("serverRev",), 0)),
        Case("start-instant-without-zone.trip.json", ptr(*T, "startZoneId"),
             "startInstant is set but startZoneId is null (both null or both set)", True,
             _set(T + ("startZoneId",), None)),
        Case("zone-without-start-instant.trip.json", ptr(*T, "startInstant"),
             "startZoneId is set but startInstant is null (both null or both set)", True,
             _set(T + ("startInstant",), None)),
        Case("start-instant-above-max.trip.json", ptr(*T, "startInstant"),
             f"startInstant must be at most {V1_MAX_INSTANT} (9999-12-31T23:59:59.999Z)", True,
             _set(T + ("startInstant",), V1_MAX_INSTANT + 1)),
        Case("zone-fixed-offset.trip.json", ptr(*T, "startZoneId"), "startZoneId must be an IANA id, never a fixed offset", True,
             _set(T + ("startZoneId",), "+01:00")),
        Case("title-too-long.trip.json", ptr(*T, "title"), "title must have 1 to 200 characters (201)", True,
             _set(T + ("title",), long_title[:201])),
        Case("trip-name-empty.trip.json", "/name", "name must have 1 to 200 characters (empty)", True,
             _set(("name",), "")),
        Case("item-missing-dirty.trip.json", ptr(*T), "every key of a row is required except place and note (dirty removed)", True,
             _doc_edit(remove_dirty)),
        Case("item-unknown-key.trip.json", ptr(*T, "color"), "unknown key in a row", True, _doc_edit(unknown_key)),
        Case("item-id-uppercase.trip.json", ptr(*T, "itemId"), "itemId must be a lowercase canonical UUID", True,
             _doc_edit(uppercase_id)),
        Case("deleted-at-string.trip.json", ptr("items", C, "deletedAt"),
             "deletedAt is null or an integer (epoch milliseconds), not an ISO 8601 string", True,
             _set(("items", C, "deletedAt"), deleted_at_iso)),
    ]


def _zone_known(zone: str) -> bool:
    try:
        zoneinfo.ZoneInfo(zone)
        return True
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False


def reference_check_v1(data: bytes) -> list[tuple[str, str]]:
    """Errors [(pointer, message)] for the schema 1 rules JSON Schema cannot express."""
    doc, errors, parsed = strict_json(data)
    if not parsed or not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
        return errors
    first_at: dict[str, int] = {}
    for n, row in enumerate(doc["items"]):
        if not isinstance(row, dict):
            continue
        item_id = row.get("itemId")
        if isinstance(item_id, str):
            if item_id in first_at:
                errors.append((ptr("items", n, "itemId"), f"itemId repeats /items/{first_at[item_id]}"))
            else:
                first_at[item_id] = n
        if isinstance(row.get("tripId"), str) and isinstance(doc.get("tripId"), str) and row["tripId"] != doc["tripId"]:
            errors.append((ptr("items", n, "tripId"), "row tripId differs from the file's tripId"))
        zone = row.get("startZoneId")
        if isinstance(zone, str) and len(zone) <= 64 and V1_ZONE_SHAPE.fullmatch(zone) and not _zone_known(zone):
            errors.append((ptr("items", n, "startZoneId"), "unknown zone"))
    return errors


def check_valid_v1(path: Path) -> list[str]:
    data = path.read_bytes()
    errors = reference_check_v1(data)
    problems = [f"{path}: unexpected errors {errors}"] if errors else []
    doc = json.loads(data)
    if canonical(doc) != data:
        problems.append(f"{path}: not canonical bytes")
    ids = [r["itemId"] for r in doc["items"]]
    if ids != sorted(ids):
        problems.append(f"{path}: items not ordered by itemId")
    return problems


def check_invalid_v1(path: Path, case: Case) -> list[str]:
    at = sorted({p for p, _ in reference_check_v1(path.read_bytes())})
    ok = at in ([], [case.pointer]) if case.schema else at == [case.pointer]
    return [] if ok else [f"{path}: reference reader found {at}, expected only at {case.pointer!r}"]


def check_porto_pair(alex: dict, sam: dict) -> list[str]:
    """Same server state; the only differences are deviceId and Alex's dirty row."""
    problems = []
    if [r["itemId"] for r in alex["items"]] != [r["itemId"] for r in sam["items"]]:
        problems.append("porto: the two files do not hold the same rows")
        return problems
    differing = []
    for a, s in zip(alex["items"], sam["items"]):
        diff = sorted(k for k in set(a) | set(s) if a.get(k, ABSENT) != s.get(k, ABSENT))
        if diff:
            differing.append((a["itemId"], diff, a["dirty"], s["dirty"], a["serverRev"] == s["serverRev"]))
    dirty_id = sample_uuid("v1/porto/" + PORTO_DIRTY[0])
    if differing != [(dirty_id, ["dirty", "title"], True, False, True)]:
        problems.append(f"porto: expected only the dirty row to differ (title, dirty), found {differing}")
    for key in ("schemaVersion", "tripId", "name"):
        if alex[key] != sam[key]:
            problems.append(f"porto: {key} differs")
    rows = alex["items"]
    if sum(r["deletedAt"] is not None for r in rows) != 1 or sum(r["startInstant"] is None for r in rows) != 1:
        problems.append("porto: expected exactly one deleted and one unscheduled row")
    # Every instant is a whole minute (schema 2 keeps HH:MM) and is the stated local time.
    for spec in PORTO_ROWS:
        row = spec.row()
        if row["startInstant"] is None:
            continue
        if row["startInstant"] % 60_000:
            problems.append(f"porto/{spec.name}: not a whole minute")
        if not _zone_known(spec.zone):
            problems.append(f"porto/{spec.name}: zone {spec.zone} unknown to this machine, cannot check")
            continue
        tz = zoneinfo.ZoneInfo(spec.zone)
        moment = _dt.datetime.fromtimestamp(row["startInstant"] / 1000, tz=_dt.timezone.utc).astimezone(tz)
        if moment.strftime("%Y-%m-%dT%H:%M") != spec.local:
            problems.append(f"porto/{spec.name}: {moment.isoformat()} is not local {spec.local}")
        back = _dt.datetime.fromisoformat(spec.local).replace(tzinfo=tz)  # fold=0: the earlier offset
        if int(back.timestamp()) * 1000 != row["startInstant"]:
            problems.append(f"porto/{spec.name}: local {spec.local} (earlier offset) does not map back to the instant")
    bus = next(s for s in PORTO_ROWS if s.name == "night-bus")
    tz = zoneinfo.ZoneInfo(LIS)
    first_, second_ = (_dt.datetime.fromisoformat(bus.local).replace(tzinfo=tz, fold=f) for f in (0, 1))
    if first_.utcoffset() == second_.utcoffset():
        problems.append("porto/night-bus: not in a DST overlap")
    return problems


def v1_readme(alex: dict, cases: list[Case]) -> bytes:
    by_id = {s.item_id: s for s in PORTO_ROWS}
    lines = [
        "# Schema 1 sample files (samples/v1)",
        "",
        "Generated by `python3 scripts/make-samples.py`, never edited by hand (this README too). "
        "Check them with `python3 scripts/check-schemas.py`, which validates every file in this folder "
        "against the schema of its own `schemaVersion` (`Schemas/trip.v1.schema.json`, or "
        "`Schemas/trip.v2.schema.json` for a schema 2 file such as the expected merge result).",
        "",
        "Schema 1 is the older, server-based format: each device kept the server's rows (each with "
        "the `serverRev` it last pulled) and its own unpushed edits (`dirty: true`). A start is an "
        "instant (`startInstant`, epoch milliseconds) plus the zone it is shown in (`startZoneId`). "
        "A reader validates a schema 1 file and migrates it to schema 2 (local time `YYYY-MM-DDTHH:MM` "
        "plus zone); the rules the JSON Schema cannot express are listed in its `description`.",
        "",
        "## `porto-alex.trip.json`, `porto-sam.trip.json`",
        "",
        f"One trip, \"Porto 2027\" (`tripId` {PORTO_TRIP}), as two devices last pulled it from the "
        f"server: Alex's laptop (`deviceId` {ALEX}) and Sam's laptop (`deviceId` {SAM}). Both hold the "
        "same rows with the same `serverRev`; they differ only in `deviceId` and in one row that Alex "
        "renamed locally and had not pushed. Canonical bytes (sorted keys, no whitespace, one "
        "trailing newline), rows ordered by `itemId`.",
        "",
        "| # | itemId | title (server) | startInstant (UTC) | startZoneId | local time | serverRev | notes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n, row in enumerate(alex["items"]):
        spec = by_id[row["itemId"]]
        utc = "null" if row["startInstant"] is None else f"{row['startInstant']} ({spec.start_utc.replace(' ', 'T')}Z)"
        notes = []
        if spec.name == PORTO_DIRTY[0]:
            notes.append(f"Alex's file: title \"{PORTO_DIRTY[1]}\", `dirty: true`, same serverRev; Sam's file: the server's title")
        if row["deletedAt"] is not None:
            notes.append(f"deleted: `deletedAt` {row['deletedAt']} (2026-05-29T17:42:10.512Z), in both files")
        if row["startInstant"] is None:
            notes.append("unscheduled (both null)")
        if spec.name == "night-bus":
            notes.append("DST fall-back overlap: the first 01:30 (WEST, UTC+1); the second would be 01:30Z")
        if spec.zone == CXI:
            notes.append("UTC+14: local date is a day after the UTC date")
        if spec.zone == KTM:
            notes.append("UTC+05:45")
        missing = [k for k in ("place", "note") if k not in row]
        nulls = [k for k in ("place", "note") if k in row and row[k] is None]
        if missing:
            notes.append(" and ".join(f"`{k}`" for k in missing) + " absent")
        if nulls:
            notes.append(" and ".join(f"`{k}`" for k in nulls) + " null")
        lines.append(f"| {n} | `{row['itemId']}` | {spec.title} | {utc} | {spec.zone or 'null'} | "
                     f"{spec.local or '–'} | {row['serverRev']} | {'; '.join(notes)} |")
    lines += [
        "",
        "Lisbon and Porto are on WEST (UTC+1) in June 2027, so 09:00Z is 10:00 local.",
        "",
        "## `porto-merged.expected.trip.json` (not written by this script)",
        "",
        "The expected schema 3 result of migrating and merging the two files above is generated "
        "with the Swift tool. `make-samples.py` never writes or removes it; when it exists, "
        "`check-schemas.py` validates it against the schema 2 JSON Schema (picked by its "
        "`schemaVersion`) and `make-samples.py` checks it with its schema 2 reference reader "
        "(canonical bytes, clock accounting, no warnings).",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-alex.trip.json` that each break exactly one rule. `invalid/index.json` "
        "lists each file with the JSON Pointer of the bad value, the rule, and whether the schema 1 "
        "JSON Schema can detect it (`\"schema\": true`); extra keys added to its entries (such as an "
        "expected `message`) survive regeneration.",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    for case in sorted(cases, key=lambda c: c.file):
        lines.append(f"| `{case.file}` | `{case.pointer}` | {'yes' if case.schema else 'no'} | {case.rule} |")
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_v1(written: set[Path]) -> tuple[list[str], str]:
    """Write samples/v1/; return the self-check problems and a summary line."""
    alex, sam = porto_document(ALEX), porto_document(SAM)
    write(V1_DIR / "porto-alex.trip.json", canonical(alex), written)
    write(V1_DIR / "porto-sam.trip.json", canonical(sam), written)
    remove_stale(V1_DIR, written, keep=V1_KEEP)

    invalid_dir = V1_DIR / "invalid"
    cases = v1_invalid_cases(alex)
    assert len({c.file for c in cases}) == len(cases), "duplicate sample names"
    for case in cases:
        write(invalid_dir / case.file, case.build(copy.deepcopy(alex)), written)
    remove_stale(invalid_dir, written)
    write_index(invalid_dir / "index.json", cases, written)
    write(V1_DIR / "README.md", v1_readme(alex, cases), written)

    problems: list[str] = []
    problems += check_valid_v1(V1_DIR / "porto-alex.trip.json")
    problems += check_valid_v1(V1_DIR / "porto-sam.trip.json")
    problems += check_porto_pair(alex, sam)
    for case in cases:
        problems += check_invalid_v1(invalid_dir / case.file, case)
    expected = [V1_DIR / name for name in V1_KEEP if (V1_DIR / name).exists()]
    for path in expected:  # the Swift tool's output: a schema 2 document
        problems += check_valid(path, [])
    summary = (f"samples/v1: 2 files ({len(alex['items'])} rows each), {len(cases)} invalid files + index.json"
               + (f", checked {', '.join(p.name for p in expected)}" if expected else ""))
    return problems, summary


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def write(path: Path, data: bytes, written: set[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
    written.add(path)


def remove_stale(folder: Path, written: set[Path], keep: tuple[str, ...] = ()) -> None:
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name.endswith((".trip.json", ".trip.json.gz")) and path not in written \
                and path.name not in keep:
            print(f"removing stale {path.relative_to(ROOT)}")
            path.unlink()


def write_index(index_path: Path, cases: list[Case], written: set[Path]) -> None:
    """index.json of an invalid folder; extra keys someone added to an entry are kept."""
    extras: dict[str, dict] = {}
    if index_path.exists():
        try:
            for entry in json.loads(index_path.read_text(encoding="utf-8")):
                extras[entry["file"]] = {k: v for k, v in entry.items() if k not in ("file", "pointer", "rule", "schema")}
        except (ValueError, KeyError, TypeError):
            print(f"warning: could not read the old {index_path.relative_to(ROOT)}; extra keys not kept")
    index = []
    for case in sorted(cases, key=lambda c: c.file):
        entry = {"file": case.file, "pointer": case.pointer, "rule": case.rule, "schema": case.schema}
        entry.update(extras.get(case.file, {}))
        index.append(entry)
    index_bytes = (json.dumps(index, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    write(index_path, index_bytes, written)


def main() -> int:
    written: set[Path] = set()

    main_doc = lisbon_new_york()
    main_bytes = canonical(main_doc)
    write(SAMPLES / "lisbon-new-york.trip.json", main_bytes, written)
    write(SAMPLES / "lisbon-new-york.trip.json.gz", gz(main_bytes), written)

    warn_dir = SAMPLES / "warnings"
    unknown_zone = warning_unknown_zone()
    end_before = warning_end_before_start()
    write(warn_dir / "unknown-zone.trip.json", canonical(unknown_zone), written)
    write(warn_dir / "end-before-start.trip.json", canonical(end_before), written)
    remove_stale(warn_dir, written)

    invalid_dir = SAMPLES / "invalid"
    base = base_document()
    assert not reference_check(canonical(base))[0], reference_check(canonical(base))
    cases = invalid_cases(base)
    names = [c.file for c in cases]
    assert len(names) == len(set(names)), "duplicate sample names"
    for case in cases:
        write(invalid_dir / case.file, case.build(copy.deepcopy(base)), written)
    remove_stale(invalid_dir, written)

    write_index(invalid_dir / "index.json", cases, written)

    # Self-check.
    problems: list[str] = []
    problems += check_valid(SAMPLES / "lisbon-new-york.trip.json", [])
    problems += check_valid(SAMPLES / "lisbon-new-york.trip.json.gz", [])
    summit = next(k for k, v in unknown_zone["items"].items() if v["start"]["value"].get("zone") == "Mars/Olympus_Mons")
    problems += check_valid(warn_dir / "unknown-zone.trip.json", [ptr("items", summit, "start", "value", "zone")])
    dinner = next(k for k, v in end_before["items"].items() if v["title"]["value"].startswith("Dinner"))
    problems += check_valid(warn_dir / "end-before-start.trip.json", [ptr("items", dinner, "end", "value")])
    for case in cases:
        problems += check_invalid(invalid_dir / case.file, case)
    v1_problems, v1_summary = write_v1(written)
    problems += v1_problems

    live = len(main_doc["items"])
    days = sorted({(v["start"]["value"] or {}).get("local", (v["start"]["value"] or {}).get("date", "-"))[:10]
                   for v in main_doc["items"].values() if v["start"]["value"]})
    print(f"samples/lisbon-new-york.trip.json: {live} live items, {len(main_doc['tombstones'])} tombstones, "
          f"days {', '.join(days)}, {len(main_bytes)} bytes")
    print(f"samples/warnings: 2 files; samples/invalid: {len(cases)} files + index.json")
    print(v1_summary)
    for script in ("make-samples-v3.py", "make-samples-v4.py", "make-samples-v5.py", "make-samples-v6.py", "make-samples-v7.py"):
        sys.stdout.flush()
        run = subprocess.run([sys.executable, str(ROOT / "scripts" / script)])
        if run.returncode != 0:
            problems.append(f"scripts/{script} exited with {run.returncode}")
    if problems:
        print("\nSELF-CHECK FAILED:")
        for p in problems:
            print("  " + p)
        return 1
    print("self-check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
