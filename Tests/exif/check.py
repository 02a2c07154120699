#!/usr/bin/env python3
"""Strip real JPEGs, PNGs, WebPs and HEICs made by Pillow through TripSync and check the copies with Pillow and exifread.

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

Then PNGs and WebPs made by Pillow (issue 26): Exif in both byte orders (`exif=`, PNG eXIf and
WebP EXIF), XMP with GPS (PNG: an iTXt chunk "XML:com.adobe.xmp", plain and zlib-compressed;
WebP: `xmp=`), 64x48 lossless pixels. For every copy:

- Pillow's getexif() has no GPS directory and keeps orientation, make, model and the capture
  time; exifread finds no GPS tag (PNG: read directly; WebP: exifread 3.5 misreads Pillow's
  WebP chunks, so the EXIF chunk's TIFF data, found by this script's own RIFF walk, is given to
  it as a TIFF file) and every other tag the same;
- the pixels are identical; the GPS rationals and XMP GPS texts are gone, the other XMP kept
  (compressed XMP, which cannot be edited in place, is left out and said so);
- PNG: every chunk's CRC holds (zlib.crc32) and every chunk but the metadata ones is the same
  bytes; WebP: the same length, the RIFF size right, the VP8X Exif and XMP flags match the
  chunks, and every chunk but EXIF and XMP is the same bytes;
- a PNG without location comes back byte for byte, and a GIF is refused (exit 1, nothing
  written), naming its type.

And HEICs made by pillow-heif (libheif: an Exif item and an XMP item in mdat), Exif in both byte
orders, with and without XMP: the same length (edited in place), the pixels pillow-heif decodes
identical, no GPS directory for Pillow and none for exifread (given the Exif item's TIFF data,
found by its header bytes, as a TIFF file: exifread 3.5 requires an "Exif\0\0" prefix libheif
does not write), make, model and capture time kept, the GPS rationals and XMP GPS texts gone.

Pillow, exifread and pillow-heif are installed into Tests/exif/.venv (ignored by git) the first
time; when `import PIL, exifread, pillow_heif` fails, the script makes that environment and runs
itself again inside it.
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
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VENV = HERE / ".venv"
PACKAGES = ["pillow==13.0.0", "exifread==3.5.1", "pillow-heif==1.8.1"]


def ensure_packages() -> None:
    try:
        import exifread  # noqa: F401
        import PIL  # noqa: F401
        import pillow_heif  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TRIPSYNC_EXIF_VENV") == "1":
        sys.exit(f"Pillow, exifread or pillow-heif is still missing in {VENV}")
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if subprocess.run([str(python), "-c", "import PIL, exifread, pillow_heif"], capture_output=True).returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PACKAGES], check=True)
    env = dict(os.environ, TRIPSYNC_EXIF_VENV="1")
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


ensure_packages()

import exifread  # noqa: E402
import pillow_heif  # noqa: E402
from PIL import Image, PngImagePlugin  # noqa: E402

pillow_heif.register_heif_opener()

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


def png_chunks(data: bytes) -> list[tuple[bytes, int, int, bytes]]:
    """(type, start, end, data) of every chunk, by a plain walk; checks nothing."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, pos = [], 8
    while pos + 12 <= len(data):
        length = struct.unpack_from(">I", data, pos)[0]
        found.append((data[pos + 4:pos + 8], pos, pos + 12 + length, data[pos + 8:pos + 8 + length]))
        pos += 12 + length
    return found


def riff_chunks(data: bytes) -> list[tuple[bytes, int, int, bytes]]:
    """(type, start, end, data) of every chunk of a WebP, by a plain walk (pad bytes counted)."""
    assert data[:4] == b"RIFF" and data[8:12] == b"WEBP"
    found, pos = [], 12
    while pos + 8 <= len(data):
        size = struct.unpack_from("<I", data, pos + 4)[0]
        found.append((data[pos:pos + 4], pos, pos + 8 + size + size % 2, data[pos + 8:pos + 8 + size]))
        pos += 8 + size + size % 2
    return found


