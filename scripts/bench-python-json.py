#!/usr/bin/env python3
"""Reference floors for the TripSync read benchmark (`tripsync-bench read-write` runs this).

    python3 scripts/bench-python-json.py [--repeat R] FILE...

For each FILE, prints one JSON line:

    {"file": ..., "gzip": bool, "file_bytes": N, "json_bytes": N, "repeats": R,
     "json_loads_mb_s": x, "inflate_mb_s": y or null}

- json_loads_mb_s: `json.loads` of the JSON bytes (a gzip file is inflated first, untimed).
- inflate_mb_s: `zlib.decompress(data, 31)` of a gzip file, in MB of JSON produced per second.

MB = 10^6 bytes, so the numbers compare directly with the Swift columns. Each time is the
median of R runs (default 5) after one untimed warm-up run; the garbage collector is off during
timed runs, as `timeit` does. Python 3.11 standard library only.
"""

import argparse
import gc
import json
import statistics
import sys
import time
import zlib


def median_seconds(repeats, body):
    """The median wall time in seconds of `repeats` calls of `body`, after one warm-up call."""
    body()
    samples = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            body()
            samples.append(time.perf_counter() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(samples)


def inflate_members(data):
    """Inflates every gzip member (TripSync writes large files as several 2 MiB members;
    `zlib.decompress(data, 31)` alone stops after the first)."""
    parts = []
    while data:
        inflater = zlib.decompressobj(31)
        parts.append(inflater.decompress(data))
        data = inflater.unused_data
    return b"".join(parts)


def measure(path, repeats):
    """Measures one file and returns its result dictionary."""
    with open(path, "rb") as handle:
        data = handle.read()
    is_gzip = data[:2] == b"\x1f\x8b"
    inflate_mb_s = None
    text = data
    if is_gzip:
        text = inflate_members(data)
        seconds = median_seconds(repeats, lambda: inflate_members(data))
        inflate_mb_s = len(text) / 1e6 / seconds
    seconds = median_seconds(repeats, lambda: json.loads(text))
    return {
        "file": path,
        "gzip": is_gzip,
        "file_bytes": len(data),
        "json_bytes": len(text),
        "repeats": repeats,
        "json_loads_mb_s": len(text) / 1e6 / seconds,
        "inflate_mb_s": inflate_mb_s,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per measurement (default 5)")
    parser.add_argument("files", nargs="+", metavar="FILE")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    for path in args.files:
        print(json.dumps(measure(path, args.repeat)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
