#!/usr/bin/env python3
"""Regenerate the schema 3 sample files under samples/v3/ (members, owner, signed files).

    python3 scripts/make-samples-v3.py        (also run by scripts/make-samples.py)

Deterministic: fixed ids, fixed clocks, fixed key seeds, no randomness, no current time; Ed25519
signatures are deterministic, so the same script always writes the same bytes.

Needs PyNaCl (Ed25519). When `import nacl` fails, the script makes the virtual environment
.venv-samples/ at the repository root (git-ignored), installs PYNACL into it with pip, and runs
itself again with that environment's python. Everything else is the standard library:
hashlib.blake2b(digest_size=32) for BLAKE2b-256, hashlib.sha256 for the trip id.

What it writes (docs/FORMAT.md, "Schema 3: members, owner and signed files"):

    samples/v3/porto-owned.trip.json(.gz)  a trip made by `new` (id derived from the owner key),
                                           owner + editor + viewer, signed by the owner's device
    samples/v3/porto-removed.trip.json     the same trip later: the viewer removed, signed by
                                           the editor's device
    samples/v3/porto-backup.trip.json      porto-owned without deviceKey/signature (a backup)
    samples/v3/open-trip.trip.json         migration 2 -> 3 of samples/lisbon-new-york.trip.json
    samples/v3/lisbon-claimed.trip.json    that open trip after `members claim` (keeps its id)
    samples/v3/invalid/*.trip.json         copies of porto-owned that each break one rule
    samples/v3/invalid/index.json          file, pointer, rule, schema, message
    samples/v3/README.md                   what the files hold, the seeds and the keys

Self-check afterwards: every file passes the schema 2 reference reader of make-samples.py (dots,
registers, acks, strict JSON; the new keys are not its business), valid files are canonical,
and scripts/check-signatures.py (an independent checker of the schema 3 rules) must agree with
invalid/index.json. scripts/check-schemas.py covers what the JSON Schema expresses.

Extra keys someone changed in samples/v3/invalid/index.json (such as "message", the reader's
real wording) are kept when the index is regenerated.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-samples"
PYNACL = "pynacl==1.6.2"


def ensure_pynacl() -> None:
    """Import PyNaCl, or make .venv-samples/ with it and run the script again inside it."""
    try:
        import nacl.signing  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TRIPSYNC_SAMPLES_VENV") == "1":
        sys.exit(f"PyNaCl is still missing in {VENV}")
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"making {VENV.relative_to(ROOT)}/ for PyNaCl")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    probe = subprocess.run([str(python), "-c", "import nacl.signing"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PYNACL],
                       check=True)
    env = dict(os.environ, TRIPSYNC_SAMPLES_VENV="1")
    # The script that was run: this one, or make-samples-v4.py, which imports this one.
    os.execve(str(python), [str(python), str(Path(sys.argv[0]).resolve()), *sys.argv[1:]], env)


ensure_pynacl()

from nacl.signing import SigningKey  # noqa: E402


def _load_make_samples():
    spec = importlib.util.spec_from_file_location("make_samples", ROOT / "scripts" / "make-samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_samples"] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


ms = _load_make_samples()
canonical, gz, ptr, wall, local, day = ms.canonical, ms.gz, ms.ptr, ms.wall, ms.local, ms.day
sample_uuid, write, remove_stale = ms.sample_uuid, ms.write, ms.remove_stale
LIS = ms.LIS
ALEX, SAM = ms.ALEX, ms.SAM

V3_DIR = ms.SAMPLES / "v3"
INVALID_DIR = V3_DIR / "invalid"

# --------------------------------------------------------------------------------------------
# Keys, ids and the signed messages of FORMAT.md
# --------------------------------------------------------------------------------------------

SEED_PREFIX = "tripsync-sample-key:"
# label -> what the key is. Seed = SHA-256 of SEED_PREFIX + label (32 bytes).
KEY_LABELS = {
    "v3/owner/porto": "owner key of the trip \"Porto 2027\" (made by `new` on Alex's laptop)",
    "v3/owner/lisbon": "owner key made by `members claim` on Alex's laptop for \"Lisbon & New York 2027\"",
    "v3/device/alex": "device key of Alex's laptop",
    "v3/device/sam": "device key of Sam's laptop",
    "v3/device/rita": "device key of Rita's phone",
    "v3/device/sam-phone": "device key of Sam's phone (only in an invalid sample)",
    "v3/outsider": "a key that belongs to nobody in the trip (only in invalid samples)",
}


def seed(label: str) -> bytes:
    return hashlib.sha256((SEED_PREFIX + label).encode()).digest()


KEYS = {label: SigningKey(seed(label)) for label in KEY_LABELS}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def key_text(label: str) -> str:
    return b64(bytes(KEYS[label].verify_key))


def sign(label: str, message: bytes) -> str:
    return b64(KEYS[label].sign(message).signature)


def compact(obj: Any) -> bytes:
    """Canonical JSON without the trailing newline (the signed messages use it)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def trip_id_from_key(public_key: bytes) -> str:
    """FORMAT.md: first 16 bytes of SHA-256 of the key, version nibble 8, variant bits 10."""
    raw = bytearray(hashlib.sha256(public_key).digest()[:16])
    raw[6] = (raw[6] & 0x0F) | 0x80
    raw[8] = (raw[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(raw)))


