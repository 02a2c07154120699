#!/usr/bin/env python3
"""Regenerate the schema 6 sample files under samples/v6/ (a member's encryption key in its grant).

    python3 scripts/make-samples-v6.py        (also run by scripts/make-samples.py)

Deterministic: fixed ids, clocks and key seeds, no randomness, no current time. Built on
scripts/make-samples-v5.py, imported (and through it the earlier generators). Like them it needs
PyNaCl and, when `import nacl` fails, runs itself again with the python of .venv-samples/.

What it writes (docs/FORMAT.md, "Schema 6"):

    samples/v6/porto-boxes.trip.json   samples/v5/porto-zone a day later: the owner's laptop signed
                                       the three grants again with each member's X25519 encryption
                                       key (`box`, tripsync-member-v3); signed by the owner's laptop
    samples/v6/porto-boxes-backup.trip.json   the same document unsigned (a backup)
    samples/v6/invalid/*.trip.json     copies that each break one schema 6 rule (re-signed)
    samples/v6/invalid/index.json      file, pointer, rule, schema, message
    samples/v6/README.md               what the files hold
    samples/v6/keyring/<Alex's laptop>.keyring.json   the Porto trip's keyring at epoch 2, made here
                                       from docs/FORMAT.md "Keyrings" alone (PyNaCl): epoch keys
                                       SHA-256 of `tripsync-sample-epoch:<n>`, sealed to the three
                                       members' sample encryption keys

The encryption keys: the secret key of device D is SHA-256 of `tripsync-sample-box:<D's label>`,
its public key crypto_scalarmult_base of it (X25519). Self-check afterwards: valid files are
canonical and scripts/check-signatures.py (grant v3 messages included) passes.
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
_spec = importlib.util.spec_from_file_location("make_samples_v5", ROOT / "scripts" / "make-samples-v5.py")
v5 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v5"] = v5
_spec.loader.exec_module(v5)  # without PyNaCl, this runs this script again inside .venv-samples/

import nacl.bindings  # noqa: E402  (importable once make-samples-v5 has found PyNaCl)
import nacl.public  # noqa: E402

v3, ms = v5.v3, v5.ms
canonical, ptr, wall, write, remove_stale = ms.canonical, ms.ptr, ms.wall, ms.write, ms.remove_stale
ALEX, SAM, RITA, NAMES = v5.ALEX, v5.SAM, v5.RITA, v5.NAMES
DEVICE_KEY, Case, signed_bytes = v3.DEVICE_KEY, v3.Case, v3.signed_bytes

V6_DIR = ms.SAMPLES / "v6"
INVALID_DIR = V6_DIR / "invalid"
BOX_LABELS = {ALEX: "alex-laptop", SAM: "sam-laptop", RITA: "rita-phone"}


def box_secret(device: str) -> bytes:
    return hashlib.sha256(f"tripsync-sample-box:{BOX_LABELS[device]}".encode()).digest()


def box_public(device: str) -> str:
    return v3.b64(nacl.bindings.crypto_scalarmult_base(box_secret(device)))


def grant_message_v3(trip_id: str, device: str, grant: dict) -> bytes:
    """FORMAT.md, "Schema 6": a grant with an encryption key is signed over tripsync-member-v3."""
    body = {k: grant[k] for k in ("box", "key", "name", "rev", "role", "seen") if k in grant}
    body.update(device=device, tripId=trip_id)
    return b"tripsync-member-v3\n" + v3.compact(body)


def boxes_story() -> dict:
    """porto-zone on Sunday 7 June 2026: Alex's laptop (the owner's) signs each grant again with
    its member's encryption key (a new grant: a new dot, seen = the clock before it for the
    viewer) and publishes: its acks entry is its clock."""
    doc = v5.zone_story()
    doc["schemaVersion"] = 6
    trip_id = doc["tripId"]
    counter = doc["clock"][ALEX]

    def stamp(wall_ms: int) -> list:
        nonlocal counter
        counter = max(wall_ms, counter + 1)
        doc["clock"][ALEX] = counter
        return [counter, ALEX]

    for i, device in enumerate(sorted(doc["members"])):
        old = doc["members"][device]
        seen = dict(sorted(doc["clock"].items()))
        grant = {"box": box_public(device), "key": old["key"], "name": old["name"],
                 "rev": stamp(wall("2026-06-07 09:00:00") + i), "role": old["role"]}
        if grant["role"] in ("viewer", "removed"):
            grant["seen"] = seen
        grant["sig"] = v3.sign(v3.PORTO_OWNER, grant_message_v3(trip_id, device, grant))
        doc["members"][device] = grant
    doc["clock"] = dict(sorted(doc["clock"].items()))
    doc["acks"][ALEX] = dict(doc["clock"])
    return doc


def epoch_key(n: int) -> bytes:
    return hashlib.sha256(f"tripsync-sample-epoch:{n}".encode()).digest()


def epoch_id(key: bytes) -> str:
    """FORMAT.md, "Keyrings": the first 16 bytes of BLAKE2b-256 of the prefix and the key, hex."""
    return hashlib.blake2b(b"tripsync-epoch-id-v1\n" + key, digest_size=32).digest()[:16].hex()


def keyring(doc: dict, epoch: int) -> bytes:
    """The keyring Alex's laptop writes at `epoch`: that epoch's key sealed to each member's box,
    the earlier keys in the history (one FINAL chunk of the secret stream), owner-signed."""
    trip_id = doc["tripId"]
    current = epoch_key(epoch)
    body = {"epoch": epoch, "epochId": epoch_id(current), "tripId": trip_id, "type": "tripsync-keyring", "version": 1,
            "writer": ALEX}
    body["sealed"] = {device: v3.b64(nacl.public.SealedBox(nacl.public.PublicKey(nacl.bindings.crypto_scalarmult_base(
        box_secret(device)))).encrypt(current)) for device in sorted(doc["members"])}
    history = v3.compact({"epochs": [{"epoch": n, "key": v3.b64(epoch_key(n))} for n in range(1, epoch)]})
    state = nacl.bindings.crypto_secretstream_xchacha20poly1305_state()
    header = nacl.bindings.crypto_secretstream_xchacha20poly1305_init_push(state, current)
    data = f"tripsync-keyring-history-v1\n{trip_id}\n{epoch}\n{body['epochId']}".encode()
    body["history"] = v3.b64(header + nacl.bindings.crypto_secretstream_xchacha20poly1305_push(
        state, history, data, nacl.bindings.crypto_secretstream_xchacha20poly1305_TAG_FINAL))
    body["sig"] = v3.sign(v3.PORTO_OWNER, b"tripsync-keyring-v1\n" + v3.compact(body))
    return canonical(body)


def invalid_cases(doc: dict) -> list[Case]:
    v5_doc = json.loads((ms.SAMPLES / "v5" / "porto-zone-backup.trip.json").read_bytes())

    def change(device: str, value: Any, resign: bool):
        def build(d: dict) -> bytes:
            d["members"][device]["box"] = value
            if resign:
                grant = d["members"][device]
                grant["sig"] = v3.sign(v3.PORTO_OWNER, grant_message_v3(d["tripId"], device, grant))
            return signed_bytes(d, DEVICE_KEY[ALEX])
        return build

    def v5_with_box(_: dict) -> bytes:
        d = copy.deepcopy(v5_doc)
        d["members"][ALEX]["box"] = box_public(ALEX)
        return signed_bytes(d, DEVICE_KEY[ALEX])

    return [
        Case("grant-box-31-bytes.trip.json", ptr("members", SAM, "box"),
             "a grant's box is base64 of 32 bytes (31 here), signed again", True, "expected an X25519 encryption key",
             change(SAM, v3.b64(bytes(31)), resign=True)),
        Case("grant-box-not-signed.trip.json", ptr("members", SAM, "sig"),
             "a grant's box is covered by the owner's signature (tripsync-member-v3): Sam's box replaced by Rita's "
             "after the owner signed", False, "not signed by the trip's owner key", change(SAM, box_public(RITA), resign=False)),
        Case("grant-box-in-schema-5.trip.json", ptr("members", ALEX, "box"),
             "a grant's box is a schema 6 key: porto-zone (schema 5) with a box in Alex's grant", True,
             "a schema 6 key in a schema 5 file", v5_with_box),
    ]


def readme(cases: list[Case]) -> bytes:
    lines = [
        "# Schema 6 sample files (samples/v6)",
        "",
        "Generated by `python3 scripts/make-samples-v6.py` (also run by `scripts/make-samples.py`), never edited "
        "by hand (this README too). Check them with `python3 scripts/check-schemas.py` "
        "(`Schemas/trip.v6.schema.json`) and `python3 scripts/check-signatures.py`. The format is docs/FORMAT.md, "
        "\"Schema 6\". Keys, seeds and device ids are those of `samples/v5/README.md`; the X25519 secret key of "
        "each device is SHA-256 of `tripsync-sample-box:<label>` (" +
        ", ".join(f"`{BOX_LABELS[d]}` for {NAMES[d]}" for d in sorted(BOX_LABELS)) + "), its public key "
        "`crypto_scalarmult_base` of it.",
        "",
        "Every file is canonical bytes (sorted keys, no whitespace, one trailing newline).",
        "",
        "## Valid files",
        "",
        "- `porto-boxes.trip.json`: `samples/v5/porto-zone` on 7 June 2026, as schema 6. Alex's laptop (it holds "
        "the owner key) signed the three grants again with each member's encryption key (`/members/<id>/box`; each "
        "a new grant, signed over `tripsync-member-v3`). Signed by Alex's laptop.",
        "- `porto-boxes-backup.trip.json`: the same document without `deviceKey` and `signature`.",
        f"- `keyring/{ALEX}.keyring.json`: the Porto trip's keyring as Alex's laptop writes it at epoch 2 "
        "(docs/FORMAT.md, \"Keyrings\"), made from that page alone with PyNaCl: epoch key n is SHA-256 of "
        "`tripsync-sample-epoch:<n>`, sealed to each member's encryption key above, epoch 1 in the history, "
        "signed by the owner key. Sealed boxes and stream headers are random, so the file is made once and kept; "
        "`scripts/check-signatures.py` opens it with each member's key and Swift's `KeyringTests` reads it.",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-boxes.trip.json` that each break exactly one rule, signed again by Alex's device key after "
        "the change; `grant-box-in-schema-5` is `samples/v5/porto-zone-backup` with one schema 6 key, signed by "
        "Alex's device key. `invalid/index.json` lists each file with the JSON Pointer of the bad value, the rule, "
        "whether JSON Schema can detect it, and `message`, a substring expected in the reader's message.",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    lines += v5.case_table(cases, NAMES)
    return ("\n".join(lines) + "\n").encode("utf-8")


def main() -> int:
    written: set[Path] = set()
    doc = boxes_story()
    write(V6_DIR / "porto-boxes.trip.json", signed_bytes(doc, DEVICE_KEY[ALEX]), written)
    write(V6_DIR / "porto-boxes-backup.trip.json", canonical(doc), written)
    remove_stale(V6_DIR, written)
    cases = invalid_cases(doc)
    for case in cases:
        write(INVALID_DIR / case.file, case.build(copy.deepcopy(doc)), written)
    remove_stale(INVALID_DIR, written)
    v3.write_index(INVALID_DIR / "index.json", cases, written)
    write(V6_DIR / "README.md", readme(cases), written)
    keyring_path = V6_DIR / "keyring" / f"{ALEX}.keyring.json"
    # Sealed boxes and stream headers are random: written once, then kept (the checks verify
    # any such file), so the sample does not change at every run.
    if not keyring_path.exists():
        keyring_path.parent.mkdir(parents=True, exist_ok=True)
        keyring_path.write_bytes(keyring(doc, 2))

    problems: list[str] = []
    for path in sorted(p for p in V6_DIR.iterdir() if p.name.endswith(".trip.json")):
        data = path.read_bytes()
        if canonical(json.loads(data)) != data:
            problems.append(f"{path.name}: not canonical bytes")
    sys.stdout.flush()
    if subprocess.run([sys.executable, str(ROOT / "scripts" / "check-signatures.py"), "--quiet"]).returncode != 0:
        problems.append("scripts/check-signatures.py failed")
    print(f"samples/v6: 2 valid files, {len(cases)} invalid files + index.json")
    print(("SELF-CHECK FAILED (v6):" + "".join(f"\n  {p}" for p in problems)) if problems else "self-check v6: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
