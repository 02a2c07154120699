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
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_samples_v6", ROOT / "scripts" / "make-samples-v6.py")
v6 = importlib.util.module_from_spec(_spec)
sys.modules["make_samples_v6"] = v6
_spec.loader.exec_module(v6)

import nacl.signing  # noqa: E402

_spec2 = importlib.util.spec_from_file_location("sealed_file", ROOT / "scripts" / "sealed_file.py")
sealed_file = importlib.util.module_from_spec(_spec2)
_spec2.loader.exec_module(sealed_file)

OUT = ROOT / "samples" / "v7" / "sealed"


def seal(gz: bytes, trip: str, writer: str, epoch: int, key: bytes, signing: nacl.signing.SigningKey) -> bytes:
    """scripts/sealed_file.py's seal, written from docs/FORMAT.md alone (no TripSync code)."""
    return sealed_file.seal(gz, {"tripId": trip, "writer": writer, "epoch": epoch, "epochId": v6.epoch_id(key)}, key, signing)


def open_sealed(data: bytes, key: bytes) -> bytes:
    """The JSON inside `data`, opened with `key` (signature, stream, padding, then gunzip)."""
    fields = sealed_file.parse(data)[0]
    return gzip.decompress(sealed_file.open_sealed(data, {(fields["tripId"], v6.epoch_id(key)): (fields["epoch"], key)}))


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