def claim_message(trip_id: str, key: str) -> bytes:
    return f"tripsync-owner-v1\n{trip_id}\n{key}".encode("utf-8")


def grant_message(trip_id: str, device: str, grant: dict) -> bytes:
    body = {"device": device, "key": grant["key"], "rev": grant["rev"], "role": grant["role"], "tripId": trip_id}
    if "seen" in grant:
        body["seen"] = grant["seen"]
    return b"tripsync-member-v1\n" + compact(body)


def owner_block(trip_id: str, owner_label: str) -> dict:
    key = key_text(owner_label)
    return {"key": key, "claim": sign(owner_label, claim_message(trip_id, key))}


def sign_grant(doc: dict, device: str, owner_label: str) -> None:
    grant = doc["members"][device]
    grant["sig"] = sign(owner_label, grant_message(doc["tripId"], device, grant))


SIG_ZEROS = "0" * 88


def signed_bytes(doc: dict, device_label: str, signer_label: str | None = None) -> bytes:
    """Canonical bytes of doc with deviceKey = device_label's key and signature by signer_label
    (default the same key) over 'tripsync-file-v1\\n' + BLAKE2b-256 of the bytes with 88 zeros."""
    doc = dict(doc, deviceKey=key_text(device_label), signature=SIG_ZEROS)
    data = canonical(doc)
    hole = b'"signature":"' + SIG_ZEROS.encode() + b'"'
    assert data.count(hole) == 1
    digest = hashlib.blake2b(data, digest_size=32).digest()
    sig = sign(signer_label or device_label, b"tripsync-file-v1\n" + digest)
    assert len(sig) == 88 and sig.endswith("==")
    return data.replace(hole, b'"signature":"' + sig.encode() + b'"')


# --------------------------------------------------------------------------------------------
# A replica with members: the make-samples.py replica plus owner and grants
# --------------------------------------------------------------------------------------------

RITA = sample_uuid("v3/device/rita")  # Rita's phone (a viewer)
SAM_PHONE = sample_uuid("v3/device/sam-phone")  # only in an invalid sample
DEVICE_KEY = {ALEX: "v3/device/alex", SAM: "v3/device/sam", RITA: "v3/device/rita"}


class MemberReplica(ms.Replica):
    def __init__(self, trip_id: str, device: str):
        super().__init__(trip_id, device)
        self.owner: dict | None = None
        self.owner_label: str | None = None  # set on the laptop that holds the owner key
        self.members: dict[str, dict] = {}

    def grant(self, device: str, role: str, wall_ms: int) -> None:
        """The owner's laptop writes a grant: seen (the clock before this write) for viewer and
        removed, a dot of its own, the owner key's signature."""
        assert self.owner_label is not None, "only the owner key grants roles"
        seen = dict(sorted(self.clock.items()))
        rev = self.stamp(wall_ms)
        grant: dict[str, Any] = {"key": key_text(DEVICE_KEY[device]), "rev": list(rev), "role": role}
        if role in ("viewer", "removed"):
            grant["seen"] = seen
        grant["sig"] = sign(self.owner_label, grant_message(self.trip_id, device, grant))
        self.members[device] = grant

    def merge_from(self, other: "MemberReplica") -> None:
        """Whole-file merge (an owner's or editor's file). Grants: the greatest rev wins."""
        super().merge_from(other)
        self._merge_members(other)

    def merge_acks_from(self, other: "MemberReplica") -> None:
        """A viewer's file: only that viewer's own acks entry counts (and its view of members)."""
        mine = self.acks.get(other.device, {})
        self.acks[other.device] = ms.pointwise_max(mine, other.acks[other.device])
        assert all(self.clock.get(d, 0) >= c for d, c in self.acks[other.device].items())

    def _merge_members(self, other: "MemberReplica") -> None:
        if other.owner is not None:
            assert self.owner in (None, other.owner)
            self.owner = copy.deepcopy(other.owner)
        for device, grant in other.members.items():
            mine = self.members.get(device)
            if mine is None or tuple(grant["rev"]) > tuple(mine["rev"]):
                self.members[device] = copy.deepcopy(grant)

    def document(self) -> dict:
        doc = super().document()
        doc["schemaVersion"] = 3
        doc["owner"] = copy.deepcopy(self.owner)
        doc["members"] = {d: copy.deepcopy(self.members[d]) for d in sorted(self.members)}
        return doc


