#!/usr/bin/env python3
"""Sealed trip files (issue 43) read and written by an independent reader: PyNaCl and
docs/FORMAT.md's "Sealed files" (Sources/TripSyncCore/Encryption/SealedFile.swift), no TripSync.

An owned trip's device file in the shared folder, once its writer holds an epoch key, is:
one line of canonical JSON `{"schemaVersion":7,"sealed":{...}}` (deviceKey, epoch, epochId,
format, length, tripId, version, writer), a line feed, the ciphertext (libsodium's
crypto_secretstream_xchacha20poly1305 of the gzip JSON padded ISO/IEC 7816-4 style, chunks of
64 KiB, the last tagged FINAL, the associated data
`tripsync-sealed-file-v1\\n<tripId>\\n<epoch>\\n<epochId>\\n<writer>\\n<format>` on each), then
the writer's Ed25519 signature of `tripsync-sealed-v1\\n` + BLAKE2b-256(header line +
ciphertext). A member's home keeps its epoch keys in `HOME/access/<tripId>.json` ("epochs":
[{"epoch": N, "key": base64}]); a key's id is the hex of the first 16 bytes of
BLAKE2b-256(`tripsync-epoch-id-v1\\n` + key).

Used by the script suites that look inside folder files (Tests/attacks, Tests/syncthing,
Tests/clocks, Tests/killcopy, Tests/killjournal). As a command:

    python3 scripts/sealed_file.py open --home HOME FILE   # the JSON inside FILE, to stdout

prints the JSON of FILE (sealed: opened with HOME's keys; gzip: inflated; plain: as it is).
"""

import base64
import glob
import gzip
import json
import os
import sys

import nacl.bindings as sodium
import nacl.encoding
import nacl.hash
import nacl.signing

PREFIX = b'{"schemaVersion":7,"sealed":{'
CHUNK = 65536
ABYTES = sodium.crypto_secretstream_xchacha20poly1305_ABYTES
HEADERBYTES = sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES
TAG_MESSAGE = sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE
TAG_FINAL = sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL


class SealedFileError(Exception):
    """A sealed file that does not open: its header, signature or ciphertext, or no key."""


def blake2b256(data: bytes) -> bytes:
    return nacl.hash.blake2b(data, digest_size=32, encoder=nacl.encoding.RawEncoder)


def epoch_id(key: bytes) -> str:
    return blake2b256(b"tripsync-epoch-id-v1\n" + key)[:16].hex()


def is_sealed(data: bytes) -> bool:
    return data.startswith(PREFIX)


def home_keys(home: str) -> dict:
    """Every epoch key `home` holds: {(tripId, epochId): (epoch, key bytes)}."""
    keys = {}
    for path in glob.glob(os.path.join(home, "access", "*.json")):
        trip = os.path.basename(path)[: -len(".json")]
        with open(path, "rb") as f:
            record = json.load(f)
        for entry in record.get("epochs") or []:
            key = base64.b64decode(entry["key"], validate=True)
            keys[(trip, epoch_id(key))] = (entry["epoch"], key)
    return keys


