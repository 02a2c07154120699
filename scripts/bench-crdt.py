#!/usr/bin/env python3
"""Side-by-side merge benchmark of two CRDT engines on TripSync's two-replica scenario.

    python3 scripts/bench-crdt.py compare --a A.trip.json.gz --b B.trip.json.gz [--repeat R] [--json]
    python3 scripts/bench-crdt.py --make-scenario N DIR      # writes DIR/a.trip.json.gz, DIR/b.trip.json.gz

`compare` measures "load, merge, save" end to end in Loro (PyPI `loro`) and Yrs (PyPI
`pycrdt`) for the same change sets that two TripSync trip files A and B hold, so that the
numbers sit next to `tripsync merge` on the very same files. Run it with the system python3:
it creates `.venv-bench/` at the repository root (if missing) with `python3 -m venv`,
installs the exact pins of `scripts/bench-crdt-requirements.txt` with pip (again whenever
that file changes) and re-executes itself inside the venv. `--make-scenario` needs only the
standard library and runs without the venv.

The scenario (the one `tripsync-bench generate` is meant to write; `--make-scenario` writes
an equivalent pair for development): one trip of N items diverged into two replicas.
A retitled the first N/10 items and added N/100 items. B edited the note of the same N/10
items, retitled every 4th of them (same-field conflicts with A) and deleted N/100 items, half
of them items that A retitled.

From files to CRDT histories (untimed; `derive_plan`)
    The files hold states, not operations, so the script reconstructs them with the rules of
    DESIGN.md section 2. The base (the shared history) is everything both files have seen:
    a write with rev (c, d) is in the base when c <= min(A.clock[d], B.clock[d]). Base items
    carry, per field, the greatest in-base value either file still holds; when both sides
    overwrote a field its base value is in neither file, and a placeholder string stands in
    (both replicas overwrite it, so it never shows). Every register whose rev is past the
    base is one side's edit; an item with no base dot is an add; a tombstone whose delete is
    past the base is a delete (edits the deleting side made before its delete are replayed
    first). Each side's operations are replayed in rev order. Register `conflicts` already
    present in a file, `trip`, `devices` and `acks` are not part of the scenario and are not
    modelled; the plan's `reconstruction` counts the base values it had to stand in for and
    any edit it could not replay.

Document shape, the same in both engines
    A root map `items`: item id -> a nested map (LoroMap / pycrdt Map, so each field merges on
    its own, as in TripSync) holding `title`, `sortKey`, `start`, `end`, `place`, `note`.
    `start`/`end` are plain JSON values (a dict or null) inside that map, not containers,
    exactly as TripSync stores a time as one register value.

Histories, the same for both engines
    The base is built by one peer in one transaction (an initial import; the cheapest history
    either engine can have, which favours them). The base state is forked into two replicas
    with distinct peer/client ids (Loro: snapshot export, imported into two LoroDocs;
    pycrdt: `get_update()` applied to two Docs). Each replica then replays its side's
    operations with one transaction per user action (one field edit, one added item, one
    deleted item), as an app would commit them. Each replica is saved to a file in a temp
    dir: Loro `export(ExportMode.Snapshot())` (full history), pycrdt `get_update()` (the
    whole state as a v1 update; the GC default of `Doc` is kept). Raw and gzip sizes are
    reported (the CRDT files are not gzipped; TripSync's are).

What is timed, per engine, per repetition (`time.perf_counter`, GC off as in `timeit`)
    load: read replica A's file from disk, decode it into a fresh document;
    merge: read replica B's file from disk, import it into that document (Loro `import_`,
    pycrdt `apply_update`: the engine's native way to merge a remote state; B is decoded by
    that call, so "load B" is part of "merge");
    save: encode the merged state (as above) and write it to a file with the same plain
    `open/write/close` for both engines (no fsync for either).
    One untimed warm-up run first, then R timed runs (default 5 up to 10,000 items, else 3,
    as `tripsync-bench`); median and min are reported. Files are read through the page
    cache, the same for both engines. Whatever an engine defers is not forced: Loro's
    snapshot format decodes lazily, and the timing shows what an app pays for
    load-merge-save through each public API, nothing more.

Memory
    Reading the trip files, each engine's setup and each engine's timed runs happen in their
    own subprocesses of this script; the parent only orchestrates and stays small. So the peak
    RSS of a timed-run process is that engine's load-merge-save alone (the interpreter and the
    engine module included; `baseline` is the peak right after importing the engine, before
    any file was read). The reported peak is `VmHWM` of /proc/self/status, as `tripsync-bench`
    measures; `getrusage(RUSAGE_SELF).ru_maxrss` (KiB on Linux) is in the JSON too and agrees
    here, but only because the parent is small: Linux carries the spawning process's
    high-water mark into a child across fork/exec.

Correctness (untimed, after the peak RSS was taken)
    The merged file is decoded once more and its items are compared with the merge TripSync
    specifies (deletes win over concurrent edits; a field edited by one side takes that
    value; a field edited by both is a conflict). Reported: items after merge vs expected,
    missing/extra ids, field mismatches outside conflicts (0 means the engine merged per field
    like TripSync), and for every same-field conflict how many of the two concurrent values
    the merged document still holds: Loro and Yrs keep one value per map key, so the other is
    counted in "values lost" (TripSync keeps both, the loser in `conflicts`). Loro's history
    still holds the losing value for time travel (`checkout`), but nothing marks the field as
    conflicted; pycrdt with GC on keeps no overwritten content. Also reported: edits one side
    made to an item the other side deleted, none of which is reachable from the merged
    document's root in either engine (TripSync keeps them in the tombstone, restorable).

`--json` prints one JSON object (`scenario`, `expected`, `engines`: one object per engine);
otherwise a Markdown table with notes.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import gzip
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent
VENV = ROOT / ".venv-bench"
REQUIREMENTS = SCRIPT.parent / "bench-crdt-requirements.txt"
# Inside the venv: a hash of the requirements file that was last installed there.
VENV_STAMP = VENV / "bench-crdt-requirements.sha256"

ITEM_FIELDS = ("title", "sortKey", "start", "end", "place", "note")
ENGINES = ("loro", "pycrdt")


def log(message: str) -> None:
    """Progress on stderr, so `--json` output on stdout stays one JSON object."""
    print(f"bench-crdt: {message}", file=sys.stderr, flush=True)


# ============================================================================================
# The virtual environment
# ============================================================================================


def in_bench_venv() -> bool:
    """True when this interpreter is the one of `.venv-bench`."""
    try:
        return Path(sys.prefix).resolve() == VENV.resolve()
    except OSError:
        return False


def ensure_venv_and_reexec() -> None:
    """Creates `.venv-bench` when missing, installs the pinned requirements when they changed,
    and replaces this process with the same command run by the venv's python."""
    if in_bench_venv():
        return
    if os.environ.get("TRIPSYNC_BENCH_CRDT_REEXEC") == "1":
        sys.exit(f"bench-crdt: re-executed with {sys.executable}, but that is not {VENV}")
    python = VENV / "bin" / "python"
    if not python.exists():
        log(f"creating {VENV}")
        # Child output goes to stderr: with --json, stdout carries the report alone.
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True, stdout=sys.stderr)
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    installed = VENV_STAMP.read_text().strip() if VENV_STAMP.exists() else ""
    if installed != wanted:
        log(f"installing {REQUIREMENTS.name} into {VENV.name}")
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "-r", str(REQUIREMENTS)],
            check=True, stdout=sys.stderr)
        VENV_STAMP.write_text(wanted + "\n")
    env = dict(os.environ, TRIPSYNC_BENCH_CRDT_REEXEC="1")
    os.execve(str(python), [str(python), str(SCRIPT), *sys.argv[1:]], env)


