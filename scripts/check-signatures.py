#!/usr/bin/env python3
"""Check the schema 3 and 4 samples' keys and signatures, independently of the scripts that made them.

    python3 scripts/check-signatures.py [--quiet]

Implements, from docs/FORMAT.md ("Schema 3: members, owner and signed files") alone, the rules
JSON Schema cannot express, plus the decoding of keys and signatures:

- every key (owner.key, a grant's key, deviceKey) is 44 characters of standard base64 that
  decode to 32 bytes and encode back to the same text; every sig decodes to 64 bytes and encodes back to the same text (FORMAT.md
  says so of keys only; the Swift reader requires it of both);
- owner.claim verifies with owner.key over "tripsync-owner-v1\\n<tripId>\\n<key>"  (/owner/claim);
- every grant's sig verifies with owner.key over "tripsync-member-v1\\n" + the canonical JSON of
  {device, key, rev, role, seen (when present), tripId}  (/members/<id>/sig);
  members is empty when owner is null  (/members);
- a grant's rev is covered by the clock (/members/<id>/rev) and so is every seen entry
  (/members/<id>/seen/<device>);
- deviceKey and signature come together, the signature's value is written as 88 plain
  characters, and it verifies with deviceKey over "tripsync-file-v1\\n" + BLAKE2b-256 of the
  file's JSON bytes (after gunzip) with those 88 characters replaced by ASCII zeros (/signature).
  The value is found by scanning the bytes for the top-level member "signature" (any layout).

Schema 4 (attachments) adds no signature rule: the same rules hold, over the file's bytes.

Schema 5 ("Schema 5" in FORMAT.md): a grant with a name is signed over "tripsync-member-v2\\n" +
the canonical JSON of {device, key, name, rev, role, seen (when present), tripId}; a succession
(successions/<new id>) has from != new id, a 32-byte key and a 64-byte signature, and, when
`from` has a grant, its signature verifies with that grant's key over
"tripsync-succession-v1\\n" + the canonical JSON of {from, key, to, tripId}
(/successions/<id>/signature); a trip's zone dot is covered by the clock (/trip/zone/rev).

Schema 6 ("Schema 6" in FORMAT.md): a grant with an encryption key (box, 44 characters of base64
of 32 bytes) is signed over "tripsync-member-v3\n" + the canonical JSON of {box, device, key,
name (when present), rev, role, seen (when present), tripId}.

Keyrings ("Keyrings" in FORMAT.md), samples/v6/keyring/*.keyring.json: exactly the listed keys,
the owner key's signature over "tripsync-keyring-v1\n" + the canonical JSON of the rest, and,
with each member's sample encryption secret (SHA-256 of "tripsync-sample-box:<label>",
samples/v6/README.md), its sealed key opened (crypto_box_seal), its id checked against epochId
(the first 16 bytes of BLAKE2b-256 of "tripsync-epoch-id-v1\n" + key), and the history opened
with it (the secret stream, its associated data, the final tag on the last chunk).

Then:
- every valid sample in samples/v3/, samples/v4/, samples/v4/warnings/, samples/v5/ and samples/v6/ has no such error (and
  the .gz holds the same JSON bytes as the plain file of the same name); it prints who signed and
  whether the trip id is derived from the owner key (required for the porto-* files, which were
  made by `new`);
- every entry of samples/v3/invalid/index.json: with "schema": false this checker finds an
  error at exactly the entry's pointer and nowhere else; with "schema": true (the JSON Schema
  sees it, scripts/check-schemas.py) it finds errors at most at the entry's pointer;
- every entry of samples/v4/invalid/index.json breaks a rule of attachments or of versions,
  none of this checker's: it finds no error at all (each file was signed again after its change).

Needs PyNaCl: run with the python of .venv-samples/ (made by scripts/make-samples-v3.py); when
`import nacl` fails, it makes that environment the same way and runs itself again inside it.
Ends with "N passed, M failed"; exits 1 on any failure.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-samples"
PYNACL = "pynacl==1.6.2"
V3 = ROOT / "samples" / "v3"
V4 = ROOT / "samples" / "v4"
V5 = ROOT / "samples" / "v5"
V6 = ROOT / "samples" / "v6"
V7 = ROOT / "samples" / "v7"
# Folders of valid samples, and invalid folders with whether their index holds signature rules
# (True: every schema:false entry is this checker's; False: none is; "some": each entry's
# errors lie at most at its pointer, and the entries of SIGNATURE_CASES must be found there).
VALID = [V3, V4, V4 / "warnings", V5, V6, V7]
INVALID = [(V3 / "invalid", True), (V4 / "invalid", False), (V5 / "invalid", "some"), (V6 / "invalid", "some"), (V7 / "invalid", False)]
SIGNATURE_CASES = {"grant-name-not-signed.trip.json", "grant-box-not-signed.trip.json"}


def ensure_pynacl() -> None:
    try:
        import nacl.signing  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TRIPSYNC_SAMPLES_VENV") == "1":
        sys.exit(f"PyNaCl is still missing in {VENV}")
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import nacl.signing"], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYNACL],
                       check=True)
    env = dict(os.environ, TRIPSYNC_SAMPLES_VENV="1")
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


ensure_pynacl()

from nacl.exceptions import BadSignatureError  # noqa: E402
from nacl.signing import VerifyKey  # noqa: E402
import nacl.bindings  # noqa: E402
import nacl.public  # noqa: E402

# --------------------------------------------------------------------------------------------
# Bytes: find the top-level "signature" value in any JSON layout
# --------------------------------------------------------------------------------------------

WS = b" \t\r\n"


def _skip_ws(data: bytes, i: int) -> int:
    while i < len(data) and data[i] in WS:
        i += 1
    return i


def _string_end(data: bytes, i: int) -> int:
    assert data[i] == 0x22
    i += 1
    while data[i] != 0x22:
        i += 2 if data[i] == 0x5C else 1
    return i + 1


def _value_end(data: bytes, i: int) -> int:
    if data[i] == 0x22:
        return _string_end(data, i)
    if data[i] in b"{[":
        depth = 0
        while True:
            c = data[i]
            if c == 0x22:
                i = _string_end(data, i)
                continue
            if c in b"{[":
                depth += 1
            elif c in b"}]":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
    while i < len(data) and data[i] not in b",}]" + WS:
        i += 1
    return i


def top_level_members(data: bytes):
    """(key, value start, value end) of each member of the top-level object, in file order."""
    i = _skip_ws(data, 0)
    assert data[i] == 0x7B
    i = _skip_ws(data, i + 1)
    if data[i] == 0x7D:
        return
    while True:
        start = i
        i = _string_end(data, i)
        key = json.loads(data[start:i])
        i = _skip_ws(data, i)
        assert data[i] == 0x3A
        i = _skip_ws(data, i + 1)
        value_start = i
        i = _value_end(data, i)
        yield key, value_start, i
        i = _skip_ws(data, i)
        if data[i] == 0x2C:
            i = _skip_ws(data, i + 1)
            continue
        assert data[i] == 0x7D
        return


# --------------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------------


def pointer(*parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def message_json(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def derived_trip_id(key: bytes) -> str:
    raw = bytearray(hashlib.sha256(key).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x80
    raw[8] = (raw[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(raw)))


def json_bytes(data: bytes) -> bytes:
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def check(data: bytes) -> tuple[list[tuple[str, str]], dict]:
    """Errors [(pointer, message)] of the schema 3 signature and membership rules, and facts."""
    data = json_bytes(data)
    doc = json.loads(data)
    errors: list[tuple[str, str]] = []
    facts: dict = {}
    clock = doc.get("clock") if isinstance(doc.get("clock"), dict) else {}

    def key_of(text, where: str) -> bytes | None:
        try:
            raw = base64.b64decode(text, validate=True) if isinstance(text, str) else None
        except ValueError:
            raw = None
        if raw is None or len(text) != 44 or len(raw) != 32 or base64.b64encode(raw).decode() != text:
            errors.append((where, "key is not standard base64 of 32 bytes (44 characters, encoding back to itself)"))
            return None
        return raw

    def sig_of(text, where: str) -> bytes | None:
        try:
            raw = base64.b64decode(text, validate=True) if isinstance(text, str) else None
        except ValueError:
            raw = None
        if raw is None or len(text) != 88 or len(raw) != 64 or base64.b64encode(raw).decode() != text:
            errors.append((where, "sig is not standard base64 of 64 bytes (88 characters, encoding back to itself)"))
            return None
        return raw

    def verify(key: bytes | None, message: bytes, sig: bytes | None, where: str, what: str) -> None:
        if key is None or sig is None:
            return
        try:
            VerifyKey(key).verify(message, sig)
        except BadSignatureError:
            errors.append((where, f"{what} does not verify"))

    trip_id = doc.get("tripId")
    owner = doc.get("owner")
    members = doc.get("members") if isinstance(doc.get("members"), dict) else {}
    owner_key = None
    if owner is None:
        if members:
            errors.append(("/members", "members must be empty when owner is null"))
    elif isinstance(owner, dict):
        owner_key = key_of(owner.get("key"), "/owner/key")
        claim = sig_of(owner.get("claim"), "/owner/claim")
        verify(owner_key, f"tripsync-owner-v1\n{trip_id}\n{owner.get('key')}".encode("utf-8"), claim,
               "/owner/claim", "owner.claim")
        if owner_key is not None:
            facts["derived"] = derived_trip_id(owner_key) == trip_id
    if owner is not None:
        for device, grant in members.items():
            where = pointer("members", device)
            if not isinstance(grant, dict):
                continue
            key_of(grant.get("key"), where + "/key")
            body = {k: grant[k] for k in ("box", "key", "name", "rev", "role", "seen") if k in grant}
            body.update(device=device, tripId=trip_id)
            version = doc.get("schemaVersion") if type(doc.get("schemaVersion")) is int else 0
            # A name is part of the grant (and of its message) from schema 5 on only, a box from schema 6.
            named = "name" in grant and version >= 5
            boxed = "box" in grant and version >= 6
            if not named:
                body.pop("name", None)
            if not boxed:
                body.pop("box", None)
            if boxed:
                key_of(grant.get("box"), where + "/box")
            prefix = b"tripsync-member-v3\n" if boxed else b"tripsync-member-v2\n" if named else b"tripsync-member-v1\n"
            verify(owner_key, prefix + message_json(body), sig_of(grant.get("sig"), where + "/sig"),
                   where + "/sig", "the grant's sig")
            rev = grant.get("rev")
            if isinstance(rev, list) and len(rev) == 2 and type(rev[0]) is int and isinstance(rev[1], str):
                if rev[0] > clock.get(rev[1], 0):
                    errors.append((where + "/rev", "grant rev above the clock"))
            seen = grant.get("seen")
            for dev, counter in (seen.items() if isinstance(seen, dict) else ()):
                if type(counter) is int and (dev not in clock or counter > clock[dev]):
                    errors.append((where + pointer("seen", dev), "seen entry above the clock"))

    zone = doc.get("trip", {}).get("zone") if isinstance(doc.get("trip"), dict) else None
    if isinstance(zone, dict):
        for index, version in enumerate([zone, *zone.get("conflicts", [])]):
            rev = version.get("rev")
            if isinstance(rev, list) and len(rev) == 2 and type(rev[0]) is int and rev[0] > clock.get(rev[1], 0):
                where = "/trip/zone/rev" if index == 0 else f"/trip/zone/conflicts/{index - 1}/rev"
                errors.append((where, "trip zone rev above the clock"))
    successions = doc.get("successions") if isinstance(doc.get("successions"), dict) else {}
    for new, succession in successions.items():
        where = pointer("successions", new)
        if not isinstance(succession, dict):
            continue
        if succession.get("from") == new:
            errors.append((where + "/from", "a succession from a device to itself"))
            continue
        new_key = key_of(succession.get("key"), where + "/key")
        signature = sig_of(succession.get("signature"), where + "/signature")
        old_grant = members.get(succession.get("from")) if isinstance(members, dict) else None
        if new_key is not None and isinstance(old_grant, dict):
            old_key = key_of(old_grant.get("key"), pointer("members", succession.get("from"), "key"))
            message = b"tripsync-succession-v1\n" + message_json(
                {"from": succession.get("from"), "key": succession.get("key"), "to": new, "tripId": trip_id})
            verify(old_key, message, signature, where + "/signature", "the succession's signature")
            facts.setdefault("notes", []).append(f"succession {succession.get('from')} -> {new} signed by the old device's key")

    has_key, has_sig = "deviceKey" in doc, "signature" in doc
    if has_key != has_sig:
        errors.append(("/signature", "deviceKey and signature come together"))
    elif has_sig:
        device_key = key_of(doc["deviceKey"], "/deviceKey")
        spans = [(s, e) for k, s, e in top_level_members(data) if k == "signature"]
        assert len(spans) == 1, "duplicate top-level signature"
        start, end = spans[0]
        token = data[start:end]
        if end - start != 90 or b"\\" in token:
            errors.append(("/signature", "the signature's value is not 88 plain characters"))
        else:
            sig = sig_of(doc["signature"], "/signature")
            zeroed = data[:start + 1] + b"0" * 88 + data[end - 1:]
            digest = hashlib.blake2b(zeroed, digest_size=32).digest()
            verify(device_key, b"tripsync-file-v1\n" + digest, sig, "/signature", "the file signature")
        signer = doc.get("deviceId")
        grant = members.get(signer) if isinstance(members, dict) else None
        facts["signer"] = signer
        facts["signer_role"] = grant.get("role") if isinstance(grant, dict) and grant.get("key") == doc["deviceKey"] else None
    return errors, facts


# --------------------------------------------------------------------------------------------
# The samples
# --------------------------------------------------------------------------------------------


class Report:
    def __init__(self, quiet: bool) -> None:
        self.passed = self.failed = 0
        self.quiet = quiet

    def ok(self, name: str, detail: str) -> None:
        self.passed += 1
        if not self.quiet:
            print(f"PASS {name}: {detail}")

    def fail(self, name: str, detail: str) -> None:
        self.failed += 1
        print(f"FAIL {name}: {detail}")


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def trip_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith((".trip.json", ".trip.json.gz")))


def main(argv: list[str]) -> int:
    quiet = "--quiet" in argv[1:]
    report = Report(quiet)
    for folder in VALID:
        if not trip_files(folder):
            report.fail(rel(folder), "no samples")
    for path in (p for folder in VALID for p in trip_files(folder)):
        data = path.read_bytes()
        errors, facts = check(data)
        if errors:
            report.fail(rel(path), f"errors {errors}")
            continue
        if path.name.endswith(".gz"):
            plain = path.with_name(path.name[:-3])
            if plain.exists() and json_bytes(data) != plain.read_bytes():
                report.fail(rel(path), f"does not hold the same JSON bytes as {plain.name}")
                continue
        if path.name.startswith("porto-") and facts.get("derived") is not True:
            report.fail(rel(path), "tripId is not derived from the owner key (made by `new`)")
            continue
        parts = []
        if "derived" in facts:
            parts.append("tripId derived from owner key" if facts["derived"] else "tripId not derived (claimed)")
        else:
            parts.append("open trip")
        if "signer" in facts:
            parts.append(f"signed by {facts['signer']} ({facts['signer_role'] or 'not its member key'})")
        else:
            parts.append("unsigned")
        parts += facts.get("notes", [])
        report.ok(rel(path), "; ".join(parts))

    for path in sorted((V6 / "keyring").glob("*.keyring.json")):
        errors, detail = check_keyring(path.read_bytes())
        if errors:
            report.fail(rel(path), f"errors {errors}")
        else:
            report.ok(rel(path), detail)

    for path in sorted((V7 / "blobs").glob("*")):
        errors, detail = check_sealed_blob(path)
        if errors:
            report.fail(rel(path), f"errors {errors}")
        else:
            report.ok(rel(path), detail)

    for folder, signature_rules in INVALID:
        check_invalid_folder(folder, signature_rules, report)
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


def check_sealed_blob(path: Path) -> tuple[list[str], str]:
    """FORMAT.md, "Schema 7": the sealed copy named by an attachment of samples/v7/porto-sealed
    hashes to its name and size, and opens with the attachment's key (every chunk, the associated
    data, the FINAL tag on the last chunk only) to bytes of the attachment's SHA-256 and size."""
    import nacl.bindings as nb
    sealed = path.read_bytes()
    doc = json.loads((V7 / "porto-sealed-backup.trip.json").read_bytes())
    refs = [a["blob"]["value"] for a in doc["attachments"].values()
            if "blob" in a and a["blob"]["value"].get("sealed", {}).get("sha256") == path.name]
    if len(refs) != 1:
        return ["no attachment of porto-sealed names it"], ""
    ref = refs[0]
    if hashlib.sha256(sealed).hexdigest() != path.name or len(sealed) != ref["sealed"]["size"]:
        return ["its SHA-256 or size is not the one its attachment names"], ""
    key = base64.b64decode(ref["sealed"]["key"], validate=True)
    data = f"tripsync-blob-v1\n{doc['tripId']}\n{ref['sha256']}".encode()
    state = nb.crypto_secretstream_xchacha20poly1305_state()
    nb.crypto_secretstream_xchacha20poly1305_init_pull(state, sealed[:24], key)
    body = sealed[24:]
    pieces = [body[i:i + 65536 + 17] for i in range(0, len(body), 65536 + 17)]
    plain = b""
    try:
        for i, piece in enumerate(pieces):
            message, tag = nb.crypto_secretstream_xchacha20poly1305_pull(state, piece, data)
            if (tag == nb.crypto_secretstream_xchacha20poly1305_TAG_FINAL) != (i == len(pieces) - 1):
                return [f"chunk {i + 1}: the FINAL tag is not on the last chunk only"], ""
            plain += message
    except Exception as error:  # noqa: BLE001  (PyNaCl raises its own error types)
        return [f"does not open: {error}"], ""
    if len(plain) != ref["size"] or hashlib.sha256(plain).hexdigest() != ref["sha256"]:
        return ["opens to bytes other than the attachment's"], ""
    return [], f"opens with its attachment's key: {len(pieces)} chunks, {len(plain)} bytes of SHA-256 {ref['sha256'][:16]}…"


