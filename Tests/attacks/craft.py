#!/usr/bin/env python3
"""Craft the attack files of issue 26 (findings 2, 3 and 4) and issue 41 from docs/FORMAT.md alone, with PyNaCl.

    craft.py join      --code CODE --device UUID --name NAME -o FILE
        A join request answering the invite CODE for device UUID, signed by a NEW key (a removed
        or demoted member asking again with its old device id and its used invite).
    craft.py other-owner  --from FILE -o FILE [--note TEXT]
        A copy of the signed trip file FILE naming another owner key (one whose bytes sort first),
        same trip id: the claim, every grant and the file signature are made with new keys, so the
        file is valid by every signature; an item titled TEXT is added by the forger's device.
    craft.py downgrade --from FILE -o FILE [--note TEXT]
        A schema 2 copy of FILE (no owner, no members, no signature), an item titled TEXT added
        under the id of a member device of FILE (not the writer), as an older build would write it.
    craft.py claim     --from FILE -o FILE [--device UUID] [--name NAME]
        A file for the open trip of FILE that claims it for a new owner key, written by a new
        device (the folder's host) that grants itself the owner role; signed by its own key.
    craft.py reseal    --from FILE --home HOME -o FILE [--note TEXT]
        (issue 43) The sealed file FILE, opened with the keys of HOME (a member), an item titled
        TEXT added by FILE's writer, sealed again with the same epoch key under the same writer,
        and signed by HOME's own device key: a member writing in another member's name.
    craft.py fake-succession --from FILE --to UUID -o FILE
        (issue 41) An unsigned copy of FILE, under a new device id (the folder's host has no key),
        whose succession for device UUID (a restored laptop's new id) names a new key with a
        signature of 64 0xFF bytes: it sorts above any real one, and verifies against nothing.

Every file is canonical JSON (sorted keys, no spaces), gzip when FILE ends in .gz. Prints, on
stdout, one JSON object with what a test needs (keys' fingerprints, device ids). A --from FILE
that is sealed (issue 43: an owned trip's file once its writer holds an epoch key) is opened
with the epoch keys of the home given by --home HOME (scripts/sealed_file.py, PyNaCl): the
forger is handed what a member reads, so each attack stays the strongest one on a sealed trip.
"""

from __future__ import annotations

import argparse
import base64
import copy
import gzip
import hashlib
import json
import os
import sys
import time
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))

try:
    from nacl.encoding import RawEncoder
    from nacl.hash import blake2b
    from nacl.signing import SigningKey

    import sealed_file
except ImportError:  # the runner installs it (.ci/run: python3 -m pip install pynacl)
    sys.exit("craft.py needs PyNaCl: python3 -m pip install pynacl")


