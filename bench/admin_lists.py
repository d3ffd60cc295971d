#!/usr/bin/env python3
"""Back-office list benchmark (see bench/README.md, "Admin lists"). On 127.0.0.1 only, in one run:

  for SQLite, then PostgreSQL (a throwaway cluster from scripts/pg-throwaway; skipped with a
  message when no PostgreSQL binaries are installed or BENCH_ADMIN_PG=skip):
    1. starts build/server/storefront on a free port against a fresh database (two-factor for
       admins off, as in the local demo), makes a staff admin with the server's own CLI
       (`storefront users create --admin`) and signs in for a Bearer token;
    2. fills BENCH_ADMIN_ORDERS orders (100,000), each with one item, spread over a year, in every
       status (about 1 % paid after cancellation), for 5,000 customers, and as many subscriptions
       as customers; then ANALYZE;
    3. times GET /api/v1/admin/orders pages (first page, a deep page, status filters, the
       paid-after-cancellation filter, an email search, an order-number search), one order's
       detail, the subscription list and the stats: BENCH_ADMIN_REPEAT sequential requests each
       over one keep-alive connection after two warm-ups; reports the median and p95 in ms.
  Prints a table against the target (a list page under 50 ms) and writes bench/results/admin-lists.md.

Knobs: BENCH_ADMIN_ORDERS (100000), BENCH_ADMIN_REPEAT (30), BENCH_ADMIN_PG (auto | skip),
BENCH_ADMIN_OUT, STOREFRONT_BIN, PG_BINDIR. Exit 0 when measured, 2 on an infrastructure failure.
"""
import http.client
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tools import free_port, wait_http  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, "build/server/storefront"))
ORDERS = int(os.environ.get("BENCH_ADMIN_ORDERS", "100000"))
REPEAT = int(os.environ.get("BENCH_ADMIN_REPEAT", "30"))
PG_MODE = os.environ.get("BENCH_ADMIN_PG", "auto")
OUT = os.environ.get("BENCH_ADMIN_OUT", os.path.join(ROOT, "bench/results/admin-lists.md"))
CUSTOMERS = 5000
TARGET_MS = 50.0
STATUSES = ["pending"] * 10 + ["paid"] * 40 + ["shipped"] * 20 + ["completed"] * 20 + ["cancelled"] * 10
ADMIN_EMAIL, ADMIN_PASSWORD = "bench-admin@example.test", "bench admin password 1"


class BenchError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def iso(ts):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + ".%03dZ" % int((ts % 1) * 1000)


def rows(seed=7):
    """The orders, items and subscriptions to insert (deterministic)."""
    rnd = random.Random(seed)
    now = time.time()
    orders, items = [], []
    for n in range(ORDERS):
        status = rnd.choice(STATUSES)
        late = status == "cancelled" and rnd.random() < 0.1
        created = iso(now - rnd.random() * 365 * 86400)
        oid = str(uuid.UUID(int=rnd.getrandbits(128), version=4))
        amount = rnd.choice([900, 1500, 2500, 4900, 12900])
        email = f"customer-{n % CUSTOMERS}@example.test"
        orders.append((oid, "BO-%08d" % n, status, amount, email, created, created, late))
        items.append((str(uuid.UUID(int=rnd.getrandbits(128), version=4)), oid, "Bench item", 1, amount))
    return orders, items


