#!/usr/bin/env python3
"""Strip real JPEGs made by Pillow through TripSync and check the copies with Pillow and exifread.

    python3 Tests/exif/check.py [--bench PATH] [--keep DIR]

Independent of the Swift code and its fixtures: Pillow writes the JPEGs (64x48 pixels, baseline
and progressive, Exif in both byte orders with orientation, make, model, a capture time in the
Exif directory, the GPS directory; some with an IFD1 thumbnail added here by hand, some with an
XMP packet holding GPS and other properties), `tripsync-bench strip-location IN OUT` strips each
(the path `tripsync attach --strip-location` will take), and for every copy:

- exifread finds no GPS tag and no GPS pointer (and found them in the original); Pillow's
  getexif() has no GPS directory;
- every other tag exifread reads is the same (orientation, make, model, capture time, the
  thumbnail's bytes), and Pillow reads the same orientation;
- the pixels Pillow decodes are identical, the file has the same length, and every byte outside
  the APP1 segments (found by this script's own marker walk) is the same;
- the GPS values' bytes (the seconds rationals) and the XMP GPS texts are gone; the other XMP
  properties are still there;
- a JPEG without location comes back byte for byte.

Pillow and exifread are installed into Tests/exif/.venv (ignored by git) the first time; when
`import PIL, exifread` fails, the script makes that environment and runs itself again inside it.
The bench binary defaults to .build/debug/tripsync-bench (built with `swift build --product
tripsync-bench` when missing). Ends with "N passed, M failed"; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VENV = HERE / ".venv"
PACKAGES = ["pillow==13.0.0", "exifread==3.5.1"]


def ensure_packages() -> None:
    try:
        import exifread  # noqa: F401
        import PIL  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TRIPSYNC_EXIF_VENV") == "1":
        sys.exit(f"Pillow or exifread is still missing in {VENV}")
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import PIL, exifread"], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES], check=True)
    env = dict(os.environ, TRIPSYNC_EXIF_VENV="1")
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


ensure_packages()

import exifread  # noqa: E402
from PIL import Image  # noqa: E402

XMP_GPS = b"""<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmp:CreatorTool="TripSync check" exif:GPSLatitude="38,42.474N" exif:GPSLongitude="9,8.192W">
 <exif:GPSAltitude>7/1</exif:GPSAltitude>
 <xmp:Label>Lisbon trip</xmp:Label>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""
XMP_GPS_TEXTS = [b"38,42.474N", b"9,8.192W", b"GPSAltitude", b"GPSLatitude"]
XMP_KEPT_TEXTS = [b'xmp:CreatorTool="TripSync check"', b"<xmp:Label>Lisbon trip</xmp:Label>"]

# 38 deg 42' 28.44" N, 9 deg 8' 11.52" W: Pillow stores the seconds as 711/25 and 288/25.
GPS = {1: "N", 2: (38.0, 42.0, 28.44), 3: "W", 4: (9.0, 8.0, 11.52), 5: 0, 6: 7.0}
SECONDS = [(711, 25), (288, 25)]


def picture() -> Image.Image:
    image = Image.new("RGB", (64, 48))
    image.putdata([((x * 4) % 256, (y * 5) % 256, (x * y) % 256) for y in range(48) for x in range(64)])
    return image


def exif_bytes(endian: str, gps: bool, thumbnail: bytes | None) -> bytes:
    exif = Image.Exif()
    exif.endian = endian
    exif[0x0112] = 6
    exif[0x010F] = "TripSyncCam"
    exif[0x0110] = "Model Z"
    exif[0x8769] = {0x9003: "2027:06:10 12:30:00"}
    if gps:
        exif[0x8825] = GPS
    data = exif.tobytes()  # b"Exif\0\0" + TIFF
    return data if thumbnail is None else with_thumbnail(data, thumbnail)