# ============================================================================================
# Reading TripSync files
# ============================================================================================


class TripFileError(Exception):
    """A trip file that this script cannot use, with the file and JSON Pointer."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"duplicate key {key!r}")
        result[key] = value
    return result


def read_trip(path: str) -> dict[str, Any]:
    """A schemaVersion 2 to 5 trip document from a `.trip.json` or `.trip.json.gz` file (gzip told by
    its magic bytes). Checks only what this benchmark relies on; `tripsync validate` is the
    real validator."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    try:
        doc = json.loads(data, object_pairs_hook=_no_duplicate_keys)
    except ValueError as error:
        raise TripFileError(f"{path}: not a JSON trip document: {error}") from None
    if not isinstance(doc, dict):
        raise TripFileError(f"{path}: expected a JSON object at the top")
    # Schema 3 adds owner and members (who may write), schema 4 attachments, schema 5 the trip's
    # zone and members' grants: none of them is part of the scenario or modelled by the engines;
    # items have the same shape in all four.
    if doc.get("schemaVersion") not in (2, 3, 4, 5):
        raise TripFileError(f"{path}: /schemaVersion: expected 2 to 5, found {doc.get('schemaVersion')!r}")
    for key, kind in (("clock", dict), ("items", dict), ("tombstones", dict)):
        if not isinstance(doc.get(key), kind):
            raise TripFileError(f"{path}: /{key}: expected an object")
    for item_id, item in doc["items"].items():
        for field in ITEM_FIELDS:
            register = item.get(field) if isinstance(item, dict) else None
            if not isinstance(register, dict) or "value" not in register or "rev" not in register:
                raise TripFileError(f"{path}: /items/{item_id}/{field}: expected a register")
    return doc


# ============================================================================================
# From two trip files to one base and two operation lists
# ============================================================================================


def rev_key(rev: list[Any]) -> tuple[int, str]:
    """Revs are ordered by counter, then device id."""
    return (rev[0], rev[1])


def register_versions(register: dict[str, Any]) -> list[dict[str, Any]]:
    """The winner and the conflicts of a register."""
    return [register, *register.get("conflicts", [])]