class Server:
    def __init__(self, label, database=None):
        self.label, self.port = label, free_port()
        self.dir = tempfile.mkdtemp(prefix=f"bench-admin-{label}-")
        os.makedirs(os.path.join(self.dir, "data"))
        self.database = database or os.path.join(self.dir, "data", "storefront.db")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("STOREFRONT_", "SMTP_"))}
        self.env.update({
            "STOREFRONT_ENV": "development",
            "STOREFRONT_BIND": "127.0.0.1", "STOREFRONT_PORT": str(self.port),
            "STOREFRONT_PUBLIC_URL": f"http://127.0.0.1:{self.port}", "STOREFRONT_DATA_DIR": os.path.join(self.dir, "data"),
            "STOREFRONT_DATABASE": self.database, "STOREFRONT_WEB_DIR": os.path.join(self.dir, "no-web-build"),
            "STOREFRONT_LOG_LEVEL": "warning", "STOREFRONT_AUTH_ADMIN_MFA_REQUIRED": "false",
            "STOREFRONT_AUTH_ARGON2_OPS": "1", "STOREFRONT_AUTH_ARGON2_MEMORY_KIB": "8",
        })
        self.proc = None

    def start(self):
        log(f"[{self.label}] starting the storefront on 127.0.0.1:{self.port}")
        self.logf = open(os.path.join(self.dir, "storefront.log"), "ab")
        self.proc = subprocess.Popen([BIN], env=self.env, stdout=self.logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=ROOT)
        if wait_http(self.port, "/healthz", 30) != 0:
            raise BenchError(f"the storefront ({self.label}) did not start")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=20)
        shutil.rmtree(self.dir, ignore_errors=True)

    def admin_token(self):
        run = subprocess.run([BIN, "users", "create", "--email", ADMIN_EMAIL, "--admin"], input=ADMIN_PASSWORD,
                             env=self.env, cwd=ROOT, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BenchError(f"users create failed: {run.stderr or run.stdout}")
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/auth/v1/token?grant_type=password",
                                     data=json.dumps({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.load(res)["access_token"]


def fill_sqlite(path):
    orders, items = rows()
    db = sqlite3.connect(path, timeout=30)
    db.execute("PRAGMA busy_timeout = 30000")
    product = db.execute("SELECT id FROM products ORDER BY created_at LIMIT 1").fetchone()[0]
    db.execute("BEGIN IMMEDIATE")
    db.executemany("INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, created_at, "
                   "updated_at, paid_after_cancellation) VALUES (?, ?, ?, ?, 'NZD', ?, ?, ?, ?)", orders)
    db.executemany("INSERT INTO order_items (id, order_id, product_name, quantity, unit_amount) VALUES (?, ?, ?, ?, ?)", items)
    fill_users_sqlite(db, product)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


def fill_users_sqlite(db, product):
    now = iso(time.time())
    rnd = random.Random(11)
    for n in range(CUSTOMERS):
        uid = str(uuid.UUID(int=rnd.getrandbits(128), version=4))
        db.execute("INSERT INTO users (id, email, created_at, updated_at) VALUES (?, ?, ?, ?)",
                   (uid, f"customer-{n}@example.test", now, now))
        db.execute("INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, created_at, updated_at) "
                   "VALUES (?, ?, ?, ?, 'local', ?, ?)",
                   (str(uuid.UUID(int=rnd.getrandbits(128), version=4)), uid, product,
                    rnd.choice(["pending", "cancelled", "expired"]), iso(time.time() - rnd.random() * 3e7), now))


def fill_postgres(psql, url):
    """The same shape through generate_series (one statement per table)."""
    sql = f"""
BEGIN;
INSERT INTO orders (id, order_number, status, total_amount, currency, customer_email, created_at, updated_at,
                    paid_after_cancellation)
SELECT md5('o' || n)::uuid, 'BO-' || lpad(n::text, 8, '0'), s.status, (ARRAY[900,1500,2500,4900,12900])[1 + n % 5], 'NZD',
       'customer-' || (n % {CUSTOMERS}) || '@example.test', t, t, s.status = 'cancelled' AND n % 10 = 0
FROM generate_series(0, {ORDERS - 1}) n
CROSS JOIN LATERAL (SELECT now() - (random() * interval '365 days') AS t) tt
CROSS JOIN LATERAL (SELECT (ARRAY['pending','paid','paid','paid','paid','shipped','shipped','completed','completed',
                                  'cancelled'])[1 + (n * 7919) % 10] AS status) s;
INSERT INTO order_items (id, order_id, product_name, quantity, unit_amount)
SELECT md5('i' || id::text)::uuid, id, 'Bench item', 1, total_amount FROM orders WHERE order_number LIKE 'BO-%';
INSERT INTO users (id, email, created_at, updated_at)
SELECT md5('u' || n)::uuid, 'customer-' || n || '@example.test', now(), now() FROM generate_series(0, {CUSTOMERS - 1}) n;
INSERT INTO subscriptions (id, user_id, product_id, status, payment_provider, created_at, updated_at)
SELECT md5('s' || n)::uuid, md5('u' || n)::uuid, (SELECT id FROM products ORDER BY created_at LIMIT 1),
       (ARRAY['pending','cancelled','expired'])[1 + n % 3], 'local', now() - (random() * interval '365 days'), now()
FROM generate_series(0, {CUSTOMERS - 1}) n;
COMMIT;
VACUUM ANALYZE;
"""
    run = subprocess.run([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url], input=sql, capture_output=True, text=True)
    if run.returncode != 0:
        raise BenchError(f"psql failed: {run.stderr}")


def measure(port, token, label):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def call(path):
        conn.request("GET", path, headers=headers)
        res = conn.getresponse()
        body = res.read()
        if res.status != 200:
            raise BenchError(f"GET {path}: {res.status} {body[:200]!r}")
        return json.loads(body)

    first = call("/api/v1/admin/orders")
    if first["total"] < ORDERS:
        raise BenchError(f"expected at least {ORDERS} orders, the list says {first['total']}")
    some_id = first["items"][0]["id"]
    cases = [
        ("orders, first page", "/api/v1/admin/orders"),
        ("orders, page 1000", "/api/v1/admin/orders?page=1000"),
        ("orders, status=paid", "/api/v1/admin/orders?status=paid"),
        ("orders, status=cancelled, page 20", "/api/v1/admin/orders?status=cancelled&page=20"),
        ("orders, paid_after_cancellation", "/api/v1/admin/orders?status=paid_after_cancellation"),
        ("orders, q=<email>", "/api/v1/admin/orders?q=Customer-4242%40example.test"),
        ("orders, q=<part of an email>", "/api/v1/admin/orders?q=customer-4242"),
        ("orders, q=<order number>", "/api/v1/admin/orders?q=bo-00054321"),
        ("one order (items, history)", f"/api/v1/admin/orders/{some_id}"),
        ("subscriptions, first page", "/api/v1/admin/subscriptions"),
        ("subscriptions, q=<email part>", "/api/v1/admin/subscriptions?q=customer-42"),
        ("stats", "/api/v1/admin/stats"),
    ]
    results = []
    for name, path in cases:
        for _ in range(2):
            call(path)
        times = []
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            call(path)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        results.append((label, name, path, statistics.median(times), p95))
        log(f"[{label}] {name:38s} median {statistics.median(times):7.2f} ms  p95 {p95:7.2f} ms")
    conn.close()
    return results


def pg_bindir():
    cands = sorted(d for d in (os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql"))
                   if os.path.exists(os.path.join(d, "psql"))) if os.path.isdir("/usr/lib/postgresql") else []
    return os.environ.get("PG_BINDIR") or (cands[-1] if cands else None)


def run_sqlite():
    server = Server("sqlite")
    try:
        server.start()
        token = server.admin_token()
        log(f"[sqlite] filling {ORDERS} orders")
        fill_sqlite(server.database)
        return measure(server.port, token, "SQLite")
    finally:
        server.stop()


def run_postgres():
    bindir = pg_bindir()
    if PG_MODE == "skip" or not bindir:
        log("[postgresql] skipped (BENCH_ADMIN_PG=skip or no PostgreSQL binaries)")
        return []
    start = subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "start"], cwd=ROOT, capture_output=True, text=True)
    if start.returncode != 0:
        raise BenchError(f"scripts/pg-throwaway start failed:\n{start.stderr}")
    env = dict(line.replace("export ", "", 1).split("=", 1) for line in start.stdout.splitlines() if line.startswith("export "))
    url, pgdir = env["STOREFRONT_TEST_DATABASE"], env["PG_THROWAWAY_DIR"]
    server = Server("postgresql", url)
    try:
        server.start()
        token = server.admin_token()
        log(f"[postgresql] filling {ORDERS} orders")
        fill_postgres(os.path.join(bindir, "psql"), url)
        return measure(server.port, token, "PostgreSQL")
    finally:
        server.stop()
        subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "stop", pgdir], capture_output=True)


def main():
    if not os.path.exists(BIN):
        log(f"no server build at {BIN}: run scripts/build first")
        return 2
    try:
        results = run_sqlite() + run_postgres()
    except BenchError as e:
        log(f"bench: {e}")
        return 2
    lines = [f"# Admin lists ({ORDERS} orders), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
             f"`bench/admin_lists.py`, {REPEAT} sequential requests per row over one keep-alive connection. "
             f"Target: a list page under {TARGET_MS:.0f} ms.", "",
             "| database | request | median ms | p95 ms | target |", "|---|---|---:|---:|---|"]
    for db, name, _path, median, p95 in results:
        lines.append(f"| {db} | {name} | {median:.2f} | {p95:.2f} | {'PASS' if p95 < TARGET_MS else 'MISS'} |")
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
