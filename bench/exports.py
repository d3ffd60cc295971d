#!/usr/bin/env python3
"""CSV export benchmark (bench/README.md, "CSV exports"): the server's memory while it streams a
large export, against a small one, and rows per second. On 127.0.0.1 only, SQLite:

  1. starts build/server/storefront on a free port against a fresh database (admin two-factor off,
     as in the local demo), makes a staff admin with `storefront users create --admin`, signs in;
  2. fills BENCH_EXPORT_ORDERS orders (100,000; bench/admin_lists.py's rows) and
     BENCH_EXPORT_CERTIFICATES certificates (1,000,000) for BENCH_EXPORT_WORKERS workers (10,000;
     bench/companion_lists.py's rows), then ANALYZE;
  3. for each export (a small one: one customer's orders; then all orders; then all
     certificates) reads the CSV as it arrives, 64 KiB at a time, counting rows without keeping
     them, while a thread samples the server's resident memory (/proc/PID/status VmRSS) every 10 ms;
     reports rows, seconds, rows/s, the server's RSS before and its peak during the export, and the
     peak of each large export over the small export's peak (the ratio: 1.0 is flat).

Knobs: BENCH_EXPORT_ORDERS, BENCH_EXPORT_CERTIFICATES, BENCH_EXPORT_WORKERS, STOREFRONT_BIN.
Exit 0 when measured, 2 on an infrastructure failure.
"""
import http.client
import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin_lists  # noqa: E402
import companion_lists  # noqa: E402

CERTIFICATES = int(os.environ.get("BENCH_EXPORT_CERTIFICATES", "1000000"))
WORKERS = int(os.environ.get("BENCH_EXPORT_WORKERS", "10000"))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def export(port, token, pid, path):
    """Streams one export; returns (rows, seconds, rss before KiB, peak rss KiB)."""
    before = rss_kib(pid)
    peak = [before]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.monotonic()
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    res = conn.getresponse()
    if res.status != 200:
        raise admin_lists.BenchError(f"{path} answered {res.status}: {res.read()[:300]!r}")
    lines = 0
    while True:
        piece = res.read(65536)
        if not piece:
            break
        lines += piece.count(b"\r\n")
    seconds = time.monotonic() - started
    done.set()
    sampler.join()
    conn.close()
    return lines - 1, seconds, before, peak[0]


def main():
    server = admin_lists.Server("exports")
    try:
        server.start()
        token = server.admin_token()
        t0 = time.monotonic()
        admin_lists.fill_sqlite(server.database)
        admin_lists.log(f"filled {admin_lists.ORDERS:,} orders in {time.monotonic() - t0:.0f} s")
        t0 = time.monotonic()
        companion_lists.fill(server.database, WORKERS, CERTIFICATES)
        admin_lists.log(f"filled {WORKERS:,} workers and {CERTIFICATES:,} certificates in {time.monotonic() - t0:.0f} s")
        pid = server.proc.pid
        cases = [
            ("small: one customer's orders", "/api/v1/admin/orders/export.csv?q=customer-7%40example.test"),
            (f"all {admin_lists.ORDERS:,} orders", "/api/v1/admin/orders/export.csv"),
            (f"all {CERTIFICATES:,} certificates", "/api/v1/admin/wirewrite/certificates/export.csv"),
            (f"all {CERTIFICATES:,} certificates, sort=number asc", "/api/v1/admin/wirewrite/certificates/export.csv?sort=number&dir=asc"),
        ]
        print(f"load average before measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        print(f"\n{'export':48} {'rows':>10} {'s':>7} {'rows/s':>9} {'RSS before MiB':>15} {'peak MiB':>9} {'peak/small':>11}")
        small_peak = None
        for name, path in cases:
            rows, seconds, before, peak = export(server.port, token, pid, path)
            small_peak = small_peak or peak
            print(f"{name:48} {rows:>10,} {seconds:>7.1f} {rows / seconds if seconds else 0:>9,.0f} {before / 1024:>15.1f} "
                  f"{peak / 1024:>9.1f} {peak / small_peak:>11.2f}", flush=True)
        return 0
    except admin_lists.BenchError as e:
        admin_lists.log(f"exports bench: {e}")
        return 2
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