def with_thumbnail(data: bytes, thumbnail: bytes) -> bytes:
    """Appends IFD1 (JPEGInterchangeFormat and its length) and the thumbnail to Pillow's TIFF."""
    tiff = bytearray(data[6:])
    e = "<" if tiff[:2] == b"II" else ">"
    ifd0 = struct.unpack_from(e + "I", tiff, 4)[0]
    count = struct.unpack_from(e + "H", tiff, ifd0)[0]
    link = ifd0 + 2 + 12 * count
    assert struct.unpack_from(e + "I", tiff, link)[0] == 0, "Pillow wrote an IFD1 already"
    if len(tiff) % 2:
        tiff += b"\0"
    ifd1 = len(tiff)
    struct.pack_into(e + "I", tiff, link, ifd1)
    thumb_at = ifd1 + 2 + 3 * 12 + 4
    tiff += struct.pack(e + "H", 3)
    tiff += struct.pack(e + "HHIHH", 0x0103, 3, 1, 6, 0)
    tiff += struct.pack(e + "HHII", 0x0201, 4, 1, thumb_at)
    tiff += struct.pack(e + "HHII", 0x0202, 4, 1, len(thumbnail))
    tiff += struct.pack(e + "I", 0)
    tiff += thumbnail
    return data[:6] + bytes(tiff)


def app1_ranges(data: bytes) -> list[range]:
    """The APP1 segments (marker to end) and the COM segments, by a plain marker walk."""
    assert data[:2] == b"\xff\xd8"
    found, pos = [], 2
    while pos + 4 <= len(data) and data[pos] == 0xFF:
        marker = data[pos + 1]
        if marker in (0xD9, 0xDA):
            break
        length = struct.unpack_from(">H", data, pos + 2)[0]
        if marker in (0xE1, 0xFE):
            found.append(range(pos, pos + 2 + length))
        pos += 2 + length
    return found


def tags(path: Path) -> dict[str, object]:
    with open(path, "rb") as handle:
        read = exifread.process_file(handle, details=True)
    return {key: (bytes(value) if key == "JPEGThumbnail" else str(value)) for key, value in read.items()}


