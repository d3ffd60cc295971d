#!/usr/bin/env python3
"""Parallel image uploads (bench/README.md, "Image uploads"; issue 32). On 127.0.0.1, SQLite:
starts the storefront with its defaults (STOREFRONT_IMAGE_MAX_PIXELS 40 million, two decodes at
once), records its resident memory, then sends BENCH_IMAGE_UPLOADS (4) uploads at once of a
5000 x 5000 16-bit greyscale PNG (25 megapixels, built here with zlib), and prints the peak
resident memory (VmHWM) of the server process, the memory before, each upload's status and the
wall time. The same picture at 7000 x 7000 (49 megapixels) must be refused with 422 before it is
decoded.

Knobs: BENCH_IMAGE_UPLOADS (4), BENCH_IMAGE_SIDE (5000), STOREFRONT_BIN. Exit 0 when measured,
1 when an upload answered otherwise than expected, 2 on an infrastructure failure.
"""
import os
import struct
import sys
import threading
import time
import urllib.error
import urllib.request
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin_lists  # noqa: E402

UPLOADS = int(os.environ.get("BENCH_IMAGE_UPLOADS", "4"))
SIDE = int(os.environ.get("BENCH_IMAGE_SIDE", "5000"))


def png16(side):
    """A side x side 16-bit greyscale PNG of a gentle gradient (it compresses, as scans do)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = bytearray(1 + side * 2)
    raw = bytearray()
    for y in range(side):
        value = (y * 65535 // max(side - 1, 1)).to_bytes(2, "big")
        row[1:] = value * side
        raw += row
    header = struct.pack(">IIBBBBB", side, side, 16, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")


def memory_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def upload(port, token, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/admin/images", data=body, method="POST",
                                 headers={"Content-Type": "image/png", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=300) as res:
            return res.status
    except urllib.error.HTTPError as e:
        return e.code


def main():
    server = admin_lists.Server("images")
    try:
        server.start()
        token = server.admin_token()
        picture = png16(SIDE)
        too_big = png16(7000)
        pid = server.proc.pid
        before_rss, before_hwm = memory_kib(pid, "VmRSS"), memory_kib(pid, "VmHWM")
        statuses = [0] * UPLOADS
        t0 = time.monotonic()
        threads = [threading.Thread(target=lambda i=i: statuses.__setitem__(i, upload(server.port, token, picture)))
                   for i in range(UPLOADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        peak = memory_kib(pid, "VmHWM")
        refused = upload(server.port, token, too_big)
        print(f"\n## Image uploads ({UPLOADS} at once, {SIDE} x {SIDE} 16-bit PNG, {len(picture) / 1024:.0f} KiB each)\n")
        print("| measure | value |\n|---|---|")
        print(f"| server RSS before | {before_rss / 1024:.0f} MiB (peak so far {before_hwm / 1024:.0f} MiB) |")
        print(f"| peak RSS during the uploads (VmHWM) | {peak / 1024:.0f} MiB (goal < 400 MiB) |")
        print(f"| answers | {', '.join(str(s) for s in statuses)} |")
        print(f"| wall time | {wall:.1f} s |")
        print(f"| 7000 x 7000 (49 megapixels, {len(too_big) / 1024:.0f} KiB) | {refused} |")
        return 0 if all(s == 201 for s in statuses) and refused == 422 else 1
    except (admin_lists.BenchError, OSError) as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