def derive_plan(a_doc: dict[str, Any], b_doc: dict[str, Any]) -> dict[str, Any]:
    """The base items and each side's operations since the base, in rev order (see the module
    docstring). Operations: ["set", id, field, value], ["add", id, fields], ["delete", id]."""
    devices = set(a_doc["clock"]) | set(b_doc["clock"])
    base_clock = {d: min(a_doc["clock"].get(d, 0), b_doc["clock"].get(d, 0)) for d in devices}

    def in_base(rev: list[Any]) -> bool:
        return rev[0] <= base_clock.get(rev[1], 0)

    sides = {"a": a_doc, "b": b_doc}
    base: list[tuple[str, dict[str, Any]]] = []
    ops: dict[str, list[tuple[tuple[int, str], list[Any]]]] = {"a": [], "b": []}
    reconstruction: dict[str, int] = {"base_values_unknown": 0, "edits_after_own_delete_skipped": 0}

    ids = sorted(set(a_doc["items"]) | set(a_doc["tombstones"]) | set(b_doc["items"]) | set(b_doc["tombstones"]))
    for item_id in ids:
        # Per side: the live item's registers, or the tombstone's body and delete register.
        views = {}
        for side, doc in sides.items():
            if item_id in doc["items"]:
                views[side] = (doc["items"][item_id], None)
            elif item_id in doc["tombstones"]:
                tombstone = doc["tombstones"][item_id]
                views[side] = (tombstone.get("item", {}), tombstone["deleted"])
        base_deleted = any(
            deleted is not None and any(in_base(v["rev"]) for v in register_versions(deleted))
            for _, deleted in views.values())
        base_fields: dict[str, Any] = {}
        known = False
        for field in ITEM_FIELDS:
            candidates = [
                v for fields, _ in views.values() if field in fields
                for v in register_versions(fields[field]) if in_base(v["rev"])]
            if candidates:
                base_fields[field] = max(candidates, key=lambda v: rev_key(v["rev"]))["value"]
                known = True
            else:
                base_fields[field] = None  # filled below if this is a base item
        in_base_item = known and not base_deleted
        if in_base_item:
            for field in ITEM_FIELDS:
                if not any(field in fields and any(in_base(v["rev"]) for v in register_versions(fields[field]))
                           for fields, _ in views.values()):
                    # Both sides overwrote it: its base value is in neither file.
                    base_fields[field] = f"(base {field}, overwritten on both sides)"
                    reconstruction["base_values_unknown"] += 1
            base.append((item_id, base_fields))

        for side, (fields, deleted) in views.items():
            if deleted is None:  # live on this side
                if in_base_item:
                    for field in ITEM_FIELDS:
                        register = fields[field]
                        if not in_base(register["rev"]):
                            ops[side].append((rev_key(register["rev"]), ["set", item_id, field, register["value"]]))
                else:  # written after the base (or restored): an added item
                    first = min(rev_key(fields[f]["rev"]) for f in ITEM_FIELDS)
                    ops[side].append((first, ["add", item_id, {f: fields[f]["value"] for f in ITEM_FIELDS}]))
            elif in_base_item and not in_base(deleted["rev"]):  # deleted on this side since the base
                delete_key = rev_key(deleted["rev"])
                for field in ITEM_FIELDS:
                    register = fields.get(field)
                    if register is None or in_base(register["rev"]):
                        continue
                    if rev_key(register["rev"]) < delete_key:
                        ops[side].append((rev_key(register["rev"]), ["set", item_id, field, register["value"]]))
                    else:
                        reconstruction["edits_after_own_delete_skipped"] += 1  # a map entry cannot be edited once deleted
                ops[side].append((delete_key, ["delete", item_id]))

    plan_ops = {}
    counts = {}
    for side, side_ops in ops.items():
        side_ops.sort(key=lambda pair: pair[0])
        plan_ops[side] = [op for _, op in side_ops]
        counts[side] = {kind: sum(1 for op in plan_ops[side] if op[0] == kind) for kind in ("set", "add", "delete")}
    return {"base": base, "ops": plan_ops, "counts": counts, "reconstruction": reconstruction}


def expected_merge(plan: dict[str, Any]) -> dict[str, Any]:
    """The merged items TripSync specifies for the plan, the same-field conflicts and the edits
    that a concurrent delete hides."""
    sets: dict[str, dict[tuple[str, str], Any]] = {"a": {}, "b": {}}
    deletes: dict[str, set[str]] = {"a": set(), "b": set()}
    adds: dict[str, dict[str, dict[str, Any]]] = {"a": {}, "b": {}}
    for side, side_ops in plan["ops"].items():
        for op in side_ops:
            if op[0] == "set":
                sets[side][(op[1], op[2])] = op[3]  # ops are in rev order: the last one stands
            elif op[0] == "add":
                adds[side][op[1]] = op[2]
            else:
                deletes[side].add(op[1])
    items = {item_id: dict(fields) for item_id, fields in plan["base"]}
    conflicts: list[tuple[str, str, Any, Any]] = []
    for side, other in (("a", "b"), ("b", "a")):
        for (item_id, field), value in sets[side].items():
            theirs = sets[other].get((item_id, field), value)
            if theirs != value:
                if side == "a":
                    conflicts.append((item_id, field, value, theirs))
            elif item_id in items:
                items[item_id][field] = value
        items.update(adds[side])
    deleted = deletes["a"] | deletes["b"]
    conflicts = [conflict for conflict in conflicts if conflict[0] not in deleted]  # a delete wins
    hidden_edits = [
        (item_id, field) for side, other in (("a", "b"), ("b", "a"))
        for (item_id, field) in sets[side] if item_id in deletes[other] and item_id not in deletes[side]]
    for item_id in deleted:
        items.pop(item_id, None)
    return {"items": items, "conflicts": conflicts, "edits_under_concurrent_delete": hidden_edits}