class Checker:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, condition: bool, detail: str = "") -> None:
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=str(ROOT / ".build" / "debug" / "tripsync-bench"))
    parser.add_argument("--keep", help="write the JPEGs and their copies into this folder")
    args = parser.parse_args()
    bench = Path(args.bench)
    if not bench.exists():
        subprocess.run(["swift", "build", "--product", "tripsync-bench"], cwd=ROOT, check=True)

    thumb_buffer = io.BytesIO()
    picture().resize((16, 12)).save(thumb_buffer, "JPEG", quality=70)
    thumbnail = thumb_buffer.getvalue()

    cases = []
    for endian in ("<", ">"):
        for thumb in (False, True):
            for xmp in (False, True):
                for progressive in (False, True):
                    cases.append((endian, thumb, xmp, progressive))
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="tripsync-exif-"))
    folder.mkdir(parents=True, exist_ok=True)
    out = Checker()
    image = picture()

    for endian, thumb, xmp, progressive in cases:
        name = f"{'le' if endian == '<' else 'be'}{'-thumb' if thumb else ''}{'-xmp' if xmp else ''}{'-progressive' if progressive else ''}"
        source, copy = folder / f"{name}.jpg", folder / f"{name}-stripped.jpg"
        options = {"exif": exif_bytes(endian, True, thumbnail if thumb else None), "quality": 90, "progressive": progressive}
        if xmp:
            options["xmp"] = XMP_GPS
        image.save(source, "JPEG", **options)
        result = subprocess.run([str(bench), "strip-location", str(source), str(copy)], capture_output=True, text=True)
        out.check(f"{name}: strip-location exits 0", result.returncode == 0, result.stderr.strip())
        if result.returncode != 0:
            continue
        out.check(f"{name}: reports the location", "location 38.707900, -9.136533 (Exif GPS)" in result.stdout, result.stdout)
        before, after = tags(source), tags(copy)
        gps_before = sorted(k for k in before if k.startswith("GPS ") or k == "Image GPSInfo")
        gps_after = sorted(k for k in after if k.startswith("GPS ") or k == "Image GPSInfo")
        out.check(f"{name}: exifread saw GPS in the original", len(gps_before) >= 7, str(gps_before))
        out.check(f"{name}: exifread sees no GPS in the copy", gps_after == [], str(gps_after))
        kept_before = {k: v for k, v in before.items() if k not in gps_before}
        out.check(f"{name}: every other tag is the same", kept_before == after,
                  str({k for k in set(kept_before) | set(after) if kept_before.get(k) != after.get(k)}))
        out.check(f"{name}: orientation and camera kept", after.get("Image Orientation") == "Rotated 90 CW"
                  and after.get("Image Make") == "TripSyncCam" and after.get("EXIF DateTimeOriginal") == "2027:06:10 12:30:00", str(after))
        if thumb:
            out.check(f"{name}: the thumbnail is the same bytes", after.get("JPEGThumbnail") == thumbnail)
        with Image.open(source) as a, Image.open(copy) as b:
            out.check(f"{name}: pixels identical", a.tobytes() == b.tobytes() and a.size == b.size)
            exif = b.getexif()
            out.check(f"{name}: Pillow finds no GPS directory", 0x8825 not in exif and not exif.get_ifd(0x8825), str(dict(exif)))
            out.check(f"{name}: Pillow reads orientation 6", exif.get(0x0112) == 6)
        original, stripped = source.read_bytes(), copy.read_bytes()
        out.check(f"{name}: same length", len(original) == len(stripped))
        if len(original) == len(stripped):
            spans = app1_ranges(original)
            outside = [i for i in range(len(original)) if original[i] != stripped[i] and not any(i in r for r in spans)]
            out.check(f"{name}: bytes outside APP1 unchanged", outside == [], f"{len(outside)} bytes differ, first at {outside[:1]}")
        for numerator, denominator in SECONDS:
            value = struct.pack(endian + "II", numerator, denominator)
            out.check(f"{name}: GPS value {numerator}/{denominator} gone", value in original and value not in stripped)
        if xmp:
            for text in XMP_GPS_TEXTS:
                out.check(f"{name}: XMP {text.decode()} gone", text in original and text not in stripped)
            for text in XMP_KEPT_TEXTS:
                out.check(f"{name}: XMP {text.decode()[:20]}… kept", text in stripped)

    # No location: byte for byte, and said so.
    plain, plain_copy = folder / "no-gps.jpg", folder / "no-gps-stripped.jpg"
    image.save(plain, "JPEG", exif=exif_bytes("<", False, thumbnail), quality=90)
    result = subprocess.run([str(bench), "strip-location", str(plain), str(plain_copy)], capture_output=True, text=True)
    out.check("no-gps: strip-location exits 0 and says no location", result.returncode == 0 and "no location" in result.stdout, result.stdout + result.stderr)
    out.check("no-gps: the copy is the same bytes", plain_copy.exists() and plain_copy.read_bytes() == plain.read_bytes())
    # Not a JPEG: unchanged, said so.
    png, png_copy = folder / "picture.png", folder / "picture-stripped.png"
    image.save(png, "PNG")
    result = subprocess.run([str(bench), "strip-location", str(png), str(png_copy)], capture_output=True, text=True)
    out.check("png: not a JPEG, copied unchanged", result.returncode == 0 and "not a JPEG" in result.stdout
              and png_copy.read_bytes() == png.read_bytes(), result.stdout + result.stderr)

    print(f"{out.passed} passed, {out.failed} failed ({len(cases) + 2} files{f' in {folder}' if args.keep else ''})")
    if not args.keep:
        shutil.rmtree(folder)
    return 1 if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