# --------------------------------------------------------------------------------------------
# "Porto 2027": an owned trip, three devices
# --------------------------------------------------------------------------------------------

P = {name: sample_uuid("v3/porto/" + name) for name in (
    "checkin", "lello", "sao-bento", "grahams", "cruise", "dinner",
    "francesinha", "serralves", "douro-train", "andante",
)}


@dataclass
class PortoStory:
    owned: dict  # Alex's file after admitting Sam and Rita (porto-owned)
    removed: dict  # Sam's file after Alex removed Rita (porto-removed)


def porto_story() -> PortoStory:
    owner_label = "v3/owner/porto"
    trip_id = trip_id_from_key(bytes(KEYS[owner_label].verify_key))
    alex = MemberReplica(trip_id, ALEX)
    sam = MemberReplica(trip_id, SAM)
    rita = MemberReplica(trip_id, RITA)

    # Monday 1 June 2026: `tripsync new "Porto 2027"` on Alex's laptop.
    alex.owner_label = owner_label
    alex.owner = owner_block(trip_id, owner_label)
    w = wall("2026-06-01 19:02:11")
    alex.set_trip_name("Porto 2027", w)
    alex.set_device_name("Alex's laptop", w + 400)
    alex.grant(ALEX, "owner", w + 800)
    alex.create(P["checkin"], wall("2026-06-01 19:05:37"),
                title="Check in: Torel Avantgarde", sortKey="1",
                start=local("2027-06-11T15:00", LIS), end=None,
                place="Rua da Restauração 336, 4050-501 Porto",
                note="Check-in from 15:00; ask for a room with a river view.")
    alex.create(P["lello"], wall("2026-06-01 19:08:02"),
                title="Livraria Lello", sortKey="4",
                start=local("2027-06-12T09:30", LIS), end=local("2027-06-12T10:15", LIS),
                place="Rua das Carmelitas 144, Porto",
                note="Timed tickets online, €10, deducted from a book bought inside.")
    alex.create(P["sao-bento"], wall("2026-06-01 19:09:45"),
                title="Azulejos at São Bento station", sortKey="7",
                start=local("2027-06-12T11:00", LIS), end=None,
                place="Praça de Almeida Garrett", note=None)
    alex.create(P["grahams"], wall("2026-06-01 19:12:20"),
                title="Port tasting at Graham's Lodge", sortKey="A",
                start=local("2027-06-12T15:00", LIS), end=local("2027-06-12T16:30", LIS),
                place="Rua do Agro 141, Vila Nova de Gaia",
                note="Booked the vintage tasting for 3.\nConfirmation PT-48213; pay on arrival.")
    alex.create(P["cruise"], wall("2026-06-01 19:14:58"),
                title="Six bridges boat cruise", sortKey="D",
                start=local("2027-06-12T17:00", LIS), end=local("2027-06-12T17:50", LIS),
                place="Cais da Ribeira", note=None)
    alex.create(P["dinner"], wall("2026-06-01 19:17:31"),
                title="Dinner at Cantinho do Avillez", sortKey="G",
                start=local("2027-06-12T20:30", LIS), end=None,
                place="Rua Mouzinho da Silveira 166, Porto", note=None)

    # `tripsync invite --role editor` and `--role viewer`; Sam's and Rita's laptops `join`;
    # Alex's next sync admits both: their names from the join requests, then the grants.
    w = wall("2026-06-02 08:15:40")
    alex.devices[SAM] = {"name": [("Sam's laptop", alex.stamp(w))]}
    alex.grant(SAM, "editor", w + 300)
    alex.devices[RITA] = {"name": [("Rita's phone", alex.stamp(w + 600))]}
    alex.grant(RITA, "viewer", w + 900)
    alex_file = alex.publish()

    # Sam's next sync brings the trip; Sam adds the Douro day and a francesinha.
    sam.merge_from(alex_file)
    sam.create(P["francesinha"], wall("2026-06-02 12:31:09"),
               title="Francesinha at Café Santiago", sortKey="J",
               start=local("2027-06-11T13:00", LIS), end=None,
               place="Rua de Passos Manuel 226, Porto", note="Expect a queue at lunchtime.")
    sam.create(P["douro-train"], wall("2026-06-02 12:34:50"),
               title="Train to Pinhão (Douro valley)", sortKey="M",
               start=local("2027-06-13T09:10", LIS), end=local("2027-06-13T11:40", LIS),
               place="Estação de São Bento",
               note="Linha do Douro, about 2 h 30 min.\nSit on the right-hand side for the river.")
    sam.create(P["serralves"], wall("2026-06-02 12:37:14"),
               title="Serralves museum and park", sortKey="P",
               start=day("2027-06-14"), end=None, place="Rua Dom João de Castro 210, Porto", note=None)
    sam.edit(P["cruise"], wall("2026-06-02 12:39:02"), note="Boats leave every 30 minutes; no booking needed.")
    sam_file = sam.publish()

    # Rita's phone reads both files (a viewer writes nothing) and publishes its acks.
    rita.merge_from(alex_file)
    rita.merge_from(sam_file)
    rita_file = rita.publish()

    # Alex's next sync: Sam's file whole, Rita's file only for her acks; one more edit.
    alex.merge_from(sam_file)
    alex.merge_acks_from(rita_file)
    alex.create(P["andante"], wall("2026-06-03 21:47:26"),
                title="Buy Andante cards for the metro", sortKey="S",
                start=None, end=None, place=None, note=None)
    alex_file = alex.publish()
    owned = alex.document()

    # Wednesday 10 June: `tripsync members remove` Rita's phone; Alex publishes.
    alex.grant(RITA, "removed", wall("2026-06-10 18:20:05"))
    alex_file = alex.publish()
    # Sam's next sync takes the removal with everything else, then Sam moves the dinner.
    sam.merge_from(alex_file)
    sam.edit(P["dinner"], wall("2026-06-11 07:58:43"),
             start=local("2027-06-12T21:00", LIS), note="Moved to 21:00 (they called).")
    sam.publish()
    removed = sam.document()
    return PortoStory(owned=owned, removed=removed)