SAMPLE_BOXES = {"a3c9e2f1-0b4d-4e8a-9c1f-7d6e5b4a3c2d": "alex-laptop", "5d2c8b1a-3e4f-4a5b-8c6d-7e8f9a0b1c2d": "sam-laptop",
                "86657a70-1b26-4c6d-ab01-13f232741976": "rita-phone"}


def check_keyring(data: bytes) -> tuple[list[tuple[str, str]], str]:
    """FORMAT.md, "Keyrings", against the Porto trip of samples/v6 (its owner key and members)."""
    errors: list[tuple[str, str]] = []
    trip = json.loads((V6 / "porto-boxes-backup.trip.json").read_bytes())
    ring = json.loads(data)
    keys = {"epoch", "epochId", "history", "sealed", "sig", "tripId", "type", "version", "writer"}
    if set(ring) != keys:
        return [("", f"keys {sorted(set(ring) ^ keys)}")], ""
    if ring["type"] != "tripsync-keyring" or ring["version"] != 1 or ring["tripId"] != trip["tripId"]:
        errors.append(("/type", "type, version or tripId"))
    body = {k: v for k, v in ring.items() if k != "sig"}
    message = b"tripsync-keyring-v1\n" + json.dumps(body, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    try:
        VerifyKey(base64.b64decode(trip["owner"]["key"])).verify(message, base64.b64decode(ring["sig"]))
    except BadSignatureError:
        errors.append(("/sig", "the owner key's signature does not verify"))
    opened = 0
    for device, sealed in ring["sealed"].items():
        label = SAMPLE_BOXES.get(device)
        if label is None:
            continue
        secret = hashlib.sha256(f"tripsync-sample-box:{label}".encode()).digest()
        key = nacl.public.SealedBox(nacl.public.PrivateKey(secret)).decrypt(base64.b64decode(sealed))
        if hashlib.blake2b(b"tripsync-epoch-id-v1\n" + key, digest_size=32).digest()[:16].hex() != ring["epochId"]:
            errors.append((f"/sealed/{device}", "the key's id is not epochId"))
            continue
        stream = base64.b64decode(ring["history"])
        state = nacl.bindings.crypto_secretstream_xchacha20poly1305_state()
        nacl.bindings.crypto_secretstream_xchacha20poly1305_init_pull(state, stream[:24], key)
        data_ = f"tripsync-keyring-history-v1\n{ring['tripId']}\n{ring['epoch']}\n{ring['epochId']}".encode()
        chunks, plain, tag = stream[24:], b"", None
        while chunks:
            piece, chunks = chunks[:65536 + 17], chunks[65536 + 17:]
            text, tag = nacl.bindings.crypto_secretstream_xchacha20poly1305_pull(state, piece, data_)
            plain += text
        if tag != nacl.bindings.crypto_secretstream_xchacha20poly1305_TAG_FINAL:
            errors.append(("/history", "the last chunk is not tagged final"))
        epochs = json.loads(plain)["epochs"]
        if len(epochs) != ring["epoch"] - 1:
            errors.append(("/history", f"{len(epochs)} earlier keys"))
        opened += 1
    if opened == 0:
        errors.append(("/sealed", "nothing sealed to a sample member"))
    return errors, f"epoch {ring['epoch']}, signed by the owner key, opened by {opened} members with their sample keys"


def check_invalid_folder(folder: Path, signature_rules: bool, report: Report) -> None:
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    listed = set()
    for entry in index:
        path = folder / entry["file"]
        listed.add(entry["file"])
        errors, _ = check(path.read_bytes())
        at = sorted({p for p, _ in errors})
        expected = entry["pointer"]
        if signature_rules == "some":
            if entry["file"] in SIGNATURE_CASES:
                ok, wanted = at == [expected], f"only {expected!r}"
            else:
                ok, wanted = at in ([], [expected]), f"at most {expected!r}"
        elif not signature_rules:
            ok, wanted = at == [], "no signature error"
        elif entry["schema"]:
            ok, wanted = at in ([], [expected]), f"at most {expected!r}"
        else:
            ok, wanted = at == [expected], f"only {expected!r}"
        if ok:
            detail = f"{'; '.join(m for _, m in errors)} at {expected!r}" if errors else "no signature error (not a signature rule)"
            report.ok(rel(path), detail)
        else:
            report.fail(rel(path), f"expected {wanted}, found {errors}")
    for path in sorted(folder.glob("*.trip.json*")):
        if path.name not in listed:
            report.fail(rel(path), "not listed in index.json")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