def check_merge(expected: dict[str, Any], merged: dict[str, Any]) -> dict[str, Any]:
    """Compares an engine's merged items with TripSync's expected merge."""
    want = expected["items"]
    conflict_pairs = {(item_id, field): (a, b) for item_id, field, a, b in expected["conflicts"]}
    mismatches = 0
    kept = 0
    for item_id in want.keys() & merged.keys():
        got = merged[item_id]
        for field in ITEM_FIELDS:
            value = got.get(field)
            pair = conflict_pairs.get((item_id, field))
            if pair is not None:
                kept += (value == pair[0]) + (value == pair[1])
            elif value != want[item_id][field]:
                mismatches += 1
    hidden = expected["edits_under_concurrent_delete"]
    return {
        "items_after_merge": len(merged),
        "items_expected": len(want),
        "missing_items": len(want.keys() - merged.keys()),
        "extra_items": len(merged.keys() - want.keys()),
        "field_mismatches": mismatches,
        "conflicting_fields": len(conflict_pairs),
        "conflict_values_kept": kept,
        "conflict_values_lost": 2 * len(conflict_pairs) - kept,
        "edits_under_concurrent_delete": len(hidden),
        "edits_under_concurrent_delete_reachable": sum(1 for item_id, _ in hidden if item_id in merged),
    }


# ============================================================================================
# The engines. Each adapter is imported only in its own subprocess.
# ============================================================================================


def read_file(path: Path) -> bytes:
    """The one read every engine's timed run uses."""
    with open(path, "rb") as handle:
        return handle.read()


def write_file(path: Path, data: bytes) -> None:
    """The one write every engine uses (plain write, no fsync)."""
    with open(path, "wb") as handle:
        handle.write(data)


class LoroEngine:
    """Loro (PyPI `loro`): a root LoroMap `items` of LoroMap items."""

    name = "loro"
    package = "loro"

    def __init__(self) -> None:
        import loro  # noqa: F401 (imported here so the other engine's process never loads it)

        self.loro = loro

    def build(self, plan: dict[str, Any]) -> tuple[bytes, bytes, bytes]:
        LoroDoc, LoroMap, ExportMode = self.loro.LoroDoc, self.loro.LoroMap, self.loro.ExportMode
        base = LoroDoc()
        base.peer_id = 1
        items = base.get_map("items")
        for item_id, fields in plan["base"]:
            item = items.insert_container(item_id, LoroMap())
            for field in ITEM_FIELDS:
                item.insert(field, fields[field])
        base.commit()
        base_bytes = base.export(ExportMode.Snapshot())
        replicas = []
        for peer, side in ((2, "a"), (3, "b")):
            doc = LoroDoc()
            doc.peer_id = peer
            doc.import_(base_bytes)
            items = doc.get_map("items")
            for op in plan["ops"][side]:
                if op[0] == "set":
                    items.get(op[1]).container.insert(op[2], op[3])
                elif op[0] == "add":
                    item = items.insert_container(op[1], LoroMap())
                    for field in ITEM_FIELDS:
                        item.insert(field, op[2][field])
                else:
                    items.delete(op[1])
                doc.commit()  # one transaction per user action
            replicas.append(doc.export(ExportMode.Snapshot()))
        return base_bytes, replicas[0], replicas[1]

    def load_merge_save(self, path_a: Path, path_b: Path, out: Path) -> tuple[float, float, float]:
        LoroDoc, ExportMode = self.loro.LoroDoc, self.loro.ExportMode
        start = time.perf_counter()
        doc = LoroDoc()
        doc.import_(read_file(path_a))
        loaded = time.perf_counter()
        doc.import_(read_file(path_b))
        merged = time.perf_counter()
        write_file(out, doc.export(ExportMode.Snapshot()))
        saved = time.perf_counter()
        return loaded - start, merged - loaded, saved - merged

    def read_items(self, path: Path) -> dict[str, Any]:
        doc = self.loro.LoroDoc()
        doc.import_(read_file(path))
        return doc.get_deep_value().get("items", {})


