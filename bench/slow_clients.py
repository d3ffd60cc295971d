#!/usr/bin/env python3
"""Slow and stalled clients (bench/README.md, "Slow and stalled clients"; issue 32). On 127.0.0.1,
SQLite:

  1. fills BENCH_ADMIN_ORDERS orders (60,000 here; bench/admin_lists.py's rows) into a fresh
     database, then starts two servers on it: one with STOREFRONT_MAX_EXPORTS=20 (so twenty exports
     can be stalled at once) and STOREFRONT_SEND_TIMEOUT_SECONDS=BENCH_SLOW_SEND_TIMEOUT (10), and
     one with the defaults (STOREFRONT_MAX_EXPORTS=4);
  2. on the first: records the server's RSS and threads, opens 20 stalled exports of every order
     (each reader takes 2 KB, with a 4 KiB receive buffer, then stops reading), then times
     /healthz and the catalogue (50 each) and the staff orders list page (20), reads the database
     sessions in use from /metrics, and the RSS and threads again; waits until the send timeout
     drops the stalled exports (the threads come back), then closes the sockets and records RSS and
     threads once more;
  3. on the second: opens 20 stalled exports and counts how many streamed (200) and how many were
     refused (429 too_many_exports).

Knobs: BENCH_ADMIN_ORDERS (60000), BENCH_SLOW_SEND_TIMEOUT (10), STOREFRONT_BIN. Exit 0 when
measured, 2 on an infrastructure failure.
"""
import json
import os
import re
import socket
import sqlite3
import sys
import time
import urllib.request

os.environ.setdefault("BENCH_ADMIN_ORDERS", "60000")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import admin_lists  # noqa: E402

SEND_TIMEOUT = int(os.environ.get("BENCH_SLOW_SEND_TIMEOUT", "30"))
STALLED = 20


def proc_status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "Threads"):
                out[key] = int(value.split()[0])
    return out["VmRSS"] / 1024, out["Threads"]


def stalled_export(port, token):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.settimeout(20)
    s.sendall(f"GET /api/v1/admin/orders/export.csv HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    got = b""
    while len(got) < 2048:
        piece = s.recv(512)
        if not piece:
            break
        got += piece
    status = int(got[9:12]) if got.startswith(b"HTTP/1.1 ") else 0
    return s, status


def timed(port, path, token=None, n=50):
    times = []
    for _ in range(n):
        req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        t0 = time.monotonic()
        with urllib.request.urlopen(req, timeout=30) as res:
            res.read()
            if res.status != 200:
                raise admin_lists.BenchError(f"{path} answered {res.status}")
        times.append((time.monotonic() - t0) * 1000)
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.95) - 1], times[-1]