def tiff_tags(tiff: bytes, folder: Path, name: str) -> dict[str, object]:
    """What exifread reads from TIFF data saved as a .tif file of its own."""
    path = folder / f"{name}.tif"
    path.write_bytes(tiff[6:] if tiff.startswith(b"Exif\0\0") else tiff)
    return tags(path)


XMP_KEY = "XML:com.adobe.xmp"
METADATA_CHUNKS = {b"eXIf", b"iTXt", b"EXIF", b"XMP "}


def check_containers(bench: Path, folder: Path, out: "Checker", image: Image.Image) -> int:
    """PNG and WebP (issue 26): Pillow writes them, strip-location strips them. Returns the file count."""
    files = 0
    for kind in ("png", "webp"):
        for endian in ("<", ">"):
            for xmp in ("none", "plain", "compressed") if kind == "png" else ("none", "plain"):
                files += 1
                name = f"{kind}-{'le' if endian == '<' else 'be'}{'' if xmp == 'none' else '-xmp-' + xmp}"
                source, copy = folder / f"{name}.{kind}", folder / f"{name}-stripped.{kind}"
                exif = exif_bytes(endian, True, None)
                if kind == "png":
                    info = PngImagePlugin.PngInfo()
                    if xmp != "none":
                        info.add_itxt(XMP_KEY, XMP_GPS.decode(), zip=(xmp == "compressed"))
                    image.save(source, "PNG", exif=exif, pnginfo=info)
                else:
                    options = {"exif": exif, "lossless": True}
                    if xmp != "none":
                        options["xmp"] = XMP_GPS
                    image.save(source, "WEBP", **options)
                result = subprocess.run([str(bench), "strip-location", str(source), str(copy)], capture_output=True, text=True)
                out.check(f"{name}: strip-location exits 0", result.returncode == 0, result.stderr.strip())
                if result.returncode != 0:
                    continue
                out.check(f"{name}: reports the location", "location 38.707900, -9.136533 (Exif GPS)" in result.stdout, result.stdout)
                original, stripped = source.read_bytes(), copy.read_bytes()
                with Image.open(source) as a, Image.open(copy) as b:
                    out.check(f"{name}: pixels identical", a.tobytes() == b.tobytes() and a.size == b.size)
                    before, after = a.getexif(), b.getexif()
                    out.check(f"{name}: Pillow saw GPS in the original", 0x8825 in before and len(before.get_ifd(0x8825)) >= 4, str(dict(before)))
                    out.check(f"{name}: Pillow finds no GPS directory", 0x8825 not in after and not after.get_ifd(0x8825), str(dict(after)))
                    out.check(f"{name}: orientation, make, model and capture time kept", after.get(0x0112) == 6 and after.get(0x010F) == "TripSyncCam"
                              and after.get(0x0110) == "Model Z" and after.get_ifd(0x8769).get(0x9003) == "2027:06:10 12:30:00", str(dict(after)))
                    packet = b.info.get(XMP_KEY if kind == "png" else "xmp")
                    if xmp == "plain":
                        text = packet.encode() if isinstance(packet, str) else (packet or b"")
                        out.check(f"{name}: Pillow reads the other XMP", all(t in text for t in XMP_KEPT_TEXTS), repr(text[:80]))
                for numerator, denominator in SECONDS:
                    value = struct.pack(endian + "II", numerator, denominator)
                    out.check(f"{name}: GPS value {numerator}/{denominator} gone", value in original and value not in stripped)
                if xmp == "plain":
                    for text in XMP_GPS_TEXTS:
                        out.check(f"{name}: XMP {text.decode()} gone", text in original and text not in stripped)
                if kind == "png":
                    before_tags, after_tags = tags(source), tags(copy)
                    chunks_before, chunks_after = png_chunks(original), png_chunks(stripped)
                    out.check(f"{name}: every chunk's CRC holds", all(struct.unpack_from(">I", stripped, end - 4)[0] == zlib.crc32(stripped[start + 4:end - 4])
                                                                     for _, start, end, _ in chunks_after))
                    kept = [(t, d) for t, _, _, d in chunks_before if t not in METADATA_CHUNKS]
                    out.check(f"{name}: every other chunk the same bytes", kept == [(t, d) for t, _, _, d in chunks_after if t not in METADATA_CHUNKS])
                    if xmp == "compressed":
                        out.check(f"{name}: compressed XMP left out, and said so", XMP_KEY.encode() in original and XMP_KEY.encode() not in stripped
                                  and "removed the chunk" in result.stdout and "compressed XMP" in result.stdout, result.stdout)
                    else:
                        out.check(f"{name}: same length", len(original) == len(stripped))
                else:
                    chunks_before, chunks_after = riff_chunks(original), riff_chunks(stripped)
                    exif_chunks = [d for t, _, _, d in chunks_before if t == b"EXIF"]
                    out.check(f"{name}: one EXIF chunk", len(exif_chunks) == 1)
                    before_tags = tiff_tags(exif_chunks[0], folder, f"{name}-exif")
                    after_tags = tiff_tags([d for t, _, _, d in chunks_after if t == b"EXIF"][0], folder, f"{name}-stripped-exif")
                    out.check(f"{name}: same length", len(original) == len(stripped))
                    out.check(f"{name}: RIFF size", struct.unpack_from("<I", stripped, 4)[0] == len(stripped) - 8)
                    types = {t for t, _, _, _ in chunks_after}
                    flags = chunks_after[0][3][0] if chunks_after and chunks_after[0][0] == b"VP8X" else None
                    out.check(f"{name}: VP8X flags match the chunks", flags is not None and bool(flags & 8) == (b"EXIF" in types)
                              and bool(flags & 4) == (b"XMP " in types), f"{flags} {types}")
                    kept = [(t, d) for t, _, _, d in chunks_before if t not in METADATA_CHUNKS]
                    out.check(f"{name}: every other chunk the same bytes", kept == [(t, d) for t, _, _, d in chunks_after if t not in METADATA_CHUNKS])
                gps_before = sorted(k for k in before_tags if k.startswith("GPS ") or k == "Image GPSInfo")
                gps_after = sorted(k for k in after_tags if k.startswith("GPS ") or k == "Image GPSInfo")
                out.check(f"{name}: exifread saw GPS in the original", len(gps_before) >= 5, str(gps_before))
                out.check(f"{name}: exifread sees no GPS in the copy", gps_after == [], str(gps_after))
                kept_tags = {k: v for k, v in before_tags.items() if k not in gps_before}
                out.check(f"{name}: exifread reads every other tag the same", kept_tags == after_tags and "Image Orientation" in after_tags,
                          str({k for k in set(kept_tags) | set(after_tags) if kept_tags.get(k) != after_tags.get(k)}))

    for endian in ("<", ">"):
        for xmp in (False, True):
            files += 1
            name = f"heic-{'le' if endian == '<' else 'be'}{'-xmp' if xmp else ''}"
            source, copy = folder / f"{name}.heic", folder / f"{name}-stripped.heic"
            options = {"exif": exif_bytes(endian, True, None), "quality": 90}
            if xmp:
                options["xmp"] = XMP_GPS
            image.save(source, "HEIF", **options)
            result = subprocess.run([str(bench), "strip-location", str(source), str(copy)], capture_output=True, text=True)
            out.check(f"{name}: strip-location exits 0", result.returncode == 0, result.stderr.strip())
            if result.returncode != 0:
                continue
            out.check(f"{name}: reports the location", "location 38.707900, -9.136533 (Exif GPS)" in result.stdout, result.stdout)
            original, stripped = source.read_bytes(), copy.read_bytes()
            out.check(f"{name}: same length", len(original) == len(stripped))
            with Image.open(source) as a, Image.open(copy) as b:
                out.check(f"{name}: pixels identical", a.tobytes() == b.tobytes() and a.size == b.size)
                before, after = a.getexif(), b.getexif()
                out.check(f"{name}: Pillow saw GPS in the original", 0x8825 in before and len(before.get_ifd(0x8825)) >= 4, str(dict(before)))
                out.check(f"{name}: Pillow finds no GPS directory", 0x8825 not in after and not after.get_ifd(0x8825), str(dict(after)))
                out.check(f"{name}: make, model and capture time kept", after.get(0x010F) == "TripSyncCam" and after.get(0x0110) == "Model Z"
                          and after.get_ifd(0x8769).get(0x9003) == "2027:06:10 12:30:00", str(dict(after)))
                if xmp:
                    packet = b.info.get("xmp") or b""
                    out.check(f"{name}: Pillow reads the other XMP", all(t in packet for t in XMP_KEPT_TEXTS), repr(packet[:80]))
            header = b"II*\0" if endian == "<" else b"MM\0*"
            at = original.find(header)
            before_tags = tiff_tags(original[at:], folder, f"{name}-exif") if at >= 0 else {}
            after_tags = tiff_tags(stripped[at:], folder, f"{name}-stripped-exif") if at >= 0 else {}
            gps_before = sorted(k for k in before_tags if k.startswith("GPS ") or k == "Image GPSInfo")
            gps_after = sorted(k for k in after_tags if k.startswith("GPS ") or k == "Image GPSInfo")
            out.check(f"{name}: exifread saw GPS in the original", len(gps_before) >= 5, str(gps_before))
            out.check(f"{name}: exifread sees no GPS in the copy", gps_after == [], str(gps_after))
            kept_tags = {k: v for k, v in before_tags.items() if k not in gps_before}
            out.check(f"{name}: exifread reads every other tag the same", kept_tags == after_tags and "Image Make" in after_tags,
                      str({k for k in set(kept_tags) | set(after_tags) if kept_tags.get(k) != after_tags.get(k)}))
            for numerator, denominator in SECONDS:
                value = struct.pack(endian + "II", numerator, denominator)
                out.check(f"{name}: GPS value {numerator}/{denominator} gone", value in original and value not in stripped)
            if xmp:
                for text in XMP_GPS_TEXTS:
                    out.check(f"{name}: XMP {text.decode()} gone", text in original and text not in stripped)

    # No location: byte for byte, and said so.
    files += 1
    plain, plain_copy = folder / "no-gps.png", folder / "no-gps-stripped.png"
    image.save(plain, "PNG", exif=exif_bytes(">", False, None))
    result = subprocess.run([str(bench), "strip-location", str(plain), str(plain_copy)], capture_output=True, text=True)
    out.check("no-gps png: exits 0, says no location, same bytes", result.returncode == 0 and "no location" in result.stdout
              and plain_copy.read_bytes() == plain.read_bytes(), result.stdout + result.stderr)
    # A type whose location is not read: refused, named, nothing written.
    files += 1
    gif, gif_copy = folder / "picture.gif", folder / "picture-stripped.gif"
    image.save(gif, "GIF")
    result = subprocess.run([str(bench), "strip-location", str(gif), str(gif_copy)], capture_output=True, text=True)
    out.check("gif: refused naming image/gif, nothing written", result.returncode == 1 and "image/gif" in result.stderr
              and not gif_copy.exists(), result.stdout + result.stderr)
    return files


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
    containers = check_containers(bench, folder, out, image)

    print(f"{out.passed} passed, {out.failed} failed ({len(cases) + 1 + containers} files{f' in {folder}' if args.keep else ''})")
    if not args.keep:
        shutil.rmtree(folder)
    return 1 if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