class PycrdtEngine:
    """Yrs through pycrdt (PyPI `pycrdt`): a root Map `items` of Map items."""

    name = "pycrdt"
    package = "pycrdt"

    def __init__(self) -> None:
        import pycrdt  # noqa: F401

        self.pycrdt = pycrdt

    def build(self, plan: dict[str, Any]) -> tuple[bytes, bytes, bytes]:
        Doc, Map = self.pycrdt.Doc, self.pycrdt.Map
        base = Doc(client_id=1)
        items = base.get("items", type=Map)
        with base.transaction():
            for item_id, fields in plan["base"]:
                items[item_id] = Map({field: fields[field] for field in ITEM_FIELDS})
        base_bytes = base.get_update()
        replicas = []
        for client, side in ((2, "a"), (3, "b")):
            doc = Doc(client_id=client)
            doc.apply_update(base_bytes)
            items = doc.get("items", type=Map)
            for op in plan["ops"][side]:
                with doc.transaction():  # one transaction per user action
                    if op[0] == "set":
                        items[op[1]][op[2]] = op[3]
                    elif op[0] == "add":
                        items[op[1]] = Map({field: op[2][field] for field in ITEM_FIELDS})
                    else:
                        del items[op[1]]
            replicas.append(doc.get_update())
        return base_bytes, replicas[0], replicas[1]

    def load_merge_save(self, path_a: Path, path_b: Path, out: Path) -> tuple[float, float, float]:
        Doc = self.pycrdt.Doc
        start = time.perf_counter()
        doc = Doc()
        doc.apply_update(read_file(path_a))
        loaded = time.perf_counter()
        doc.apply_update(read_file(path_b))
        merged = time.perf_counter()
        write_file(out, doc.get_update())
        saved = time.perf_counter()
        return loaded - start, merged - loaded, saved - merged

    def read_items(self, path: Path) -> dict[str, Any]:
        doc = self.pycrdt.Doc()
        doc.apply_update(read_file(path))
        return doc.get("items", type=self.pycrdt.Map).to_py()


def make_engine(name: str) -> LoroEngine | PycrdtEngine:
    return {"loro": LoroEngine, "pycrdt": PycrdtEngine}[name]()