def sessions_in_use(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as res:
        m = re.search(r'storefront_db_pool_sessions\{state="in_use"\} (\d+)', res.read().decode())
    return int(m.group(1)) if m else -1


def unfinished_exports(database):
    db = sqlite3.connect(database, timeout=30)
    try:
        return db.execute("SELECT COUNT(*) FROM audit_log WHERE action = 'list.exported' AND detail LIKE '%\"completed\":false%'").fetchone()[0]
    finally:
        db.close()


def main():
    first = admin_lists.Server("slow-20")
    first.env.update({"STOREFRONT_MAX_EXPORTS": "20", "STOREFRONT_SEND_TIMEOUT_SECONDS": str(SEND_TIMEOUT)})
    second = None
    try:
        first.start()
        token = first.admin_token()
        t0 = time.monotonic()
        admin_lists.fill_sqlite(first.database)
        admin_lists.log(f"filled {admin_lists.ORDERS:,} orders in {time.monotonic() - t0:.0f} s")
        pid = first.proc.pid
        timed(first.port, "/healthz", n=5)
        rss0, threads0 = proc_status(pid)
        socks = []
        for _ in range(STALLED):
            s, status = stalled_export(first.port, token)
            if status != 200:
                raise admin_lists.BenchError(f"a stalled export answered {status}")
            socks.append(s)
        stalled_at = time.monotonic()
        # Each export reads and sends until the socket buffers are full (about 4 MB each), then
        # waits on its reader: stalled once no database session is in use for a while.
        quiet = 0
        while quiet < 4 and time.monotonic() - stalled_at < 120:
            quiet = quiet + 1 if sessions_in_use(first.port) == 0 else 0
            time.sleep(0.25)
        filled_after = time.monotonic() - stalled_at
        rss1, threads1 = proc_status(pid)
        in_use = sessions_in_use(first.port)
        health = timed(first.port, "/healthz")
        catalogue = timed(first.port, "/api/v1/products")
        admin_page = timed(first.port, "/api/v1/admin/orders?page_size=50", token, n=20)
        # The send timeout drops them: each is audited as unfinished.
        while unfinished_exports(first.database) < STALLED and time.monotonic() - stalled_at < SEND_TIMEOUT + 180:
            time.sleep(0.5)
        dropped = unfinished_exports(first.database)
        dropped_after = time.monotonic() - stalled_at
        rss2, threads2 = proc_status(pid)
        for s in socks:
            s.close()
        # Idle pool threads end after 60 s idle (POCO's ThreadPool, checked as threads are taken),
        # and freed memory goes back to the system at the next malloc_trim (every 60 s).
        time.sleep(65)
        timed(first.port, "/healthz", n=40)
        time.sleep(1)
        rss3, threads3 = proc_status(pid)

        second = admin_lists.Server("slow-default", database=first.database)
        second.start()
        token2 = token  # the same database: the same admin and signing keys
        statuses = []
        socks = []
        for _ in range(STALLED):
            s, status = stalled_export(second.port, token2)
            statuses.append(status)
            socks.append(s)
        for s in socks:
            s.close()

        print(f"\n## Slow and stalled clients ({admin_lists.ORDERS:,} orders, {STALLED} stalled exports)\n")
        print("| measure | figure |\n|---|---|")
        print(f"| server before | RSS {rss0:.1f} MiB, {threads0} threads |")
        print(f"| {STALLED} exports stalled (2 KB read each, then nothing) | all waiting on their readers {filled_after:.1f} s after they started (socket buffers full): RSS {rss1:.1f} MiB, {threads1} threads, {in_use} database sessions in use |")
        print(f"| `/healthz` while stalled (50) | p50 {health[0]:.1f} ms, p95 {health[1]:.1f} ms, max {health[2]:.1f} ms |")
        print(f"| catalogue `/api/v1/products` while stalled (50) | p50 {catalogue[0]:.1f} ms, p95 {catalogue[1]:.1f} ms, max {catalogue[2]:.1f} ms |")
        print(f"| staff orders list page while stalled (20) | p50 {admin_page[0]:.1f} ms, p95 {admin_page[1]:.1f} ms, max {admin_page[2]:.1f} ms |")
        print(f"| dropped by the {SEND_TIMEOUT} s send timeout | {dropped} of {STALLED} audited unfinished {dropped_after:.1f} s after they started: RSS {rss2:.1f} MiB, {threads2} threads |")
        print(f"| 65 s later (idle threads ended, memory trimmed) | RSS {rss3:.1f} MiB, {threads3} threads |")
        print(f"| {STALLED} stalled exports on a default server (`STOREFRONT_MAX_EXPORTS=4`) | {statuses.count(200)} streamed, {statuses.count(429)} got 429 too_many_exports |")
        print(json.dumps({"health_ms": health, "catalogue_ms": catalogue, "admin_ms": admin_page}))
        return 0
    except (admin_lists.BenchError, OSError) as e:
        print(f"slow_clients: {e}", file=sys.stderr)
        return 2
    finally:
        if second:
            second.stop()
        first.stop()


if __name__ == "__main__":
    sys.exit(main())
