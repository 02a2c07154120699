#!/usr/bin/env python3
"""Check the published JSON Schemas against the sample files.

    python3 -m pip install --quiet jsonschema
    python3 scripts/check-schemas.py [--strict]

- Every schema in SCHEMAS that exists passes Draft202012Validator.check_schema.
- Every valid sample (samples/*.trip.json(.gz), samples/warnings/*, and likewise under
  samples/v<N>/: v1, the older version, v3, v4, v5, v6 and v7) passes the schema of its folder. A folder
  may also hold files of other versions it lists (samples/v1/ holds the merge result of its
  schema 1 files, porto-merged.expected.trip.json, schema 3, 4, 5, 6 or 7 as the Swift tool last wrote
  it): such a file is checked against the schema of its own "schemaVersion". A version whose
  schema file does not exist yet is skipped.
- Every entry of <folder>/invalid/index.json with "schema": true names a file that parses as
  JSON (gunzipped if it starts with the gzip magic) and FAILS the schema, and every error the
  validator reports lies on the path of the entry's "pointer" (the pointer is inside the
  error's location or the error is inside the pointer), so the file breaks only that rule.
  Like a valid file, an invalid file declaring a version its folder lists is checked against
  that version's schema (samples/v4/invalid/attachments-in-schema-3.trip.json against v3).
- Entries with "schema": false are skipped before their file is read (such files may be
  gzip bombs, 100,000-deep nesting or not JSON at all). With --strict, a skipped file that
  does parse as JSON must PASS the schema, which confirms that the schema cannot see it.
- Every *.trip.json(.gz) in an invalid folder has an index entry and every entry a file.

Prints one line per file and ends with "N passed, M failed"; exits 1 on any failure.
"""

from __future__ import annotations

import gzip
import json
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:  # pragma: no cover
    sys.exit("jsonschema is not installed: python3 -m pip install --quiet jsonschema")

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

# schemaVersion -> schema file. A version whose schema file does not exist yet is skipped.
SCHEMAS = {
    7: ROOT / "Schemas" / "trip.v7.schema.json",
    6: ROOT / "Schemas" / "trip.v6.schema.json",
    5: ROOT / "Schemas" / "trip.v5.schema.json",
    4: ROOT / "Schemas" / "trip.v4.schema.json",
    3: ROOT / "Schemas" / "trip.v3.schema.json",
    2: ROOT / "Schemas" / "trip.v2.schema.json",
    1: ROOT / "Schemas" / "trip.v1.schema.json",
}


@dataclass
class SampleSet:
    """A folder of samples checked against one schema version."""
    version: int
    valid: list[Path]  # folders whose *.trip.json(.gz) files must pass
    invalid: Path | None  # folder with index.json whose schema:true files must fail
    # Other versions a valid file here may declare in its schemaVersion (then checked against
    # that version's schema); any other schemaVersion is checked against `version` and fails.
    also: tuple[int, ...] = ()


SAMPLE_SETS = [
    # The current version lives at the top of samples/.
    SampleSet(2, [SAMPLES, SAMPLES / "warnings"], SAMPLES / "invalid"),
    # Older versions live in samples/v<N>/ with the same layout. samples/v1/ also holds the
    # expected result of migrating and merging its files (written by the Swift tool).
    SampleSet(1, [SAMPLES / "v1", SAMPLES / "v1" / "warnings"], SAMPLES / "v1" / "invalid", also=(3, 4, 5, 6, 7)),
    # Schema 3 (members, owner, signed files) in samples/v3/ until it becomes the current
    # version. The signatures themselves are scripts/check-signatures.py's business.
    SampleSet(3, [SAMPLES / "v3"], SAMPLES / "v3" / "invalid"),
    # Schema 4 (attachments) in samples/v4/; its invalid/ also holds a schema 3 file with the
    # schema 4 key, checked against v3.
    SampleSet(4, [SAMPLES / "v4", SAMPLES / "v4" / "warnings"], SAMPLES / "v4" / "invalid", also=(3,)),
    # Schema 5 (trip zone, member names, successions) in samples/v5/; its invalid/ also holds
    # schema 4 files with one schema 5 key, checked against v4.
    SampleSet(5, [SAMPLES / "v5"], SAMPLES / "v5" / "invalid", also=(4,)),
    # Schema 6 (a member's encryption key in its grant) in samples/v6/; its invalid/ also holds
    # a schema 5 file with the schema 6 key, checked against v5.
    SampleSet(6, [SAMPLES / "v6"], SAMPLES / "v6" / "invalid", also=(5,)),
    # Schema 7 (sealed attachment bytes) in samples/v7/; its invalid/ also holds a schema 6 file
    # with the schema 7 key, checked against v6.
    SampleSet(7, [SAMPLES / "v7"], SAMPLES / "v7" / "invalid", also=(6,)),
]

GZIP_MAGIC = b"\x1f\x8b"


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def ok(self, path: Path, detail: str) -> None:
        self.passed += 1
        print(f"PASS {rel(path)}: {detail}")

    def fail(self, path: Path, detail: str) -> None:
        self.failed += 1
        print(f"FAIL {rel(path)}: {detail}")

    def skip(self, path: Path, detail: str) -> None:
        print(f"SKIP {rel(path)}: {detail}")


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def trip_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.name.endswith((".trip.json", ".trip.json.gz")))


def load_json(path: Path):
    """Parse a sample: gunzip when it starts with the gzip magic, then JSON (Python's lax reader)."""
    data = path.read_bytes()
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise ValueError(f"gzip: {e}") from e
    return json.loads(data.decode("utf-8"))