def parse(data: bytes):
    """(header fields, header line with its line feed, ciphertext, signature) of a sealed file,
    its signature verified with the key its header names."""
    if not is_sealed(data):
        raise SealedFileError("not a sealed file")
    newline = data.find(b"\n", 0, 1024)
    if newline < 0:
        raise SealedFileError("no header line")
    line = data[: newline + 1]
    top = json.loads(line)
    fields = top["sealed"]
    if json.dumps(top, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n" != line:
        raise SealedFileError("the header is not canonical JSON")
    ciphertext, signature = data[newline + 1 : -64], data[-64:]
    if fields.get("length") != len(ciphertext):
        raise SealedFileError("the ciphertext's length is not the header's")
    signer = nacl.signing.VerifyKey(base64.b64decode(fields["deviceKey"], validate=True))
    try:
        signer.verify(b"tripsync-sealed-v1\n" + blake2b256(data[:-64]), signature)
    except Exception as error:  # nacl.exceptions.BadSignatureError
        raise SealedFileError(f"the signature does not verify: {error}")
    return fields, line, ciphertext, signature


def associated_data(fields: dict) -> bytes:
    return "tripsync-sealed-file-v1\n{tripId}\n{epoch}\n{epochId}\n{writer}\n{format}".format(**fields).encode()


def open_sealed(data: bytes, keys: dict) -> bytes:
    """The gzip JSON inside the sealed `data`, opened with `keys` (`home_keys`)."""
    fields, _, ciphertext, _ = parse(data)
    held = keys.get((fields["tripId"], fields["epochId"]))
    if held is None:
        raise SealedFileError(f"no key of trip {fields['tripId']} epoch {fields['epoch']} ({fields['epochId']})")
    state = sodium.crypto_secretstream_xchacha20poly1305_state()
    sodium.crypto_secretstream_xchacha20poly1305_init_pull(state, ciphertext[:HEADERBYTES], held[1])
    ad, plain, offset, tag = associated_data(fields), bytearray(), HEADERBYTES, None
    while offset < len(ciphertext):
        chunk = ciphertext[offset : offset + CHUNK + ABYTES]
        message, tag = sodium.crypto_secretstream_xchacha20poly1305_pull(state, chunk, ad)
        plain += message
        offset += len(chunk)
        if tag == TAG_FINAL and offset != len(ciphertext):
            raise SealedFileError("bytes after the final chunk")
    if tag != TAG_FINAL:
        raise SealedFileError("cut short: no final chunk")
    end = plain.rstrip(b"\x00")
    if not end.endswith(b"\x80"):
        raise SealedFileError("no padding at the end")
    return bytes(end[:-1])


def seal(gzip_json: bytes, fields: dict, key: bytes, signing_key: nacl.signing.SigningKey) -> bytes:
    """`gzip_json` padded and sealed under `key` with the header `fields` (tripId, epoch,
    epochId, writer; the rest filled in), signed by `signing_key`: a sealed file."""
    block = 256 if len(gzip_json) < 2048 else 1 << (len(gzip_json).bit_length() - 1 - 3)
    padded = gzip_json + b"\x80"
    padded += b"\x00" * ((-len(padded)) % block)
    fields = dict(fields, format="gzip-json", version=1, deviceKey=base64.b64encode(bytes(signing_key.verify_key)).decode())
    state = sodium.crypto_secretstream_xchacha20poly1305_state()
    ciphertext = bytearray(sodium.crypto_secretstream_xchacha20poly1305_init_push(state, key))
    ad, offset = associated_data(fields), 0
    while True:
        chunk = padded[offset : offset + CHUNK]
        offset += len(chunk)
        last = offset >= len(padded)
        ciphertext += sodium.crypto_secretstream_xchacha20poly1305_push(state, chunk, ad, TAG_FINAL if last else TAG_MESSAGE)
        if last:
            break
    fields["length"] = len(ciphertext)
    line = json.dumps({"schemaVersion": 7, "sealed": fields}, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    body = line + bytes(ciphertext)
    return body + signing_key.sign(b"tripsync-sealed-v1\n" + blake2b256(body)).signature


def json_bytes(data: bytes, home: str | None = None) -> bytes:
    """The JSON of a trip file's bytes: sealed (opened with `home`'s keys), gzip, or plain."""
    if is_sealed(data):
        if home is None:
            raise SealedFileError("a sealed file, and no home to open it with")
        data = open_sealed(data, home_keys(home))
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def main(argv: list[str]) -> int:
    if len(argv) != 5 or argv[1] != "open" or argv[2] != "--home":
        print("usage: sealed_file.py open --home HOME FILE", file=sys.stderr)
        return 2
    with open(argv[4], "rb") as f:
        data = f.read()
    try:
        sys.stdout.buffer.write(json_bytes(data, argv[3]))
    except SealedFileError as error:
        print(f"sealed_file.py: {argv[4]}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