def canonical(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def blake(data: bytes, key: bytes = b"") -> bytes:
    return blake2b(data, digest_size=32, key=key, encoder=RawEncoder)


def fingerprint(raw_key: bytes) -> str:
    # The project's fingerprint: the first 8 bytes of SHA-256 of the key, in groups of 2 bytes.
    digest = hashlib.sha256(raw_key).hexdigest()[:16]
    return " ".join(digest[i:i + 4] for i in range(0, 16, 4))


def read_json(path: str, home: str | None = None) -> dict:
    """The JSON of the trip file at `path`: sealed (opened with `home`'s keys), gzip or plain."""
    return json.loads(sealed_file.json_bytes(open(path, "rb").read(), home))


def write(path: str, data: bytes) -> None:
    if path.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    with open(path, "wb") as out:
        out.write(data)


def signed_file(doc: dict, device_key: SigningKey) -> bytes:
    """The file's bytes signed by device_key (FORMAT.md: BLAKE2b-256 of the bytes with the
    signature's 88 characters zeroed, signed after "tripsync-file-v1\\n")."""
    doc = dict(doc)
    doc["deviceKey"] = b64(bytes(device_key.verify_key))
    doc["signature"] = "0" * 88
    data = canonical(doc)
    assert data.count(b'"' + b"0" * 88 + b'"') == 1
    signature = device_key.sign(b"tripsync-file-v1\n" + blake(data)).signature
    return data.replace(b"0" * 88, b64(signature).encode(), 1)


def grant(owner: SigningKey, trip: str, device: str, key: bytes, role: str, rev: list, seen: dict | None) -> dict:
    fields = {"device": device, "key": b64(key), "rev": rev, "role": role, "tripId": trip}
    if seen is not None:
        fields["seen"] = seen
    sig = owner.sign(b"tripsync-member-v1\n" + canonical(fields)).signature
    out = {"key": b64(key), "rev": rev, "role": role, "sig": b64(sig)}
    if seen is not None:
        out["seen"] = seen
    return out


def claim(owner: SigningKey, trip: str) -> dict:
    key = b64(bytes(owner.verify_key))
    return {"claim": b64(owner.sign(f"tripsync-owner-v1\n{trip}\n{key}".encode()).signature), "key": key}


def now_ms(doc: dict) -> int:
    return max([int(time.time() * 1000)] + [int(v) for v in doc.get("clock", {}).values()]) + 1


def new_item(title: str, device: str, counter: int) -> dict:
    def reg(value, k):
        return {"rev": [counter + k, device], "value": value}
    return {"end": reg(None, 3), "note": reg(None, 5), "place": reg(None, 4), "sortKey": reg("z", 1),
            "start": reg({"date": "2027-06-11"}, 2), "title": reg(title, 0)}


def cmd_join(args) -> dict:
    body = args.code.strip()
    assert body.startswith("tsi1.")
    raw = base64.urlsafe_b64decode(body[5:] + "=" * (-len(body[5:]) % 4))
    trip = str(uuid.UUID(bytes=raw[0:16]))
    secret = raw[49:65]
    invite = blake(secret)[:16].hex()
    key = SigningKey.generate()
    pub = b64(bytes(key.verify_key))
    mac = blake(f"tripsync-join-v1\n{trip}\n{args.device}\n{pub}\n{args.name}".encode(), key=secret)
    request = {"device": args.device, "invite": invite, "key": pub, "mac": b64(mac), "name": args.name,
               "requestedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "tripId": trip,
               "type": "tripsync-join", "version": 1}
    request["sig"] = b64(key.sign(b"tripsync-join-v1\n" + canonical(request)).signature)
    write(args.output, canonical(request) + b"\n")
    return {"trip": trip, "device": args.device, "key": pub, "fingerprint": fingerprint(bytes(key.verify_key))}


def cmd_other_owner(args) -> dict:
    doc = read_json(args.source, args.home)
    real = base64.b64decode(doc["owner"]["key"])
    while True:  # a key that sorts first: a merge of both claims would pick it
        owner = SigningKey.generate()
        if bytes(owner.verify_key) < real:
            break
    device_key = SigningKey.generate()
    device = str(uuid.uuid4())
    trip = doc["tripId"]
    counter = now_ms(doc)
    doc.pop("deviceKey", None)
    doc.pop("signature", None)
    doc["owner"] = claim(owner, trip)
    members = {}
    for member, old in doc["members"].items():
        members[member] = grant(owner, trip, member, base64.b64decode(old["key"]), old["role"], old["rev"], old.get("seen"))
    members[device] = grant(owner, trip, device, bytes(device_key.verify_key), "owner", [counter, device], None)
    doc["members"] = members
    doc["items"][str(uuid.uuid4())] = new_item(args.note, device, counter + 1)
    doc["devices"][device] = {"name": {"rev": [counter + 10, device], "value": "Forged backup"}}
    doc["clock"][device] = counter + 10
    doc["deviceId"] = device
    doc["acks"] = {}
    write(args.output, signed_file(doc, device_key))
    return {"trip": trip, "ownerFingerprint": fingerprint(bytes(owner.verify_key)), "realOwnerFingerprint": fingerprint(real),
            "device": device}


def cmd_downgrade(args) -> dict:
    doc = read_json(args.source, args.home)
    members = sorted(d for d in doc.get("clock", {}) if d != doc["deviceId"]) or [doc["deviceId"]]
    victim = members[0]
    counter = now_ms(doc)
    for key in ("owner", "members", "deviceKey", "signature", "attachments"):
        doc.pop(key, None)
    doc["schemaVersion"] = 2
    doc["items"][str(uuid.uuid4())] = new_item(args.note, victim, counter)
    doc["clock"][victim] = counter + 5
    write(args.output, canonical(doc))
    return {"trip": doc["tripId"], "attributedTo": victim}


def cmd_claim(args) -> dict:
    doc = read_json(args.source, args.home)
    assert doc.get("owner") is None, "the source trip is already owned"
    owner = SigningKey.generate()
    device_key = SigningKey.generate()
    device = args.device or str(uuid.uuid4())
    trip = doc["tripId"]
    counter = now_ms(doc)
    doc.pop("deviceKey", None)
    doc.pop("signature", None)
    doc["owner"] = claim(owner, trip)
    doc["members"] = {device: grant(owner, trip, device, bytes(device_key.verify_key), "owner", [counter, device], None)}
    doc["devices"][device] = {"name": {"rev": [counter + 1, device], "value": args.name}}
    doc["clock"][device] = counter + 1
    doc["deviceId"] = device
    write(args.output, signed_file(doc, device_key))
    return {"trip": trip, "ownerFingerprint": fingerprint(bytes(owner.verify_key)), "device": device}


def cmd_fake_succession(args) -> dict:
    doc = read_json(args.source, args.home)
    real = doc.get("successions", {}).get(args.to)
    assert real is not None, "the source file holds no succession for that device"
    for key in ("deviceKey", "signature"):
        doc.pop(key, None)
    device = str(uuid.uuid4())
    doc["deviceId"] = device
    doc["successions"][args.to] = {"from": real["from"], "key": b64(bytes(SigningKey.generate().verify_key)),
                                   "signature": b64(b"\xff" * 64)}
    write(args.output, canonical(doc))
    return {"trip": doc["tripId"], "device": device, "from": real["from"]}


def cmd_reseal(args) -> dict:
    data = open(args.source, "rb").read()
    fields, _, _, _ = sealed_file.parse(data)
    keys = sealed_file.home_keys(args.home)
    doc = json.loads(gzip.decompress(sealed_file.open_sealed(data, keys)))
    writer = doc["deviceId"]
    counter = now_ms(doc)
    doc["items"][str(uuid.uuid4())] = new_item(args.note, writer, counter)
    doc["clock"][writer] = counter + 5
    with open(f"{args.home}/device.key") as f:
        signer = SigningKey(base64.b64decode(json.load(f)["seed"]))
    gzip_json = gzip.compress(canonical(doc), mtime=0)
    header = {k: fields[k] for k in ("tripId", "epoch", "epochId", "writer")}
    epoch_key = keys[(fields["tripId"], fields["epochId"])][1]
    with open(args.output, "wb") as out:
        out.write(sealed_file.seal(gzip_json, header, epoch_key, signer))
    return {"trip": doc["tripId"], "writer": writer, "signer": fingerprint(bytes(signer.verify_key))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    join = sub.add_parser("join")
    join.add_argument("--code", required=True)
    join.add_argument("--device", required=True)
    join.add_argument("--name", default="Laptop B")
    join.add_argument("-o", dest="output", required=True)
    for name in ("other-owner", "downgrade"):
        p = sub.add_parser(name)
        p.add_argument("--from", dest="source", required=True)
        p.add_argument("--home", help="a member's home: opens a sealed --from FILE with its keys")
        p.add_argument("--note", default="Planted by the forger")
        p.add_argument("-o", dest="output", required=True)
    p = sub.add_parser("claim")
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("--home", help="a member's home: opens a sealed --from FILE with its keys")
    p.add_argument("--device")
    p.add_argument("--name", default="Folder host")
    p.add_argument("-o", dest="output", required=True)
    p = sub.add_parser("reseal")
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("--home", required=True, help="the member's home whose keys open FILE and sign the copy")
    p.add_argument("--note", default="Planted by another member")
    p.add_argument("-o", dest="output", required=True)
    p = sub.add_parser("fake-succession")
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("--home", help="a member's home: opens a sealed --from FILE with its keys")
    p.add_argument("--to", required=True)
    p.add_argument("-o", dest="output", required=True)
    args = parser.parse_args()
    result = {"join": cmd_join, "other-owner": cmd_other_owner, "downgrade": cmd_downgrade, "claim": cmd_claim,
              "reseal": cmd_reseal, "fake-succession": cmd_fake_succession}[args.command](args)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