def ru_maxrss_kib() -> int:
    """`getrusage(RUSAGE_SELF).ru_maxrss` (KiB on Linux). Linux carries the high-water mark of
    the process that called fork/exec into the child, so this is exact only because the
    parent that starts the workers stays small (it never loads a trip file)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def peak_rss_kib() -> int:
    """This process's peak resident set size in KiB: `VmHWM` of /proc/self/status, the same
    source `tripsync-bench` uses (it starts afresh at execve, whatever the parent's size), or
    ru_maxrss where /proc is missing."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return ru_maxrss_kib()


def engine_version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


# ============================================================================================
# Worker subprocesses (internal): `_worker prepare WORKDIR A B`, `_worker setup WORKDIR ENGINE`,
# `_worker run WORKDIR ENGINE REPEAT`. Each prints one JSON object on stdout.
# ============================================================================================


def worker_prepare(work_dir: Path, path_a: str, path_b: str) -> dict[str, Any]:
    """Reads the two trip files and writes plan.json (base and operations) and expected.json
    (TripSync's merge of them) into the work dir; returns the scenario summary."""
    plan = derive_plan(read_trip(path_a), read_trip(path_b))
    expected = expected_merge(plan)
    (work_dir / "plan.json").write_text(json.dumps(plan, ensure_ascii=False))
    (work_dir / "expected.json").write_text(json.dumps(expected, ensure_ascii=False))
    return {
        "scenario": {
            "a": path_a,
            "b": path_b,
            "a_file_bytes": os.path.getsize(path_a),
            "b_file_bytes": os.path.getsize(path_b),
            "base_items": len(plan["base"]),
            "ops": plan["counts"],
            "reconstruction": plan["reconstruction"],
        },
        "expected": {
            "items": len(expected["items"]),
            "conflicting_fields": len(expected["conflicts"]),
            "edits_under_concurrent_delete": len(expected["edits_under_concurrent_delete"]),
            "tripsync_conflict_values_lost": 0,  # by design: the loser stays in `conflicts`
        },
    }


def worker_setup(engine_name: str, work_dir: Path) -> dict[str, Any]:
    """Builds the engine's two replica files from the plan (untimed part of the benchmark)."""
    plan = json.loads((work_dir / "plan.json").read_bytes())
    engine = make_engine(engine_name)
    start = time.perf_counter()
    base_bytes, a_bytes, b_bytes = engine.build(plan)
    seconds = time.perf_counter() - start
    write_file(work_dir / f"{engine_name}.base.bin", base_bytes)
    write_file(work_dir / f"{engine_name}.a.bin", a_bytes)
    write_file(work_dir / f"{engine_name}.b.bin", b_bytes)
    return {
        "setup_seconds": round(seconds, 3),
        "base_bytes": len(base_bytes),
        "replica_a_bytes": len(a_bytes),
        "replica_b_bytes": len(b_bytes),
        "replica_a_gzip_bytes": len(gzip.compress(a_bytes, mtime=0)),
        "replica_b_gzip_bytes": len(gzip.compress(b_bytes, mtime=0)),
    }


def worker_run(engine_name: str, work_dir: Path, repeats: int) -> dict[str, Any]:
    """The timed load-merge-save runs, then the peak RSS, then (untimed) the correctness check
    of the merged file against expected.json."""
    engine = make_engine(engine_name)
    baseline = peak_rss_kib()
    path_a, path_b = work_dir / f"{engine_name}.a.bin", work_dir / f"{engine_name}.b.bin"
    out = work_dir / f"{engine_name}.merged.bin"
    samples: list[tuple[float, float, float]] = []
    gc.disable()  # as timeit does; the previous run's documents are freed by reference counting
    try:
        for run in range(repeats + 1):  # run 0 is the warm-up
            gc.collect()
            phases = engine.load_merge_save(path_a, path_b, out)
            if run > 0:
                samples.append(phases)
    finally:
        gc.enable()
    peak, ru_maxrss = peak_rss_kib(), ru_maxrss_kib()
    merged_bytes = read_file(out)
    check = check_merge(json.loads((work_dir / "expected.json").read_bytes()), engine.read_items(out))

    def ms(values: list[float]) -> dict[str, float]:
        return {"median": round(statistics.median(values) * 1e3, 3), "min": round(min(values) * 1e3, 3)}

    totals = [sum(phases) for phases in samples]
    return {
        "version": engine_version(engine.package),
        "repeats": repeats,
        "total_ms": ms(totals),
        "load_ms": ms([p[0] for p in samples]),
        "merge_ms": ms([p[1] for p in samples]),
        "save_ms": ms([p[2] for p in samples]),
        "samples_ms": [round(t * 1e3, 3) for t in totals],
        "baseline_rss_kib": baseline,
        "peak_rss_kib": peak,
        "ru_maxrss_kib": ru_maxrss,
        "merged_bytes": len(merged_bytes),
        "merged_gzip_bytes": len(gzip.compress(merged_bytes, mtime=0)),
        **check,
    }


def run_worker(arguments: list[str]) -> None:
    kind, work_dir = arguments[0], Path(arguments[1])
    try:
        if kind == "prepare":
            result = worker_prepare(work_dir, arguments[2], arguments[3])
        elif kind == "setup":
            result = worker_setup(arguments[2], work_dir)
        else:
            result = worker_run(arguments[2], work_dir, int(arguments[3]))
    except TripFileError as error:
        sys.exit(f"bench-crdt: {error}")
    print(json.dumps(result))


def call_worker(*arguments: str) -> dict[str, Any]:
    """Runs one worker subprocess and returns the JSON object it printed last."""
    completed = subprocess.run([sys.executable, str(SCRIPT), "_worker", *arguments], stdout=subprocess.PIPE)
    if completed.returncode != 0:
        sys.exit(f"bench-crdt: worker `{' '.join(arguments[:1] + arguments[2:3])}` failed "
                 f"(exit status {completed.returncode})")
    return json.loads(completed.stdout.decode().strip().splitlines()[-1])


# ============================================================================================
# compare
# ============================================================================================


def compare(args: argparse.Namespace) -> None:
    """Orchestrates the workers. This process never loads a trip file or an engine, so it stays
    small and the workers' peak RSS is theirs alone."""
    engines = [name.strip() for name in args.engines.split(",") if name.strip()]
    for name in engines:
        if name not in ENGINES:
            sys.exit(f"bench-crdt: unknown engine {name!r} (known: {', '.join(ENGINES)})")
    for path in (args.a, args.b):
        if not os.path.isfile(path):
            sys.exit(f"bench-crdt: {path}: no such file")
    work_dir = Path(tempfile.mkdtemp(prefix="tripsync-bench-crdt-"))
    results = []
    try:
        log(f"reading {args.a} and {args.b}")
        prepared = call_worker("prepare", str(work_dir), os.path.abspath(args.a), os.path.abspath(args.b))
        base_items = prepared["scenario"]["base_items"]
        repeats = args.repeat or (5 if base_items <= 10_000 else 3)
        for name in engines:
            log(f"{name}: building replicas A and B ({base_items} base items, untimed)")
            result = {"engine": name}
            result.update(call_worker("setup", str(work_dir), name))
            log(f"{name}: load + merge + save, 1 warm-up + {repeats} timed runs")
            result.update(call_worker("run", str(work_dir), name, str(repeats)))
            results.append(result)
    finally:
        if args.keep:
            log(f"kept {work_dir}")
        else:
            shutil.rmtree(work_dir, ignore_errors=True)

    report = {
        "tool": "scripts/bench-crdt.py",
        "python": sys.version.split()[0],
        **prepared,
        "repeats": repeats,
        "engines": results,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(markdown(report))


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table plus notes."""
    scenario, expected = report["scenario"], report["expected"]

    def mib(kib: int) -> str:
        return f"{kib / 1024:.0f}"

    def ops(side: str) -> str:
        counts = scenario["ops"][side]
        return f"{counts['set']} field edits, {counts['add']} adds, {counts['delete']} deletes"

    lines = [
        f"Scenario: {scenario['base_items']} base items; A: {ops('a')}; B: {ops('b')}; "
        f"trip files A {scenario['a_file_bytes']:,} bytes, B {scenario['b_file_bytes']:,} bytes.",
        "",
        "| engine | version | load+merge+save median ms | min ms | load / merge / save ms (median) "
        "| peak RSS MiB (baseline) | replica A / B / merged bytes (gzip) "
        "| items after merge (expected) | conflicting values kept / lost |",
        "|---|---|---:|---:|---|---:|---|---:|---:|",
    ]
    for r in report["engines"]:
        lines.append(
            f"| {r['engine']} | {r['version']} | {r['total_ms']['median']:.1f} | {r['total_ms']['min']:.1f} "
            f"| {r['load_ms']['median']:.1f} / {r['merge_ms']['median']:.1f} / {r['save_ms']['median']:.1f} "
            f"| {mib(r['peak_rss_kib'])} ({mib(r['baseline_rss_kib'])}) "
            f"| {r['replica_a_bytes']:,} / {r['replica_b_bytes']:,} / {r['merged_bytes']:,} "
            f"({r['replica_a_gzip_bytes']:,} / {r['replica_b_gzip_bytes']:,} / {r['merged_gzip_bytes']:,}) "
            f"| {r['items_after_merge']} ({r['items_expected']}) "
            f"| {r['conflict_values_kept']} / {r['conflict_values_lost']} |")
    lines += [
        "",
        f"Each time is the median (and min) of {report['repeats']} timed runs after one warm-up run: "
        "read A from disk and decode it, read B and import it, encode the merged state and write it.",
        f"{expected['conflicting_fields']} fields were changed by both sides: TripSync keeps both values "
        f"({2 * expected['conflicting_fields']} kept, 0 lost), the engines keep one value per map key.",
    ]
    for r in report["engines"]:
        problems = [f"{r[k]} {k.replace('_', ' ')}" for k in ("missing_items", "extra_items", "field_mismatches") if r[k]]
        lines.append(
            f"{r['engine']}: per-field merge {'matches TripSync outside conflicts' if not problems else 'differs: ' + ', '.join(problems)}; "
            f"{r['edits_under_concurrent_delete'] - r['edits_under_concurrent_delete_reachable']} of "
            f"{r['edits_under_concurrent_delete']} edits to concurrently deleted items unreachable "
            f"(TripSync keeps them restorable); setup {r['setup_seconds']:.1f} s (untimed).")
    return "\n".join(lines)


# ============================================================================================
# --make-scenario N DIR: a development stand-in for `tripsync-bench generate`
# ============================================================================================

TITLES = ["Breakfast at the hotel", "Walking tour of the old town", "Lunch at Time Out Market", "Museum visit",
          "Train to Sintra", "Dinner with friends", "Coffee at A Brasileira", "Flight TP 201",
          "Check in at the apartment", "Boat trip on the river", "Fado night", "Day at the beach",
          "Tram 28 ride", "Visit the castle", "Shopping in Chiado", "Concert in the park"]
PLACES = ["Mercado da Ribeira", "Rua Augusta 12, Lisboa", "Castelo de São Jorge", "Belém Tower",
          "Central Park, New York", "MoMA, 11 W 53rd St", "Shinjuku Station", "Praça do Comércio"]
NOTES = ["Book a table for six.\nAsk for the terrace.", "Tickets are in the shared folder.",
         "Bring sunscreen and water", "Meet at the lobby 15 minutes before", "Cash only — €20 each",
         "Sam has the reservation number", "Check opening hours on Monday", "Rain plan: the aquarium"]
ZONES = ["Europe/Lisbon", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kathmandu",
         "Pacific/Kiritimati", "Europe/Berlin", "America/Sao_Paulo"]


class ScenarioWriter:
    """Stamps writes like a replica (hybrid logical clock counters) from a seeded generator, with
    items shaped like `TripGenerator` in Sources/TripSyncFixtures."""

    def __init__(self, seed: int = 42) -> None:
        self.random = random.Random(seed)
        self.counter = 1_811_000_000_000
        self.device_a, self.device_b, self.trip_id = self.uuid(), self.uuid(), self.uuid()

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.random.getrandbits(128), version=4))

    def stamp(self, device: str) -> list[Any]:
        self.counter += self.random.randint(1, 49)
        return [self.counter, device]

    def register(self, value: Any, device: str) -> dict[str, Any]:
        return {"value": value, "rev": self.stamp(device)}

    def item(self, index: int, device: str) -> dict[str, Any]:
        day = (_dt.date(2027, 6, 1) + _dt.timedelta(days=index % 30)).isoformat()
        zone = self.random.choice(ZONES)
        kind = self.random.randrange(10)
        start = end = None
        if kind == 1:
            start = {"date": day}
        elif kind >= 2:
            hour = self.random.randrange(6, 22)
            start = {"local": f"{day}T{hour:02d}:{self.random.randrange(4) * 15:02d}", "zone": zone}
            if kind >= 8:
                end = {"local": f"{day}T{min(hour + 2, 23):02d}:30", "zone": zone}
        sort_key = base36(index).upper() + "V"
        place = None if self.random.randrange(4) == 0 else self.random.choice(PLACES)
        note = None if self.random.randrange(3) == 0 else self.random.choice(NOTES)
        values = {"title": f"{self.random.choice(TITLES)} #{index}", "sortKey": sort_key,
                  "start": start, "end": end, "place": place, "note": note}
        return {field: self.register(values[field], device) for field in ITEM_FIELDS}


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, digit = divmod(number, 36)
        text = digits[digit] + text
        if number == 0:
            return text


def canonical(doc: Any) -> bytes:
    """The canonical bytes of docs/FORMAT.md."""
    return (json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n").encode()


def make_scenario(n: int, out_dir: str) -> None:
    """Writes DIR/a.trip.json.gz and DIR/b.trip.json.gz: one trip of `n` items, diverged as the
    module docstring describes. Deterministic (seed 42). B deletes items 1, 5, 9, ... of the
    retitled ones and the last items of the trip. Both files pass `tripsync validate` while
    A's n + n/100 items stay within FORMAT.md's 100,000 (so up to n = 99,009); at n = 100,000
    A holds 101,000 items, which this script reads all the same."""
    if n < 100:
        sys.exit("bench-crdt: --make-scenario needs N >= 100 (so that N/100 is at least 1)")
    w = ScenarioWriter()
    a, b = w.device_a, w.device_b
    trip_name = w.register("Lisbon & New York 2027", a)
    device_names = {a: {"name": w.register("Laptop 1", a)}, b: {"name": w.register("Laptop 2", b)}}
    ids = [w.uuid() for _ in range(n)]
    base_items = {item_id: w.item(index, (a, b)[index % 2]) for index, item_id in enumerate(ids)}
    base_counter = w.counter
    # The base clock: each device's greatest counter (items are written by a and b in turn,
    # after the trip and device names).
    base_clock = {d: max(r["rev"][0] for item in base_items.values() for r in item.values() if r["rev"][1] == d)
                  for d in (a, b)}

    edited = n // 10        # items 0 ..< n/10: A retitles, B edits the note
    per_hundred = n // 100  # A adds, B deletes

    # Replica A, writing after the base.
    w.counter = base_counter
    a_items = dict(base_items)
    for index in range(edited):
        item_id = ids[index]
        title = base_items[item_id]["title"]["value"]
        a_items[item_id] = {**base_items[item_id], "title": w.register(f"{title} (moved to the morning)", a)}
    for index in range(per_hundred):
        a_items[w.uuid()] = w.item(n + index, a)
    a_clock = {a: w.counter, b: base_clock[b]}

    # Replica B, concurrently (its counters interleave with A's, as real clocks would).
    w.counter = base_counter
    b_items = dict(base_items)
    for index in range(edited):
        item_id = ids[index]
        changed = {**b_items[item_id], "note": w.register(f"Confirmed by Sam, booking #{index}", b)}
        if index % 4 == 0:  # every 4th: a same-field conflict with A's retitle
            changed["title"] = w.register(f"{base_items[item_id]['title']['value']} (Sam's pick)", b)
        b_items[item_id] = changed
    retitled_deletes = [index for index in range(edited) if index % 4 == 1][: per_hundred // 2]
    other_deletes = list(range(n - 1, n - 1 - (per_hundred - len(retitled_deletes)), -1))
    b_tombstones = {}
    for index in retitled_deletes + other_deletes:
        item_id = ids[index]
        seen = {a: base_clock[a], b: w.counter}
        rev = w.stamp(b)
        at = _dt.datetime.fromtimestamp(rev[0] / 1000, tz=_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        b_tombstones[item_id] = {"deleted": {"value": {"at": at, "seen": seen}, "rev": rev},
                                 "item": b_items.pop(item_id)}
    b_clock = {a: base_clock[a], b: w.counter}

    def document(device: str, clock: dict[str, int], items: dict, tombstones: dict) -> dict[str, Any]:
        acks = {a: base_clock, b: base_clock}
        acks[device] = clock
        return {"schemaVersion": 2, "tripId": w.trip_id, "deviceId": device, "clock": clock,
                "trip": {"name": trip_name}, "devices": device_names, "items": items,
                "tombstones": tombstones, "acks": acks}

    os.makedirs(out_dir, exist_ok=True)
    for name, doc in (("a", document(a, a_clock, a_items, {})), ("b", document(b, b_clock, b_items, b_tombstones))):
        path = os.path.join(out_dir, f"{name}.trip.json.gz")
        write_file(Path(path), gzip.compress(canonical(doc), mtime=0))
        print(path)


# ============================================================================================
# Command line
# ============================================================================================


def main() -> None:
    if sys.argv[1:2] == ["_worker"]:  # internal; already inside the venv
        run_worker(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(
        description="Load-merge-save benchmark of Loro and Yrs (pycrdt) on two TripSync replicas.")
    parser.add_argument("--make-scenario", nargs=2, metavar=("N", "DIR"),
                        help="write DIR/a.trip.json.gz and DIR/b.trip.json.gz for N items and exit")
    commands = parser.add_subparsers(dest="command")
    cmp_parser = commands.add_parser("compare", help="measure load + merge + save of replicas A and B")
    cmp_parser.add_argument("--a", required=True, help="replica A's trip file (.trip.json or .trip.json.gz)")
    cmp_parser.add_argument("--b", required=True, help="replica B's trip file")
    cmp_parser.add_argument("--repeat", type=int, default=None,
                            help="timed runs per engine after one warm-up (default 5 up to 10,000 items, else 3)")
    cmp_parser.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    cmp_parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated subset of: loro,pycrdt")
    cmp_parser.add_argument("--keep", action="store_true", help="keep the temp dir with the engines' files")
    args = parser.parse_args()

    if args.make_scenario:
        count, out_dir = args.make_scenario
        if not count.isdigit():
            parser.error("--make-scenario N DIR: N must be a positive integer")
        make_scenario(int(count), out_dir)
        return
    if args.command != "compare":
        parser.error("give `compare --a A --b B` or `--make-scenario N DIR`")
    if args.repeat is not None and args.repeat < 1:
        parser.error("--repeat must be at least 1")
    ensure_venv_and_reexec()
    compare(args)


if __name__ == "__main__":
    main()