# --------------------------------------------------------------------------------------------
# "Lisbon & New York 2027": open (migrated from schema 2), then claimed
# --------------------------------------------------------------------------------------------


def open_trip() -> dict:
    """Migration 2 -> 3 of samples/lisbon-new-york.trip.json: owner null, members empty."""
    doc = ms.lisbon_new_york()
    doc["schemaVersion"] = 3
    doc["owner"] = None
    doc["members"] = {}
    return doc


def claimed_trip(open_doc: dict) -> dict:
    """`members claim` on Alex's laptop (the writer of the open file), then `members approve` of
    Sam's laptop (pending: it is in the clock) as editor. The trip keeps its id."""
    doc = copy.deepcopy(open_doc)
    owner_label = "v3/owner/lisbon"
    doc["owner"] = owner_block(doc["tripId"], owner_label)

    def stamp(wall_ms: int) -> list:
        counter = max(wall_ms, max(doc["clock"].values()) + 1)
        doc["clock"][ALEX] = counter
        return [counter, ALEX]

    for device, role, when in ((ALEX, "owner", "2026-06-02 10:00:00"), (SAM, "editor", "2026-06-02 10:04:31")):
        doc["members"][device] = {"key": key_text(DEVICE_KEY[device]), "rev": stamp(wall(when)), "role": role}
        sign_grant(doc, device, owner_label)
    doc["acks"][ALEX] = dict(sorted(doc["clock"].items()))
    return doc


# --------------------------------------------------------------------------------------------
# Invalid samples: copies of porto-owned that each break one rule
# --------------------------------------------------------------------------------------------

PORTO_OWNER = "v3/owner/porto"


@dataclass
class Case:
    file: str
    pointer: str
    rule: str
    schema: bool  # can Schemas/trip.v3.schema.json detect it?
    message: str  # a short substring expected in the reader's message (editable in index.json)
    build: Callable[[dict], bytes]  # gets a fresh deep copy of porto-owned (unsigned)