def pointer(path) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def on_path(a: str, b: str) -> bool:
    """True when one pointer is the other or inside it."""
    return a == b or a.startswith(b + "/") or b.startswith(a + "/") or a == "" or b == ""


def short(message: str, limit: int = 110) -> str:
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 3] + "..."


def load_validators(report: Report) -> dict[int, Draft202012Validator]:
    validators = {}
    for version, path in sorted(SCHEMAS.items(), reverse=True):
        if not path.exists():
            continue
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
            Draft202012Validator.check_schema(schema)
        except (ValueError, SchemaError) as e:
            report.fail(path, f"not a valid 2020-12 schema: {short(str(e))}")
            continue
        validators[version] = Draft202012Validator(schema)
        report.ok(path, "check_schema")
    return validators


def version_of(doc, sample_set: SampleSet) -> int:
    """The folder's version, or the file's own schemaVersion when the folder lists it in also."""
    declared = doc.get("schemaVersion") if isinstance(doc, dict) else None
    return declared if type(declared) is int and declared in sample_set.also else sample_set.version


def check_valid(path: Path, validators: dict[int, Draft202012Validator], sample_set: SampleSet,
                report: Report) -> None:
    try:
        doc = load_json(path)
    except (OSError, EOFError, ValueError, RecursionError) as e:
        report.fail(path, f"does not parse: {short(str(e))}")
        return
    version = version_of(doc, sample_set)
    validator = validators.get(version)
    if validator is None:
        schema = SCHEMAS.get(version)
        report.skip(path, f"no schema for v{version} yet ({rel(schema) if schema else 'none listed'})")
        return
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        report.fail(path, f"{len(errors)} schema error(s), first at {pointer(first.absolute_path)!r}: {short(first.message)}")
    else:
        report.ok(path, f"valid (v{version})")


def check_invalid_set(folder: Path, validators: dict[int, Draft202012Validator], sample_set: SampleSet,
                      strict: bool, report: Report) -> None:
    index_path = folder / "index.json"
    try:
        index = json.loads(index_path.read_text(encoding="utf-8"))
        assert isinstance(index, list)
    except (OSError, ValueError, AssertionError) as e:
        report.fail(index_path, f"cannot read the index: {short(str(e))}")
        return
    listed = set()
    for entry in index:
        name = entry.get("file") if isinstance(entry, dict) else None
        if not isinstance(name, str) or not isinstance(entry.get("pointer"), str) \
                or not isinstance(entry.get("schema"), bool) or not isinstance(entry.get("rule"), str):
            report.fail(index_path, f"malformed entry {entry!r}")
            continue
        if name in listed:
            report.fail(index_path, f"{name} listed twice")
            continue
        listed.add(name)
        path = folder / name
        if not path.is_file():
            report.fail(path, "listed in index.json but missing")
            continue
        expected = entry["pointer"]
        if not entry["schema"]:
            if not strict:
                report.skip(path, f"schema: false ({entry['rule']})")
                continue
            # --strict: the schema must accept whatever parses, since it claims it cannot see it.
            try:
                doc = load_json(path)
            except (OSError, EOFError, ValueError, RecursionError) as e:
                report.skip(path, f"schema: false, not JSON to a lax parser ({short(str(e), 60)})")
                continue
            errors = list(validators[version_of(doc, sample_set)].iter_errors(doc))
            if errors:
                first = errors[0]
                report.fail(path, f"schema: false but the schema rejects it at "
                                  f"{pointer(first.absolute_path)!r}: {short(first.message)}")
            else:
                report.ok(path, "schema: false and the schema indeed accepts it")
            continue
        try:
            doc = load_json(path)
        except (OSError, EOFError, ValueError, RecursionError) as e:
            report.fail(path, f"schema: true but it does not parse as JSON: {short(str(e))}")
            continue
        version = version_of(doc, sample_set)
        errors = list(validators[version].iter_errors(doc))
        if not errors:
            report.fail(path, f"schema: true but it passes the v{version} schema ({entry['rule']})")
            continue
        stray = [e for e in errors if not on_path(pointer(e.absolute_path), expected)]
        if stray:
            first = stray[0]
            report.fail(path, f"an error off the expected pointer {expected!r}: at "
                              f"{pointer(first.absolute_path)!r}: {short(first.message)}")
            continue
        first = min(errors, key=lambda e: len(e.absolute_path))
        report.ok(path, f"rejected at {pointer(first.absolute_path)!r}: {short(first.message, 80)}")
    for path in trip_files(folder):
        if path.name not in listed:
            report.fail(path, "not listed in index.json")


def main(argv: list[str]) -> int:
    strict = "--strict" in argv[1:]
    unknown = [a for a in argv[1:] if a != "--strict"]
    if unknown:
        print(__doc__)
        return 2
    report = Report()
    validators = load_validators(report)
    for sample_set in SAMPLE_SETS:
        folders = [f for f in sample_set.valid if f.is_dir()]
        has_invalid = sample_set.invalid is not None and (sample_set.invalid / "index.json").exists()
        if not folders and not has_invalid:
            continue
        for folder in folders:
            for path in trip_files(folder):
                check_valid(path, validators, sample_set, report)
        validator = validators.get(sample_set.version)
        if has_invalid and validator is None:
            schema = SCHEMAS.get(sample_set.version)
            report.skip(sample_set.invalid / "index.json",
                        f"no schema for v{sample_set.version} yet ({rel(schema) if schema else 'none listed'})")
        elif has_invalid:
            check_invalid_set(sample_set.invalid, validators, sample_set, strict, report)
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
