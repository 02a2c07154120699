#!/usr/bin/env python3
"""Regenerate the schema 7 sample files under samples/v7/ (sealed attachment bytes).

    python3 scripts/make-samples-v7.py        (also run by scripts/make-samples.py)

Built on scripts/make-samples-v6.py, imported (and through it the earlier generators). Like them
it needs PyNaCl and, when `import nacl` fails, runs itself again with the python of .venv-samples/.

What it writes (docs/FORMAT.md, "Schema 7"), from that section alone:

    samples/v7/porto-sealed.trip.json    samples/v6/porto-boxes a day later: Alex's laptop attached a
                                         boarding pass whose bytes are sealed (blob.sealed); signed
                                         by Alex's laptop
    samples/v7/porto-sealed-backup.trip.json   the same document unsigned (a backup)
    samples/v7/blobs/<sha256>            the sealed bytes, as FOLDER/<tripId>/blobs/ holds them
    samples/v7/invalid/*.trip.json       copies that each break one schema 7 rule (re-signed)
    samples/v7/invalid/index.json        file, pointer, rule, schema, message
    samples/v7/README.md                 what the files hold

The boarding pass: 70,000 bytes made like samples/v4's blobs (a PNG's first and last bytes, SHAKE-256
of `tripsync-sample-blob:v7/tap-boarding-pass.png` between). Its key, for this sample only, is
SHA-256 of `tripsync-sample-blob-key:boarding-pass` (TripSync takes 32 random bytes). A secret
stream's header is random, so the sealed file is made once and kept: a later run reads it back,
checks that it opens to the boarding pass, and names it in the document.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_samples_v6", ROOT / "scripts" / "make-samples-v6.py")
v6 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v6"] = v6
_spec.loader.exec_module(v6)  # without PyNaCl, this runs this script again inside .venv-samples/

import nacl.bindings as nb  # noqa: E402  (importable once make-samples-v6 has found PyNaCl)

v5 = v6.v5
v4 = sys.modules["make_samples_v4"]
v3, ms = v5.v3, v5.ms
canonical, ptr, wall, write, remove_stale = ms.canonical, ms.ptr, ms.wall, ms.write, ms.remove_stale
ALEX, SAM, RITA, NAMES = v5.ALEX, v5.SAM, v5.RITA, v5.NAMES
DEVICE_KEY, Case, signed_bytes = v3.DEVICE_KEY, v3.Case, v3.signed_bytes

V7_DIR = ms.SAMPLES / "v7"
INVALID_DIR = V7_DIR / "invalid"
BLOB_DIR = V7_DIR / "blobs"
CHUNK = 65536  # plaintext bytes per chunk of the secret stream
PASS_LABEL = "v7/tap-boarding-pass.png"
PASS_SIZE = 70_000
PASS_KEY = hashlib.sha256(b"tripsync-sample-blob-key:boarding-pass").digest()
PASS_ID = ms.sample_uuid("v7/porto/boarding-pass")


def pass_bytes() -> bytes:
    return v4.blob_bytes(PASS_LABEL, "image/png", PASS_SIZE)


def associated_data(trip_id: str, plain_sha256: str) -> bytes:
    """FORMAT.md, "Schema 7": the same associated data on every chunk."""
    return f"tripsync-blob-v1\n{trip_id}\n{plain_sha256}".encode()


def sealed_size(size: int) -> int:
    return 24 + size + 17 * max(1, -(-size // CHUNK))


def seal(plain: bytes, key: bytes, data: bytes) -> bytes:
    """The header, then chunks of CHUNK bytes tagged MESSAGE, the last (0 to CHUNK bytes) FINAL."""
    state = nb.crypto_secretstream_xchacha20poly1305_state()
    out = nb.crypto_secretstream_xchacha20poly1305_init_push(state, key)
    chunks = [plain[i:i + CHUNK] for i in range(0, len(plain), CHUNK)] or [b""]
    for i, chunk in enumerate(chunks):
        tag = (nb.crypto_secretstream_xchacha20poly1305_TAG_FINAL if i == len(chunks) - 1
               else nb.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE)
        out += nb.crypto_secretstream_xchacha20poly1305_push(state, chunk, data, tag)
    return out


def open_sealed(sealed: bytes, key: bytes, data: bytes) -> bytes:
    """The plaintext, or an exception: every chunk must open, the last one tagged FINAL, none before."""
    state = nb.crypto_secretstream_xchacha20poly1305_state()
    nb.crypto_secretstream_xchacha20poly1305_init_pull(state, sealed[:24], key)
    body = sealed[24:]
    pieces = [body[i:i + CHUNK + 17] for i in range(0, len(body), CHUNK + 17)]
    plain = b""
    for i, piece in enumerate(pieces):
        message, tag = nb.crypto_secretstream_xchacha20poly1305_pull(state, piece, data)
        final = tag == nb.crypto_secretstream_xchacha20poly1305_TAG_FINAL
        if final != (i == len(pieces) - 1):
            raise ValueError("the FINAL tag is not on the last chunk")
        plain += message
    return plain


def sealed_pass(trip_id: str) -> bytes:
    """The sealed boarding pass: the kept file when there is one (and it opens), else a new one."""
    plain = pass_bytes()
    data = associated_data(trip_id, hashlib.sha256(plain).hexdigest())
    kept = sorted(BLOB_DIR.glob("*")) if BLOB_DIR.exists() else []
    if len(kept) == 1:
        sealed = kept[0].read_bytes()
        if hashlib.sha256(sealed).hexdigest() == kept[0].name and open_sealed(sealed, PASS_KEY, data) == plain:
            return sealed
    for old in kept:
        old.unlink()
    sealed = seal(plain, PASS_KEY, data)
    assert open_sealed(sealed, PASS_KEY, data) == plain and len(sealed) == sealed_size(len(plain))
    BLOB_DIR.mkdir(parents=True, exist_ok=True)
    (BLOB_DIR / hashlib.sha256(sealed).hexdigest()).write_bytes(sealed)
    return sealed


def sealed_story() -> dict:
    """porto-boxes on Monday 8 June 2026: Alex's laptop attaches the boarding pass to the first
    item; the sync that put its sealed bytes into the folder writes the four registers (four dots,
    the blob naming its sealed copy) and publishes: its acks entry is its clock."""
    doc = v6.boxes_story()
    doc["schemaVersion"] = 7
    trip_id = doc["tripId"]
    item = sorted(doc["items"])[0]
    plain = pass_bytes()
    sealed = sealed_pass(trip_id)
    blob = {"sealed": {"key": v3.b64(PASS_KEY), "sha256": hashlib.sha256(sealed).hexdigest(), "size": len(sealed)},
            "sha256": hashlib.sha256(plain).hexdigest(), "size": len(plain), "type": "image/png"}
    counter = doc["clock"][ALEX]
    registers = {}
    for i, (field, value) in enumerate((("item", item), ("blob", blob), ("name", "boarding-pass-TP201.png"),
                                         ("caption", "TP 201 Lisbon to Porto, seat 14A"))):
        counter = max(wall("2026-06-08 08:15:00") + i, counter + 1)
        registers[field] = {"rev": [counter, ALEX], "value": value}
    doc["clock"][ALEX] = counter
    doc["attachments"][PASS_ID] = dict(sorted(registers.items()))
    doc["attachments"] = dict(sorted(doc["attachments"].items()))
    doc["clock"] = dict(sorted(doc["clock"].items()))
    doc["acks"][ALEX] = dict(doc["clock"])
    return doc


def invalid_cases(doc: dict) -> list[Case]:
    v6_doc = json.loads((ms.SAMPLES / "v6" / "porto-boxes-backup.trip.json").read_bytes())
    sealed_at = ("attachments", PASS_ID, "blob", "value", "sealed")

    def change(key: str, value: Any):
        def build(d: dict) -> bytes:
            d["attachments"][PASS_ID]["blob"]["value"]["sealed"][key] = value
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    def v6_with_sealed(_: dict) -> bytes:
        d = copy.deepcopy(v6_doc)
        photo = sorted(d["attachments"])[0]
        sealed = copy.deepcopy(doc["attachments"][PASS_ID]["blob"]["value"]["sealed"])
        sealed["size"] = sealed_size(d["attachments"][photo]["blob"]["value"]["size"])  # breaks no other rule
        d["attachments"][photo]["blob"]["value"]["sealed"] = sealed
        return signed_bytes(d, DEVICE_KEY[ALEX])

    v6_photo = sorted(v6_doc["attachments"])[0]
    return [
        Case("sealed-size-not-the-stream.trip.json", ptr(*sealed_at, "size"),
             "sealed.size is exactly the secret stream's size of blob.size (one byte more here)", False,
             "expected a sealed size of", change("size", sealed_size(PASS_SIZE) + 1)),
        Case("sealed-key-31-bytes.trip.json", ptr(*sealed_at, "key"),
             "sealed.key is base64 of 32 bytes (31 here)", True, "expected a blob key as 44 characters",
             change("key", v3.b64(bytes(31)))),
        Case("sealed-in-schema-6.trip.json", ptr("attachments", v6_photo, "blob", "value", "sealed"),
             "sealed is a schema 7 key: porto-boxes (schema 6) with the boarding pass's sealed copy on a photo", True,
             "a schema 7 key in a schema 6 file", v6_with_sealed),
    ]


def readme(cases: list[Case], doc: dict) -> bytes:
    blob = doc["attachments"][PASS_ID]["blob"]["value"]
    lines = [
        "# Schema 7 sample files (samples/v7)",
        "",
        "Generated by `python3 scripts/make-samples-v7.py` (also run by `scripts/make-samples.py`), never edited "
        "by hand (this README too). Check them with `python3 scripts/check-schemas.py` "
        "(`Schemas/trip.v7.schema.json`) and `python3 scripts/check-signatures.py`. The format is docs/FORMAT.md, "
        "\"Schema 7\". Keys, seeds and device ids are those of `samples/v6/README.md`.",
        "",
        "Every trip file is canonical bytes (sorted keys, no whitespace, one trailing newline).",
        "",
        "## Valid files",
        "",
        "- `porto-sealed.trip.json`: `samples/v6/porto-boxes` on 8 June 2026, as schema 7. Alex's laptop attached "
        f"`boarding-pass-TP201.png` (attachment `{PASS_ID}`): {blob['size']} bytes made like samples/v4's blobs "
        f"(a PNG's first and last bytes, SHAKE-256 of `tripsync-sample-blob:{PASS_LABEL}` between), SHA-256 "
        f"`{blob['sha256']}`. Its `blob.sealed` names the sealed copy. Signed by Alex's laptop.",
        "- `porto-sealed-backup.trip.json`: the same document without `deviceKey` and `signature`.",
        f"- `blobs/{blob['sealed']['sha256']}`: the sealed copy, as `FOLDER/<tripId>/blobs/` holds it, made from "
        "docs/FORMAT.md \"Schema 7\" alone with PyNaCl: the secret stream of the boarding pass under the key "
        "SHA-256 of `tripsync-sample-blob-key:boarding-pass` (for this sample only: TripSync takes 32 random "
        "bytes), two chunks (65,536 bytes tagged MESSAGE, 4,464 tagged FINAL), associated data "
        "`tripsync-blob-v1\\n<tripId>\\n<the boarding pass's SHA-256>`. A stream's header is random, so the file is "
        "made once and kept; `scripts/check-signatures.py` opens it and Swift's `SealedBlobTests` fetches it "
        "from a folder into a home.",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-sealed.trip.json` that each break exactly one rule, signed again by Alex's device key "
        "after the change; `sealed-in-schema-6` is `samples/v6/porto-boxes-backup` with one schema 7 key, signed "
        "by Alex's device key. `invalid/index.json` lists each file with the JSON Pointer of the bad value, the "
        "rule, whether JSON Schema can detect it, and `message`, a substring expected in the reader's message.",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    lines += v5.case_table(cases, NAMES)
    return ("\n".join(lines) + "\n").encode("utf-8")


def main() -> int:
    written: set[Path] = set()
    doc = sealed_story()
    write(V7_DIR / "porto-sealed.trip.json", signed_bytes(doc, DEVICE_KEY[ALEX]), written)
    write(V7_DIR / "porto-sealed-backup.trip.json", canonical(doc), written)
    remove_stale(V7_DIR, written)
    cases = invalid_cases(doc)
    for case in cases:
        write(INVALID_DIR / case.file, case.build(copy.deepcopy(doc)), written)
    remove_stale(INVALID_DIR, written)
    v3.write_index(INVALID_DIR / "index.json", cases, written)
    write(V7_DIR / "README.md", readme(cases, doc), written)

    problems: list[str] = []
    for path in sorted(p for p in V7_DIR.iterdir() if p.name.endswith(".trip.json")):
        data = path.read_bytes()
        if canonical(json.loads(data)) != data:
            problems.append(f"{path.name}: not canonical bytes")
    sys.stdout.flush()
    if subprocess.run([sys.executable, str(ROOT / "scripts" / "check-signatures.py"), "--quiet"]).returncode != 0:
        problems.append("scripts/check-signatures.py failed")
    print(f"samples/v7: 2 valid files, 1 sealed blob, {len(cases)} invalid files + index.json")
    print(("SELF-CHECK FAILED (v7):" + "".join(f"\n  {p}" for p in problems)) if problems else "self-check v7: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