def _replace_once(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, (old, data.count(old))
    return data.replace(old, new)


def invalid_cases(owned: dict) -> list[Case]:
    clock = owned["clock"]
    alex_counter = clock[ALEX]
    lisbon_trip = ms.TRIP_ID

    def resigned(doc: dict, *devices: str) -> bytes:
        """Re-sign the named grants with the owner key and the file with Alex's device key, so
        the one broken rule is the only one."""
        for device in devices:
            sign_grant(doc, device, PORTO_OWNER)
        return signed_bytes(doc, DEVICE_KEY[ALEX])

    def claim_for_other_trip(doc: dict) -> bytes:
        key = doc["owner"]["key"]
        doc["owner"]["claim"] = sign(PORTO_OWNER, claim_message(lisbon_trip, key))
        return resigned(doc)

    def viewer_promotes_itself(doc: dict) -> bytes:
        # Rita's phone edits its own grant (viewer -> editor, so no seen) and signs its file.
        grant = doc["members"][RITA]
        grant["role"] = "editor"
        del grant["seen"]
        doc["deviceId"] = RITA
        return signed_bytes(doc, DEVICE_KEY[RITA])

    def editor_grants_a_device(doc: dict) -> bytes:
        # Sam's laptop admits Sam's phone as an editor, signing the grant with its device key.
        counter = max(doc["clock"].values()) + 1
        doc["clock"][SAM] = counter
        doc["members"][SAM_PHONE] = {"key": key_text("v3/device/sam-phone"), "rev": [counter, SAM], "role": "editor"}
        grant = doc["members"][SAM_PHONE]
        grant["sig"] = sign(DEVICE_KEY[SAM], grant_message(doc["tripId"], SAM_PHONE, grant))
        doc["deviceId"] = SAM
        return signed_bytes(doc, DEVICE_KEY[SAM])

    def members_without_owner(doc: dict) -> bytes:
        doc["owner"] = None
        return signed_bytes(doc, DEVICE_KEY[ALEX])

    def viewer_without_seen(doc: dict) -> bytes:
        del doc["members"][RITA]["seen"]
        return resigned(doc, RITA)

    def editor_with_seen(doc: dict) -> bytes:
        doc["members"][SAM]["seen"] = copy.deepcopy(doc["members"][RITA]["seen"])
        return resigned(doc, SAM)

    def grant_rev_above_clock(doc: dict) -> bytes:
        doc["members"][SAM]["rev"][0] = alex_counter + 1
        return resigned(doc, SAM)

    def seen_above_clock(doc: dict) -> bytes:
        doc["members"][RITA]["seen"][ALEX] = alex_counter + 1
        return resigned(doc, RITA)

    def role_unknown(doc: dict) -> bytes:
        doc["members"][SAM]["role"] = "admin"
        return resigned(doc, SAM)

    def key_unpadded(doc: dict) -> bytes:
        key = doc["members"][SAM]["key"]
        doc["members"][SAM]["key"] = key[:43]
        assert len(doc["members"][SAM]["key"]) == 43
        return resigned(doc, SAM)

    def key_not_canonical(doc: dict) -> bytes:
        key = doc["members"][RITA]["key"]
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        last = alphabet.index(key[42])
        assert last % 4 == 0
        bad = key[:42] + alphabet[last + 1] + "="
        assert base64.b64decode(bad) == base64.b64decode(key) and b64(base64.b64decode(bad)) != bad
        doc["members"][RITA]["key"] = bad
        return resigned(doc, RITA)

    def sig_wrong_length(doc: dict) -> bytes:
        raw = base64.b64decode(doc["members"][SAM]["sig"])
        doc["members"][SAM]["sig"] = b64(raw[:63])  # 84 characters, one "="
        return signed_bytes(doc, DEVICE_KEY[ALEX])

    def claim_not_canonical(doc: dict) -> bytes:
        claim = doc["owner"]["claim"]
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
        last = alphabet.index(claim[85])
        assert last % 16 == 0
        bad = claim[:85] + alphabet[last + 1] + "=="
        assert base64.b64decode(bad) == base64.b64decode(claim) and b64(base64.b64decode(bad)) != bad
        doc["owner"]["claim"] = bad
        return signed_bytes(doc, DEVICE_KEY[ALEX])

    def device_key_without_signature(doc: dict) -> bytes:
        doc["deviceKey"] = key_text(DEVICE_KEY[ALEX])
        return canonical(doc)

    def signature_without_device_key(doc: dict) -> bytes:
        signed = json.loads(signed_bytes(doc, DEVICE_KEY[ALEX]))
        del signed["deviceKey"]
        return canonical(signed)

    def tampered_title(doc: dict) -> bytes:
        # One byte of a title changed after signing: "Livraria Lello" -> "Livraria Hello".
        return _replace_once(signed_bytes(doc, DEVICE_KEY[ALEX]), b'"value":"Livraria Lello"',
                             b'"value":"Livraria Hello"')

    def signature_escaped(doc: dict) -> bytes:
        # The same signature text, its first character written as a \\u escape (93 bytes).
        data = signed_bytes(doc, DEVICE_KEY[ALEX])
        at = data.index(b'"signature":"') + len(b'"signature":"')
        first = chr(data[at])
        return data[:at] + f"\\u{ord(first):04x}".encode() + data[at + 1:]

    def signed_by_other_key(doc: dict) -> bytes:
        return signed_bytes(doc, DEVICE_KEY[ALEX], signer_label="v3/outsider")

    sam_g, rita_g = ("members", SAM), ("members", RITA)
    return [
        # Signatures (scripts/check-signatures.py).
        Case("claim-does-not-verify.trip.json", "/owner/claim",
             "owner.claim does not verify with owner.key (it is the owner key's claim for another trip id)",
             False, "claim does not verify", claim_for_other_trip),
        Case("grant-viewer-promoted-itself.trip.json", ptr(*rita_g, "sig"),
             "a grant's sig does not verify: Rita's phone (a viewer) changed its own grant to editor "
             "(seen dropped) and signed its file with its device key", False, "not signed by the trip's owner key",
             viewer_promotes_itself),
        Case("grant-signed-by-editor.trip.json", ptr("members", SAM_PHONE, "sig"),
             "a grant signed by a key that is not the owner key: Sam's laptop (an editor) admits Sam's "
             "phone, signing the grant with its own device key", False, "not signed by the trip's owner key", editor_grants_a_device),
        Case("tampered-title.trip.json", "/signature",
             "one byte of an item title changed after signing (\"Livraria Lello\" -> \"Livraria Hello\"): "
             "the file signature does not verify", False, "the signature does not verify", tampered_title),
        Case("signature-escaped.trip.json", "/signature",
             "the signature's value is written with a JSON escape (its first character as \\u00xx), "
             "so it is not 88 plain characters; the decoded text is the valid signature", False, "88 plain characters",
             signature_escaped),
        Case("signed-by-other-key.trip.json", "/signature",
             "the file is signed by a key other than its deviceKey (a key of nobody in the trip)", False,
             "the signature does not verify", signed_by_other_key),
        # Members and dots.
        Case("members-without-owner.trip.json", "/members",
             "members is not empty while owner is null (an open trip has no members)", True, "has members",
             members_without_owner),
        Case("grant-rev-above-clock.trip.json", ptr(*sam_g, "rev"),
             "a grant's rev counter is above the clock for its device", False, "above the document's clock",
             grant_rev_above_clock),
        Case("grant-seen-above-clock.trip.json", ptr(*rita_g, "seen", ALEX),
             "a grant's seen entry is above the clock", False, "above the document's clock", seen_above_clock),
        # What the schema expresses.
        Case("viewer-grant-without-seen.trip.json", ptr(*rita_g),
             "a viewer's grant has no seen (seen is present exactly for viewer and removed)", True, 'missing key "seen"',
             viewer_without_seen),
        Case("editor-grant-with-seen.trip.json", ptr(*sam_g, "seen"),
             "an editor's grant has seen (seen is present exactly for viewer and removed)", True, 'unexpected key "seen"',
             editor_with_seen),
        Case("grant-role-unknown.trip.json", ptr(*sam_g, "role"),
             "role must be owner, editor, viewer or removed (admin)", True, "expected a role", role_unknown),
        Case("key-43-characters.trip.json", ptr(*sam_g, "key"),
             "a key must be 44 characters of padded base64 (43: the padding left out)", True, "expected a public key",
             key_unpadded),
        Case("key-not-canonical.trip.json", ptr(*rita_g, "key"),
             "a key must decode to 32 bytes and encode back to the same text (the 43rd character's 2 "
             "unused bits are not zero)", True, "expected a public key", key_not_canonical),
        Case("sig-wrong-length.trip.json", ptr(*sam_g, "sig"),
             "a sig must be 88 characters of base64 of 64 bytes (84: base64 of 63 bytes)", True, "expected a signature as 88 characters",
             sig_wrong_length),
        Case("sig-not-canonical.trip.json", "/owner/claim",
             "a sig must encode back to the same text (the 86th character's 4 unused bits are not zero; "
             "the decoded 64 bytes are the valid claim)", True, "expected a signature as 88 characters",
             claim_not_canonical),
        Case("device-key-without-signature.trip.json", "/signature",
             "deviceKey without signature (they come together)", True, 'missing key "signature"',
             device_key_without_signature),
        Case("signature-without-device-key.trip.json", "/signature",
             "signature without deviceKey (they come together)", True, 'missing key "deviceKey"',
             signature_without_device_key),
    ]


def write_index(index_path: Path, cases: list[Case], written: set[Path]) -> None:
    """index.json like samples/invalid/index.json; keys someone changed (message) are kept."""
    old: dict[str, dict] = {}
    if index_path.exists():
        try:
            for entry in json.loads(index_path.read_text(encoding="utf-8")):
                old[entry["file"]] = {k: v for k, v in entry.items() if k not in ("file", "pointer", "rule", "schema")}
        except (ValueError, KeyError, TypeError):
            print(f"warning: could not read the old {index_path.relative_to(ROOT)}; messages not kept")
    index = []
    for case in sorted(cases, key=lambda c: c.file):
        entry = {"file": case.file, "pointer": case.pointer, "rule": case.rule, "schema": case.schema,
                 "message": case.message}
        entry.update(old.get(case.file, {}))
        index.append(entry)
    write(index_path, (json.dumps(index, ensure_ascii=False, indent=2) + "\n").encode("utf-8"), written)


# --------------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------------


def readme(story: PortoStory, open_doc: dict, claimed: dict, cases: list[Case]) -> bytes:
    owned, removed = story.owned, story.removed
    names = {ALEX: "Alex's laptop", SAM: "Sam's laptop", RITA: "Rita's phone", SAM_PHONE: "Sam's phone"}
    lines = [
        "# Schema 3 sample files (samples/v3)",
        "",
        "Generated by `python3 scripts/make-samples-v3.py` (also run by `scripts/make-samples.py`), never "
        "edited by hand (this README too). Check them with `python3 scripts/check-schemas.py` "
        "(`Schemas/trip.v3.schema.json`) and `python3 scripts/check-signatures.py` (claims, grants and "
        "file signatures, the rules JSON Schema cannot express). The format is docs/FORMAT.md, "
        "\"Schema 3: members, owner and signed files\".",
        "",
        "Every file is canonical bytes (sorted keys, no whitespace, one trailing newline). Keys are "
        f"Ed25519 (PyNaCl, `{PYNACL}`), made from fixed seeds: seed = SHA-256 of the UTF-8 text "
        f"`{SEED_PREFIX}<label>`, the 32 bytes used as the Ed25519 seed (`nacl.signing.SigningKey(seed)`).",
        "",
        "| label | seed (hex) | public key | what |",
        "|---|---|---|---|",
    ]
    for label, what in KEY_LABELS.items():
        lines.append(f"| `{label}` | `{seed(label).hex()}` | `{key_text(label)}` | {what} |")
    lines += [
        "",
        "Devices: " + ", ".join(f"{names[d]} `{d}`" for d in (ALEX, SAM, RITA)) + f" (Sam's phone `{SAM_PHONE}` "
        "appears only in an invalid sample).",
        "",
        "## Valid files",
        "",
        f"- `porto-owned.trip.json` (+ `.gz`, the same JSON bytes, gzip mtime 0): \"Porto 2027\" as made by "
        f"`tripsync new` on Alex's laptop. Its `tripId` {owned['tripId']} is derived from the owner key "
        "(first 16 bytes of SHA-256 of the 32 key bytes, UUID version 8). Alex's laptop is `owner`, Sam's "
        "laptop `editor`, Rita's phone `viewer` (its grant has `seen`, Alex's clock when it wrote the "
        "grant); the grants' revs are dots of Alex's laptop; the names of Sam's laptop and Rita's phone "
        "were written by Alex's laptop when it admitted them. "
        f"{len(owned['items'])} items in Porto, 2027-06-11..14, Europe/Lisbon; Sam's file was merged whole, "
        "Rita's only for her `acks`. Written and signed by Alex's laptop (`deviceId` "
        f"{ALEX}, `deviceKey` = its device key).",
        "- `porto-backup.trip.json`: the same document without `deviceKey` and `signature` (an owned "
        "trip need not be signed to be a valid file, e.g. a backup; sync decides what it may do).",
        "- `porto-removed.trip.json`: the same trip later. Alex's laptop removed Rita's phone (grant "
        f"`removed` with `seen`, rev `{json.dumps(removed['members'][RITA]['rev'])}`); Sam's laptop merged that and moved the "
        f"dinner to 21:00. Written and signed by Sam's laptop (`deviceId` {SAM}, an editor's file).",
        "- `open-trip.trip.json`: an open trip, `owner: null`, `members: {}`, unsigned: exactly the "
        "migration 2 -> 3 of `samples/lisbon-new-york.trip.json` (the same document with "
        "`schemaVersion` 3, `owner` null and `members` empty; nothing else changes).",
        "- `lisbon-claimed.trip.json`: that open trip after `tripsync members claim` on Alex's laptop and "
        "`members approve` of Sam's laptop as `editor`. It keeps its `tripId` "
        f"({claimed['tripId']}, not derived from its owner key `v3/owner/lisbon`: a claimed trip keeps "
        "its id); the two grants are new dots of Alex's laptop. Signed by Alex's laptop.",
        "",
        "## `invalid/`",
        "",
        "Copies of `porto-owned.trip.json` that each break exactly one rule; every other signature in "
        "them (claim, grants, file) still verifies, re-made after the change. `invalid/index.json` lists "
        "each file with the JSON Pointer of the bad value, the rule, whether the v3 JSON Schema can "
        "detect it (`\"schema\": true`), and `message`, a short substring expected in the reader's "
        "message (edited there to the reader's wording, it survives regeneration).",
        "",
        "| file | pointer | JSON Schema | rule |",
        "|---|---|---|---|",
    ]
    for case in sorted(cases, key=lambda c: c.file):
        pointer = case.pointer
        for device, name in names.items():
            pointer = pointer.replace(device, f"<{name}>")
        lines.append(f"| `{case.file}` | `{pointer}` | {'yes' if case.schema else 'no'} | {case.rule} |")
    lines += [
        "",
        "In the pointers, " + "; ".join(f"`<{names[d]}>` is `{d}`" for d in (ALEX, SAM, RITA, SAM_PHONE)) + ".",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


# --------------------------------------------------------------------------------------------
# Writing and the self-check
# --------------------------------------------------------------------------------------------


def main() -> int:
    written: set[Path] = set()
    story = porto_story()
    owned_bytes = signed_bytes(story.owned, DEVICE_KEY[ALEX])
    write(V3_DIR / "porto-owned.trip.json", owned_bytes, written)
    write(V3_DIR / "porto-owned.trip.json.gz", gz(owned_bytes), written)
    write(V3_DIR / "porto-backup.trip.json", canonical(story.owned), written)
    write(V3_DIR / "porto-removed.trip.json", signed_bytes(story.removed, DEVICE_KEY[SAM]), written)
    open_doc = open_trip()
    write(V3_DIR / "open-trip.trip.json", canonical(open_doc), written)
    claimed = claimed_trip(open_doc)
    write(V3_DIR / "lisbon-claimed.trip.json", signed_bytes(claimed, DEVICE_KEY[ALEX]), written)
    remove_stale(V3_DIR, written)

    cases = invalid_cases(story.owned)
    assert len({c.file for c in cases}) == len(cases), "duplicate sample names"
    for case in cases:
        write(INVALID_DIR / case.file, case.build(copy.deepcopy(story.owned)), written)
    remove_stale(INVALID_DIR, written)
    write_index(INVALID_DIR / "index.json", cases, written)
    write(V3_DIR / "README.md", readme(story, open_doc, claimed, cases), written)

    # Self-check 1: the schema 2 rules (dots, registers, acks, strict JSON) hold in every file.
    problems: list[str] = []
    valid = ["porto-owned.trip.json", "porto-owned.trip.json.gz", "porto-backup.trip.json",
             "porto-removed.trip.json", "open-trip.trip.json", "lisbon-claimed.trip.json"]
    for name in valid:
        problems += ms.check_valid(V3_DIR / name, [])
    for case in cases:
        errors, warnings = ms.reference_check((INVALID_DIR / case.file).read_bytes())
        if errors or warnings:
            problems.append(f"{case.file}: the schema 2 reference reader found {errors} {warnings}")
    lisbon = (ms.SAMPLES / "lisbon-new-york.trip.json").read_bytes()
    migrated = dict(json.loads(lisbon), schemaVersion=3, owner=None, members={})
    if canonical(migrated) != (V3_DIR / "open-trip.trip.json").read_bytes():
        problems.append("open-trip.trip.json is not the migration of samples/lisbon-new-york.trip.json")
    if story.owned["tripId"] != trip_id_from_key(bytes(KEYS[PORTO_OWNER].verify_key)):
        problems.append("porto: tripId not derived from the owner key")

    # Self-check 2: the independent checker of the schema 3 rules agrees with the index.
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "check-signatures.py"), "--quiet"])
    if check.returncode != 0:
        problems.append("scripts/check-signatures.py failed")

    print(f"samples/v3: {len(valid)} valid files (porto-owned {len(story.owned['items'])} items, "
          f"{len(owned_bytes)} bytes), {len(cases)} invalid files + index.json")
    if problems:
        print("\nSELF-CHECK FAILED (v3):")
        for p in problems:
            print("  " + p)
        return 1
    print("self-check v3: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
