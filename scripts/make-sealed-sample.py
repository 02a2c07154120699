#!/usr/bin/env python3
"""Makes samples/v7/sealed/: a sealed trip file (docs/FORMAT.md, "Sealed files") built from that
section alone with PyNaCl, to pin the format against the Swift code (SealedFileTests opens it).

The document inside is samples/v6/porto-boxes-backup.trip.json, sealed by Alex's laptop (its
device key, samples/v5/README.md) with the Porto trip's epoch 2 key of samples/v6/README.md
(SHA-256 of `tripsync-sample-epoch:2`). The stream's header is random, so the file is made once
and kept; running this again makes other bytes that open to the same document.

Also `python3 scripts/make-sealed-sample.py --open FILE EPOCH_KEY_BASE64` opens any sealed file
(checks the signature, the stream and the padding) and prints the JSON inside: how the tests
check that a file the Swift code sealed opens by this page alone.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_samples_v6", ROOT / "scripts" / "make-samples-v6.py")
v6 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v6"] = v6
_spec.loader.exec_module(v6)

import nacl.bindings as b  # noqa: E402
import nacl.signing  # noqa: E402

OUT = ROOT / "samples" / "v7" / "sealed"
CHUNK = 65536
PREFIX = b'{"schemaVersion":7,"sealed":{'


def compact(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def block(length: int) -> int:
    return 256 if length < 2048 else 1 << (length.bit_length() - 1 - 3)


def associated(h: dict) -> bytes:
    return f"tripsync-sealed-file-v1\n{h['tripId']}\n{h['epoch']}\n{h['epochId']}\n{h['writer']}\n{h['format']}".encode()


def seal(gz: bytes, trip: str, writer: str, epoch: int, key: bytes, signing: nacl.signing.SigningKey) -> bytes:
    padded = b.sodium_pad(gz, block(len(gz)))
    header = {"deviceKey": base64.b64encode(bytes(signing.verify_key)).decode(), "epoch": epoch, "epochId": v6.epoch_id(key),
              "format": "gzip-json", "tripId": trip, "version": 1, "writer": writer}
    state = b.crypto_secretstream_xchacha20poly1305_state()
    stream = b.crypto_secretstream_xchacha20poly1305_init_push(state, key)
    chunks = [padded[i:i + CHUNK] for i in range(0, len(padded), CHUNK)] or [b""]
    for index, chunk in enumerate(chunks):
        last = index == len(chunks) - 1
        tag = b.crypto_secretstream_xchacha20poly1305_TAG_FINAL if last else b.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE
        stream += b.crypto_secretstream_xchacha20poly1305_push(state, chunk, associated(header), tag)
    header["length"] = len(stream)
    body = compact({"schemaVersion": 7, "sealed": header}) + b"\n" + stream
    digest = hashlib.blake2b(body, digest_size=32).digest()
    return body + signing.sign(b"tripsync-sealed-v1\n" + digest).signature


def open_sealed(data: bytes, key: bytes) -> bytes:
    if not data.startswith(PREFIX):
        raise SystemExit("not a sealed file")
    newline = data.index(b"\n")
    line = data[:newline]
    top = json.loads(line)
    if compact(top) != line or set(top) != {"schemaVersion", "sealed"}:
        raise SystemExit("/sealed: not the canonical header")
    h = top["sealed"]
    stream, signature = data[newline + 1:-64], data[-64:]
    if h["length"] != len(stream):
        raise SystemExit("/sealed/length")
    nacl.signing.VerifyKey(base64.b64decode(h["deviceKey"])).verify(
        b"tripsync-sealed-v1\n" + hashlib.blake2b(data[:-64], digest_size=32).digest(), signature)
    if v6.epoch_id(key) != h["epochId"]:
        raise SystemExit("/sealed/epochId: not this key's")
    state = b.crypto_secretstream_xchacha20poly1305_state()
    b.crypto_secretstream_xchacha20poly1305_init_pull(state, stream[:24], key)
    plain, rest, tag = b"", stream[24:], None
    while rest:
        piece, rest = rest[:CHUNK + 17], rest[CHUNK + 17:]
        message, tag = b.crypto_secretstream_xchacha20poly1305_pull(state, piece, associated(h))
        if tag == b.crypto_secretstream_xchacha20poly1305_TAG_FINAL and rest:
            raise SystemExit("data after the final chunk")
        plain += message
    if tag != b.crypto_secretstream_xchacha20poly1305_TAG_FINAL:
        raise SystemExit("cut short: no final chunk")
    return gzip.decompress(b.sodium_unpad(plain, block(len(plain))))


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--open":
        sys.stdout.buffer.write(open_sealed(Path(sys.argv[2]).read_bytes(), base64.b64decode(sys.argv[3])))
        return 0
    inside = (ROOT / "samples" / "v6" / "porto-boxes-backup.trip.json").read_bytes()
    doc = json.loads(inside)
    signing = nacl.signing.SigningKey(v6.v3.seed(v6.DEVICE_KEY[v6.ALEX]))
    key = v6.epoch_key(2)
    sealed = seal(gzip.compress(inside, mtime=0), doc["tripId"], doc["deviceId"], 2, key, signing)
    assert open_sealed(sealed, key) == inside
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "porto.sealed.trip.json.gz").write_bytes(sealed)
    (OUT / "README.md").write_text(
        "# A sealed trip file (samples/v7/sealed)\n\n"
        "Made by `python3 scripts/make-sealed-sample.py` from docs/FORMAT.md, \"Sealed files\", alone, with PyNaCl. "
        "`porto.sealed.trip.json.gz` is `samples/v6/porto-boxes-backup.trip.json` (gzip, mtime 0) padded, sealed with the "
        "Porto trip's epoch 2 key (SHA-256 of `tripsync-sample-epoch:2`, samples/v6/README.md) by Alex's laptop "
        f"(`{doc['deviceId']}`, its device key `v3/device/alex` of samples/v5/README.md), and signed by that key. "
        "The stream's header is random, so the file is made once and kept. `SealedFileTests` opens it with that key "
        "and reads the document inside; without the key, `tripsync validate` reports it SEALED.\n")
    print(f"wrote {OUT}/porto.sealed.trip.json.gz ({len(sealed)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
