#!/usr/bin/env python3
"""Order-placement benchmark (see bench/README.md, "Order placement"). On 127.0.0.1 only, in one run:

  SQLite
    1. starts build/server/storefront on a free port with a fresh SQLite database in a temp dir
       (local payment provider, log level warning), creates BENCH_COMMERCE_USERS users with the
       server's own CLI (`storefront users create`), inserts a tracked physical bench product with
       10^9 in stock, and signs each user in once for a Bearer token;
    2. copies that database (SQLite backup API) next to the server's, in the same data dir;
    3. baseline: a single connection (Python's sqlite3, this file's `sqlite-baseline` mode) runs the
       SQL of one order as ONE committed transaction per order, as fast as it can, with the server's
       PRAGMAs (WAL, synchronous NORMAL, foreign keys, BEGIN IMMEDIATE);
    4. wrk (bench/commerce_wrk.lua, tokens rotating) places orders: a warm-up, then each connection
       count of BENCH_COMMERCE_CONNECTIONS; after each run the database must hold exactly one order,
       item and open checkout per 200 response (plus the requests still in flight when wrk
       stopped) and the stock must have dropped by exactly that;
    5. an exact check: a fixed number of orders from concurrent Python clients, every response
       counted, against the database;
    6. the baseline again (drift check), and the server-shaped SQL (reads + two commits) as a
       diagnostic.
  PostgreSQL (skipped with a message when no PostgreSQL binaries are installed)
    7. a throwaway cluster (scripts/pg-throwaway), the server against it, same setup;
    8. per connection count: wrk against the server (verified as above), then pgbench -n -M prepared
       with the same client count running bench/commerce_order.sql (one order, one transaction)
       and bench/commerce_order_as_server.sql (the server's shape, diagnostic);
    9. the exact check again; the cluster is stopped and deleted.
  Then prints the tables against the targets and writes bench/results/commerce.md (raw outputs in
  bench/results/commerce-raw.txt, server logs beside them).

Targets (per connection count): server orders/s >= 25 % of the SQLite single-commit baseline;
on PostgreSQL >= 50 % of pgbench's orders/s at the same client count.
Knobs: BENCH_COMMERCE_DURATION (10 s per measured run), BENCH_COMMERCE_WARMUP (3 s),
BENCH_COMMERCE_CONNECTIONS ("2 8 32"), BENCH_COMMERCE_USERS (8), BENCH_COMMERCE_VERIFY (320 orders in
the exact check), BENCH_COMMERCE_PG (auto; "skip" leaves PostgreSQL out), BENCH_COMMERCE_OUT,
STOREFRONT_BIN, PG_BINDIR. Server tunables STOREFRONT_HTTP_THREADS, STOREFRONT_HTTP_QUEUE,
STOREFRONT_KEEPALIVE_SECONDS and STOREFRONT_DB_POOL pass through; other STOREFRONT_*/SMTP_* are
dropped. Exit 0 when measured (targets met or not), 1 when the database did not match the
responses, 2 on an infrastructure failure.
"""
import base64
import glob
import http.client
import json
import os
import re
import resource
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tools import free_port, wait_http  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, "build/server/storefront"))
DURATION = int(os.environ.get("BENCH_COMMERCE_DURATION", "10"))
WARMUP = int(os.environ.get("BENCH_COMMERCE_WARMUP", "3"))
LEVELS = [int(c) for c in os.environ.get("BENCH_COMMERCE_CONNECTIONS", "2 8 32").split()]
USERS = int(os.environ.get("BENCH_COMMERCE_USERS", "8"))
VERIFY = int(os.environ.get("BENCH_COMMERCE_VERIFY", "320"))
PG_MODE = os.environ.get("BENCH_COMMERCE_PG", "auto")
OUT = os.environ.get("BENCH_COMMERCE_OUT", os.path.join(ROOT, "bench/results/commerce.md"))
PASS_THROUGH = {"STOREFRONT_HTTP_THREADS", "STOREFRONT_HTTP_QUEUE", "STOREFRONT_KEEPALIVE_SECONDS", "STOREFRONT_DB_POOL"}

PRODUCT_ID = "b0000000-0000-4000-8000-000000000001"
PRODUCT_SLUG = "bench-order-item"
PRODUCT_NAME = "Bench order item"
STOCK = 1_000_000_000
SQLITE_TARGET, PG_TARGET = 25.0, 50.0
CORES = os.cpu_count() or 1
CLK = os.sysconf("SC_CLK_TCK")


class BenchError(Exception):
    """An infrastructure failure: exit 2."""


def log(message):
    print(f"commerce: {message}", flush=True)


# ---- the SQL of one order (CheckoutService::start), SQLite dialect ----------------------------
# Transaction 1 (server: BEGIN IMMEDIATE ... COMMIT), in the server's order and text:
TAKE_STOCK = ("UPDATE products SET stock_quantity = stock_quantity - ?, updated_at = ? "
              "WHERE id = ? AND stock_quantity >= ? RETURNING stock_quantity")
INSERT_ORDER = ("INSERT INTO orders (id, order_number, user_id, status, total_amount, currency, customer_email, "
                "created_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?) "
                "ON CONFLICT (order_number) DO NOTHING RETURNING id")
INSERT_ITEM = ("INSERT INTO order_items (id, order_id, product_id, pricing_plan_id, product_name, quantity, unit_amount) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)")
INSERT_CHECKOUT = ("INSERT INTO checkout_sessions (id, user_id, order_id, product_id, pricing_plan_id, mode, quantity, "
                   "amount_total, currency, provider, success_url, cancel_url, status, stock_reserved, stock_state, "
                   "expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'creating', ?, ?, ?, ?, ?)")
# Transaction 2 (server: after the payment provider answered, its own BEGIN IMMEDIATE ... COMMIT):
LINK_SESSION = ("UPDATE checkout_sessions SET provider_session_id = ?, url = ?, updated_at = ?, "
                "status = CASE WHEN status = 'creating' THEN 'open' ELSE status END WHERE id = ?")
# The reads before them (server-shaped diagnostic only):
READ_CALLER = ("SELECT u.email, CAST(u.banned_until AS TEXT) AS banned_until, "
               "(SELECT COUNT(*) FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS admins, "
               "(SELECT COUNT(*) FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS factors "
               "FROM auth_sessions s JOIN users u ON u.id = s.user_id "
               "WHERE s.id = ? AND s.user_id = ? AND u.deleted_at IS NULL")
READ_PRODUCT = ("SELECT CAST(id AS TEXT) AS id, slug, name, description, description_detail, meta_keywords, type, icon_url, "
                "picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing, "
                "price_nzd, billing_interval, CAST(created_at AS TEXT) AS created_at FROM products "
                "WHERE slug = ? AND is_active = TRUE")
READ_PLANS = ("SELECT CAST(id AS TEXT) AS id, CAST(product_id AS TEXT) AS product_id, name, price_amount, currency, "
              "billing_frequency_value, billing_frequency_unit, sort_order FROM pricing_plans "
              "WHERE product_id = ? ORDER BY sort_order ASC, name ASC")
READ_CUSTOMER = "SELECT provider_customer_id FROM payment_customers WHERE user_id = ? AND provider = ?"

ORDER_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def iso_now():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


def iso_epoch(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(seconds))


def order_number():
    b = secrets.token_bytes(8)
    return "SC-" + "".join(ORDER_ALPHABET[x % 32] for x in b[:4]) + "-" + "".join(ORDER_ALPHABET[x % 32] for x in b[4:])


def order_values(cfg, n):
    """What the server computes in C++ for one order: ids, order number, timestamps, URLs."""
    user_id, email, session_id = cfg["users"][n % len(cfg["users"])]
    checkout = str(uuid.uuid4())
    sid = "cs_local_" + secrets.token_hex(16)
    return {
        "user": user_id, "email": email, "session": session_id, "at": iso_now(), "order": str(uuid.uuid4()),
        "number": order_number(), "item": str(uuid.uuid4()), "checkout": checkout, "sid": sid,
        "until": iso_epoch(int(time.time()) + 86400),
        "ok": cfg["base"] + "/dashboard?checkout=" + checkout,
        "no": cfg["base"] + "/checkout/" + cfg["slug"] + "?cancelled=" + checkout,
        "pay": cfg["base"] + "/pay/test/" + sid,
    }


def sqlite_baseline(cfg):
    """One connection, one order after the other. mode single: the order's writes (transaction 1
    and the UPDATE of transaction 2) as one transaction, one commit. mode server: the server's shape,
    reads + transaction 1 + transaction 2 (two commits)."""
    db = sqlite3.connect(cfg["db"], isolation_level=None)  # autocommit: BEGIN/COMMIT are explicit
    mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    for pragma in ("PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL"):
        db.execute(pragma).fetchall()
    sync = db.execute("PRAGMA synchronous").fetchone()[0]
    pid, q, unit, name = cfg["pid"], 1, cfg["unit"], cfg["name"]
    server_shape = cfg["mode"] == "server"

    def writes(v, split):
        db.execute("BEGIN IMMEDIATE")
        if not db.execute(TAKE_STOCK, (q, v["at"], pid, q)).fetchall():
            raise RuntimeError("stock ran out")
        if not db.execute(INSERT_ORDER, (v["order"], v["number"], v["user"], unit * q, "NZD", v["email"], v["at"],
                                         v["at"])).fetchall():
            raise RuntimeError("order number collision")
        db.execute(INSERT_ITEM, (v["item"], v["order"], pid, None, name, q, unit))
        db.execute(INSERT_CHECKOUT, (v["checkout"], v["user"], v["order"], pid, None, "payment", q, unit * q, "NZD",
                                     "local", v["ok"], v["no"], q, "reserved", v["until"], v["at"], v["at"]))
        if split:
            db.execute("COMMIT")
            db.execute("BEGIN IMMEDIATE")
        db.execute(LINK_SESSION, (v["sid"], v["pay"], iso_now(), v["checkout"]))
        db.execute("COMMIT")

    def reads(v):
        db.execute(READ_CALLER, (v["session"], v["user"])).fetchall()
        db.execute(READ_PRODUCT, (cfg["slug"],)).fetchall()
        db.execute(READ_PLANS, (pid,)).fetchall()
        db.execute(READ_CUSTOMER, (v["user"], "local")).fetchall()

    latencies = []
    cpu0 = time.process_time()
    start = time.perf_counter()
    deadline = start + cfg["seconds"]
    n = 0
    while True:
        t0 = time.perf_counter()
        if t0 >= deadline:
            break
        v = order_values(cfg, n)
        if server_shape:
            reads(v)
        writes(v, split=server_shape)
        latencies.append(time.perf_counter() - t0)
        n += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu0
    # Python's own share: making the values of one order (ids, timestamps) without any SQL.
    t0 = time.perf_counter()
    for i in range(2000):
        order_values(cfg, i)
    prep_us = (time.perf_counter() - t0) / 2000 * 1e6
    latencies.sort()
    print(json.dumps({
        "mode": cfg["mode"], "orders": n, "seconds": elapsed, "orders_per_s": n / elapsed, "cpu_cores": cpu / elapsed,
        "p50_us": latencies[len(latencies) // 2] * 1e6, "p99_us": latencies[int(len(latencies) * 0.99)] * 1e6,
        "prep_us": prep_us, "journal_mode": mode, "synchronous": sync, "sqlite_version": sqlite3.sqlite_version,
    }))
    return 0


# ---- CPU accounting ---------------------------------------------------------------------------
def proc_cpu(pid, with_children=False):
    """CPU seconds of a process (all its threads); with_children adds its reaped children."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if with_children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / CLK


def tree_cpu(parent):
    """A postmaster and its backends: live children now, exited ones through the parent's cutime.
    Returns (CPU seconds, number of live children)."""
    total, children = proc_cpu(parent, with_children=True), 0
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            total += (int(fields[11]) + int(fields[12])) / CLK
            children += 1
    return total, children


def machine_cpu():
    """(total, idle + iowait, nice) CPU seconds of all cores since boot."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return sum(values[:8]) / CLK, (values[3] + values[4]) / CLK, values[1] / CLK


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_busy(seconds=2.0):
    t0, i0, _ = machine_cpu()
    time.sleep(seconds)
    t1, i1, _ = machine_cpu()
    return 100.0 * (1 - (i1 - i0) / max(1e-9, t1 - t0))


class CpuWindow:
    """CPU used during one measured run, in cores (1.0 = one core busy the whole time)."""

    def __init__(self, server_pid, pg_pid=None):
        self.server_pid, self.pg_pid = server_pid, pg_pid

    def __enter__(self):
        self.t0 = time.perf_counter()
        self.server0 = proc_cpu(self.server_pid) if self.server_pid else 0.0
        self.client0 = children_cpu()
        self.pg0, self.backends0 = tree_cpu(self.pg_pid) if self.pg_pid else (0.0, 0)
        self.machine0 = machine_cpu()
        return self

    def __exit__(self, *exc):
        wall = time.perf_counter() - self.t0
        pg = 0.0
        if self.pg_pid:
            # pgbench's backends exit when it does; their CPU reaches the postmaster's cutime only
            # once it has reaped them, so wait for that (briefly; the machine is idle meanwhile).
            deadline = time.monotonic() + 2
            pg, backends = tree_cpu(self.pg_pid)
            while backends > self.backends0 and time.monotonic() < deadline:
                time.sleep(0.05)
                pg, backends = tree_cpu(self.pg_pid)
        total = machine_cpu()
        busy = ((total[0] - self.machine0[0]) - (total[1] - self.machine0[1])) / wall
        self.server = ((proc_cpu(self.server_pid) - self.server0) / wall) if self.server_pid else 0.0
        self.client = (children_cpu() - self.client0) / wall
        self.pg = ((pg - self.pg0) / wall) if self.pg_pid else 0.0
        self.busy = busy
        self.other = max(0.0, busy - self.server - self.client - self.pg)
        self.nice = (total[2] - self.machine0[2]) / wall  # niced processes: other work (ours run at nice 0)
        return False

    def text(self, client="wrk"):
        parts = [f"server {self.server:.2f}"] if self.server_pid else []
        if self.pg_pid:
            parts.append(f"postgres {self.pg:.2f}")
        parts.append(f"{client} {self.client:.2f}")
        parts.append(f"other {self.other:.2f}" + (f" (niced {self.nice:.2f})" if self.nice >= 0.05 else ""))
        return ", ".join(parts)


# ---- databases --------------------------------------------------------------------------------
COUNTS_SQL = f"""SELECT
  (SELECT COUNT(*) FROM orders),
  (SELECT COUNT(*) FROM order_items WHERE product_id = '{PRODUCT_ID}'),
  (SELECT COALESCE(SUM(quantity), 0) FROM order_items WHERE product_id = '{PRODUCT_ID}'),
  (SELECT COUNT(*) FROM checkout_sessions WHERE product_id = '{PRODUCT_ID}' AND status = 'open'
     AND provider_session_id IS NOT NULL AND url IS NOT NULL AND stock_state = 'reserved'),
  (SELECT COUNT(*) FROM checkout_sessions WHERE product_id = '{PRODUCT_ID}' AND NOT (status = 'open'
     AND provider_session_id IS NOT NULL AND url IS NOT NULL AND stock_state = 'reserved')),
  (SELECT COUNT(*) FROM orders WHERE status <> 'pending'),
  (SELECT stock_quantity FROM products WHERE id = '{PRODUCT_ID}')"""
COUNT_KEYS = ("orders", "items", "units", "open_checkouts", "other_checkouts", "not_pending", "stock")

BENCH_PRODUCT_SQL = f"""INSERT INTO products (id, slug, name, description, description_detail, meta_keywords, type,
  icon_url, picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
  price_nzd, billing_interval, created_at, updated_at)
SELECT '{PRODUCT_ID}', '{PRODUCT_SLUG}', '{PRODUCT_NAME}', description, description_detail, meta_keywords, 'physical',
  icon_url, picture_url, {STOCK}, TRUE, TRUE, features, 'checkout', NULL, show_pricing, price_nzd, NULL,
  '2099-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z'
FROM products WHERE slug = 'usb-rs232-cable'"""


class SqliteDb:
    def __init__(self, path):
        self.path = path

    def query(self, sql):
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            return [tuple(row) for row in conn.execute(sql).fetchall()]
        finally:
            conn.close()

    def counts(self):
        return dict(zip(COUNT_KEYS, self.query(COUNTS_SQL)[0]))


class PgDb:
    def __init__(self, psql, url):
        self.psql, self.url = psql, url

    def query(self, sql):
        run = subprocess.run([self.psql, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d", self.url, "-c", sql],
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BenchError(f"psql failed: {run.stderr.strip()}")
        return [tuple(line.split("\t")) for line in run.stdout.splitlines() if line]

    def counts(self):
        return {k: int(v) for k, v in zip(COUNT_KEYS, self.query(COUNTS_SQL)[0])}


def settled_counts(db, seconds=10.0):
    """Counts once the server has finished the requests still in flight (two equal reads in a row)."""
    deadline = time.monotonic() + seconds
    last = db.counts()
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = db.counts()
        if now == last:
            return now
        last = now
    return last


# ---- the server -------------------------------------------------------------------------------
class Storefront:
    def __init__(self, label, workdir, database):
        self.label, self.port = label, free_port()
        self.dir = os.path.join(workdir, label)
        os.makedirs(os.path.join(self.dir, "data"), mode=0o700)
        self.database = database or os.path.join(self.dir, "data", "storefront.db")
        self.log_path = os.path.join(self.dir, "storefront.log")
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("STOREFRONT_", "SMTP_")) or k in PASS_THROUGH}
        self.env.update({
            "STOREFRONT_ENV": "development",
            "STOREFRONT_BIND": "127.0.0.1", "STOREFRONT_PORT": str(self.port), "STOREFRONT_PUBLIC_URL": self.base,
            "STOREFRONT_DATA_DIR": os.path.join(self.dir, "data"), "STOREFRONT_DATABASE": self.database,
            "STOREFRONT_WEB_DIR": os.path.join(self.dir, "no-web-build"), "STOREFRONT_LOG_LEVEL": "warning",
            "STOREFRONT_PAYMENT_PROVIDER": "local", "STOREFRONT_CHECKOUT_EXPIRY_SECONDS": "86400",
            # Only the one sign-in per user during setup hashes; the orders themselves never do.
            "STOREFRONT_AUTH_ARGON2_OPS": "1", "STOREFRONT_AUTH_ARGON2_MEMORY_KIB": "8",
        })

    def start(self):
        log(f"[{self.label}] starting the storefront on 127.0.0.1:{self.port}")
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen([BIN], env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=ROOT)
        if wait_http(self.port, "/healthz", 30) != 0 or self.proc.poll() is not None:
            raise BenchError(f"the storefront ({self.label}) did not answer GET /healthz within 30 s:\n{self.tail()}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def tail(self, lines=20):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            log(f"[{self.label}] the storefront (pid {self.proc.pid}) ignored SIGTERM; killing it")
            self.proc.kill()
            self.proc.wait()

    def create_user(self, email, password):
        run = subprocess.run([BIN, "users", "create", "--email", email], input=password, env=self.env, cwd=ROOT,
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise BenchError(f"storefront users create --email {email} failed: {run.stderr.strip() or run.stdout.strip()}")

    def sign_in(self, email, password):
        req = urllib.request.Request(f"{self.base}/auth/v1/token?grant_type=password",
                                     data=json.dumps({"email": email, "password": password}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as res:
            token = json.load(res)["access_token"]
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return token, claims["sub"], claims["session_id"]


def setup_accounts(server, db, workdir):
    """Users through the CLI, the bench product through SQL, one sign-in each. Returns the users
    as [user id, email, session id] and the product's unit price."""
    for n in range(USERS):
        server.create_user(f"orders-{n}@example.test", f"orders password {n}")
    db.query(BENCH_PRODUCT_SQL)
    rows = db.query(f"SELECT price_nzd, stock_quantity FROM products WHERE id = '{PRODUCT_ID}'")
    if not rows:
        raise BenchError("could not create the bench product (is the seeded product usb-rs232-cable missing?)")
    unit = int(rows[0][0])
    users, tokens = [], []
    for n in range(USERS):
        email = f"orders-{n}@example.test"
        token, user_id, session_id = server.sign_in(email, f"orders password {n}")
        tokens.append(token)
        users.append([user_id, email, session_id])
    tokens_file = os.path.join(workdir, f"tokens-{server.label}.txt")
    with open(tokens_file, "w") as f:
        f.write("\n".join(tokens) + "\n")
    return users, unit, tokens_file


# ---- load -------------------------------------------------------------------------------------
class Raw:
    """Everything the tools printed, in order, for bench/results/commerce-raw.txt."""

    def __init__(self):
        self.parts = []

    def add(self, title, text):
        self.parts.append(f"==== {title} ({time.strftime('%H:%M:%S')})\n{text.rstrip()}\n")

    def text(self):
        return "\n".join(self.parts)


def wrk(server, connections, seconds, tokens_file, raw, title, pg_pid=None):
    cmd = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
           "-s", "bench/commerce_wrk.lua", f"{server.base}/functions/v1/create-checkout-session"]
    env = dict(os.environ, BENCH_TOKENS_FILE=tokens_file, BENCH_PRODUCT_SLUG=PRODUCT_SLUG)
    with CpuWindow(server.proc.pid, pg_pid) as cpu:
        run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=seconds + 60, check=False)
    raw.add(f"{title}: {' '.join(cmd)}", run.stdout + run.stderr + f"\nCPU (cores): {cpu.text()}")
    line = next((l for l in run.stdout.splitlines() if l.startswith("BENCH ")), None)
    sent = re.search(r"^BENCH_SENT sent=(\d+)", run.stdout, re.M)
    if run.returncode != 0 or not line or not sent:
        raise BenchError(f"wrk failed ({title}):\n{run.stdout}\n{run.stderr}")
    r = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", line)}
    # wrk calls request() once before the run to check the script (script_verify_request in
    # wrk 4.x, in the first thread's Lua state); that request is never written.
    r["sent"] = int(sent.group(1)) - 1
    r["ok"] = int(r["requests"] - r["err_status"])
    r["cpu"] = cpu
    return r


def check_run(before, after, ok, sent, answered):
    """The database after a load run against the responses. ok: 200 answers; sent: requests written
    (None when every request was answered); answered: all answers, any status."""
    d = {k: after[k] - before[k] for k in COUNT_KEYS}
    problems = []
    if not (d["orders"] == d["items"] == d["units"] == d["open_checkouts"] == -d["stock"]):
        problems.append(f"orders {d['orders']}, items {d['items']}, units {d['units']}, open checkouts "
                        f"{d['open_checkouts']}, stock taken {-d['stock']} differ")
    if d["other_checkouts"] or d["not_pending"]:
        problems.append(f"{d['other_checkouts']} checkouts not open/linked, {d['not_pending']} orders not pending")
    in_flight = 0 if sent is None else sent - answered
    if d["orders"] == ok + in_flight:
        match = "exact" if in_flight == 0 else f"exact ({ok} + {in_flight} in flight)"
    elif ok <= d["orders"] <= ok + in_flight:
        match = f"within bounds ({ok} ≤ {d['orders']} ≤ {ok + in_flight})"
    else:
        match = f"MISMATCH: {d['orders']} orders for {ok} 200 answers + {in_flight} in flight"
        problems.append(match)
    return {"orders": d["orders"], "stock_taken": -d["stock"], "match": match, "problems": problems}


def exact_check(server, db, tokens, requests, connections):
    """A fixed number of orders from `connections` concurrent keep-alive clients, every answer
    counted; the database must change by exactly the number of 200s."""
    before = settled_counts(db)
    statuses, lock = {}, threading.Lock()
    per_client = [requests // connections + (1 if i < requests % connections else 0) for i in range(connections)]
    body = json.dumps({"productSlug": PRODUCT_SLUG})

    def client(i, count):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for k in range(count):
            token = tokens[(i + k) % len(tokens)]
            try:
                conn.request("POST", "/functions/v1/create-checkout-session", body,
                             {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
                res = conn.getresponse()
                res.read()
                code = res.status
            except (OSError, http.client.HTTPException) as e:
                code = type(e).__name__
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            with lock:
                statuses[code] = statuses.get(code, 0) + 1
        conn.close()

    workers = [threading.Thread(target=client, args=(i, n)) for i, n in enumerate(per_client)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    after = settled_counts(db)
    ok = statuses.get(200, 0)
    result = check_run(before, after, ok, None, sum(statuses.values()))
    result.update({"requests": requests, "connections": connections, "statuses": statuses, "seconds": elapsed})
    return result


def final_check(db, label):
    c = db.counts()
    problems = []
    if not (c["orders"] == c["items"] == c["units"] == c["open_checkouts"] == STOCK - c["stock"]):
        problems.append(f"[{label}] in total: orders {c['orders']}, items {c['items']}, units {c['units']}, open checkouts "
                        f"{c['open_checkouts']}, stock taken {STOCK - c['stock']} differ")
    if c["other_checkouts"] or c["not_pending"]:
        problems.append(f"[{label}] {c['other_checkouts']} checkouts not open/linked, {c['not_pending']} orders not pending")
    return c, problems


def run_baseline(cfg, raw, title):
    cmd = [sys.executable, os.path.abspath(__file__), "sqlite-baseline", json.dumps(cfg)]
    with CpuWindow(None) as cpu:
        run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=cfg["seconds"] + 120, check=False)
    raw.add(f"{title}: sqlite-baseline mode={cfg['mode']} seconds={cfg['seconds']}",
            run.stdout + run.stderr + f"\nCPU (cores): {cpu.text('python')}")
    if run.returncode != 0:
        raise BenchError(f"the SQLite baseline failed:\n{run.stderr}")
    r = json.loads(run.stdout.strip().splitlines()[-1])
    r["cpu"] = cpu
    return r


# ---- SQLite -----------------------------------------------------------------------------------
def run_sqlite(workdir, raw, res):
    server = Storefront("sqlite", workdir, None)
    res["sqlite_server"] = server
    server.start()
    db = SqliteDb(server.database)
    users, unit, tokens_file = setup_accounts(server, db, workdir)
    tokens = open(tokens_file).read().split()
    # The baseline's database: a copy of the server's (schema, users, product), in the same data dir.
    base_path = os.path.join(server.dir, "data", "baseline.db")
    src, dst = sqlite3.connect(server.database), sqlite3.connect(base_path)
    src.backup(dst)
    src.close()
    dst.close()
    cfg = {"db": base_path, "pid": PRODUCT_ID, "slug": PRODUCT_SLUG, "name": PRODUCT_NAME, "unit": unit,
           "users": users, "base": server.base, "seconds": DURATION, "mode": "single"}
    log(f"[sqlite] baseline: one connection, one commit per order, {DURATION}s")
    res["sqlite_base_before"] = run_baseline(cfg, raw, "sqlite baseline (before)")
    log(f"[sqlite] {res['sqlite_base_before']['orders_per_s']:.0f} orders/s")

    log(f"[sqlite] wrk warm-up {WARMUP}s")
    wrk(server, 8, WARMUP, tokens_file, raw, "sqlite warm-up")
    res["sqlite_runs"] = []
    for c in LEVELS:
        before = settled_counts(db)
        r = wrk(server, c, DURATION, tokens_file, raw, f"sqlite wrk -c{c}")
        r["check"] = check_run(before, settled_counts(db), r["ok"], r["sent"], int(r["requests"]))
        r["connections"] = c
        res["sqlite_runs"].append(r)
        log(f"[sqlite] -c{c}: {r['ok_rps']:.0f} orders/s, p99 {r['p99_us'] / 1000:.1f} ms, "
            f"{int(r['err_status'])} non-2xx; database: {r['check']['match']}; CPU {r['cpu'].text()}")
    log(f"[sqlite] exact check: {VERIFY} orders over {max(LEVELS)} connections")
    res["sqlite_exact"] = exact_check(server, db, tokens, VERIFY, max(LEVELS))
    log(f"[sqlite] exact check: {res['sqlite_exact']['statuses']}; database: {res['sqlite_exact']['match']}")
    log(f"[sqlite] baseline again (drift), then the server's SQL shape (diagnostic), {DURATION}s each")
    res["sqlite_base_after"] = run_baseline(cfg, raw, "sqlite baseline (after)")
    res["sqlite_shape"] = run_baseline(dict(cfg, mode="server"), raw, "sqlite server-shaped SQL")
    res["sqlite_total"], problems = final_check(db, "sqlite")
    res["problems"] += problems
    if not server.alive():
        raise BenchError("the storefront (sqlite) died during the run:\n" + server.tail())
    server.stop()


# ---- PostgreSQL -------------------------------------------------------------------------------
def pg_bindir():
    """(bindir, None) or (None, why not): the same choice scripts/pg-throwaway makes."""
    need = ("initdb", "pg_ctl", "postgres", "psql", "pgbench")
    if os.environ.get("PG_BINDIR"):
        d = os.environ["PG_BINDIR"]
        missing = [b for b in need if not os.access(os.path.join(d, b), os.X_OK)]
        return (None, f"PG_BINDIR={d} lacks {', '.join(missing)}") if missing else (d, None)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(re.sub(r"\D", "", p.split("/")[-2]) or 0))
    for d in reversed(candidates):
        if all(os.access(os.path.join(d, b), os.X_OK) for b in need):
            return d, None
    ctl = shutil.which("pg_ctl")
    if ctl and all(os.access(os.path.join(os.path.dirname(ctl), b), os.X_OK) for b in need):
        return os.path.dirname(ctl), None
    return None, ("no PostgreSQL binaries (initdb, pg_ctl, postgres, psql, pgbench) found; install the Debian package "
                  "postgresql (scripts/bootstrap does), or set PG_BINDIR")


def pgbench(bindir, url, script, clients, seconds, variables, workdir, raw, title, pg_pid, server_pid):
    prefix = os.path.join(workdir, "pgbench-log-" + re.sub(r"\W", "_", title))
    m = re.match(r"postgresql://(\w+)@([\d.]+):(\d+)/(\w+)", url)
    cmd = [os.path.join(bindir, "pgbench"), "-h", m.group(2), "-p", m.group(3), "-U", m.group(1), "-n", "-M", "prepared",
           "-c", str(clients), "-j", str(min(2, clients)), "-T", str(seconds), "-l", "--log-prefix", prefix,
           "-f", os.path.join(ROOT, "bench", script)]
    for k, v in variables.items():
        cmd += ["-D", f"{k}={v}"]
    cmd.append(m.group(4))
    with CpuWindow(server_pid, pg_pid) as cpu:
        run = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=seconds + 120, check=False)
    shown = [a if not a.startswith(("users=", "emails=", "sessions=")) else a.split("=")[0] + "=..." for a in cmd]
    raw.add(f"{title}: {' '.join(shown)}", run.stdout + run.stderr + f"\nCPU (cores): {cpu.text('pgbench')}")
    tps = re.search(r"^tps = ([\d.]+) \(without initial connection time\)", run.stdout, re.M)
    done = re.search(r"^number of transactions actually processed: (\d+)", run.stdout, re.M)
    failed = re.search(r"^number of failed transactions: (\d+)", run.stdout, re.M)
    if run.returncode != 0 or not tps or not done:
        raise BenchError(f"pgbench failed ({title}, exit {run.returncode}):\n{run.stdout}\n{run.stderr}")
    latencies = []
    for path in glob.glob(prefix + ".*"):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 3 and fields[2].isdigit():
                    latencies.append(int(fields[2]))
        os.remove(path)
    latencies.sort()
    return {"tps": float(tps.group(1)), "transactions": int(done.group(1)), "failed": int(failed.group(1)) if failed else 0,
            "p50_us": latencies[len(latencies) // 2] if latencies else 0,
            "p99_us": latencies[int(len(latencies) * 0.99)] if latencies else 0, "cpu": cpu}


def run_pg(workdir, raw, res, bindir):
    log("[postgresql] starting a throwaway cluster (scripts/pg-throwaway)")
    start = subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "start"], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, PG_BINDIR=bindir, PG_THROWAWAY_DB="storefront_commerce_bench"),
                           check=False)
    found = dict(re.findall(r"^export (\w+)=(\S+)$", start.stdout, re.M))
    if found.get("PG_THROWAWAY_DIR"):
        res["pg_dir"] = found["PG_THROWAWAY_DIR"]
    if start.returncode != 0 or "STOREFRONT_TEST_DATABASE" not in found:
        raise BenchError(f"scripts/pg-throwaway start failed:\n{start.stderr}")
    url = found["STOREFRONT_TEST_DATABASE"]
    raw.add("postgresql cluster", start.stderr)
    with open(os.path.join(res["pg_dir"], "data", "postmaster.pid")) as f:
        pg_pid = int(f.readline())
    res["pg_version"] = subprocess.run([os.path.join(bindir, "postgres"), "--version"], capture_output=True,
                                       text=True).stdout.strip()
    db = PgDb(os.path.join(bindir, "psql"), url)
    res["pg_settings"] = ", ".join("=".join(r) for r in db.query(
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', "
        "'shared_buffers', 'max_connections') ORDER BY name"))

    server = Storefront("postgresql", workdir, url)
    res["pg_server"] = server
    server.start()
    users, unit, tokens_file = setup_accounts(server, db, workdir)
    tokens = open(tokens_file).read().split()
    array = lambda values: "{" + ",".join(values) + "}"  # noqa: E731
    variables = {
        "pid": PRODUCT_ID, "slug": PRODUCT_SLUG, "name": PRODUCT_NAME, "q": 1, "unit": unit, "nusers": len(users),
        "users": array(u[0] for u in users), "emails": array(u[1] for u in users), "sessions": array(u[2] for u in users),
        "success_prefix": server.base + "/dashboard?checkout=",
        "cancel_prefix": server.base + f"/checkout/{PRODUCT_SLUG}?cancelled=", "pay_prefix": server.base + "/pay/test/",
    }
    log(f"[postgresql] warm-up: wrk and pgbench, {WARMUP}s each")
    wrk(server, 8, WARMUP, tokens_file, raw, "postgresql warm-up", pg_pid)
    pgbench(bindir, url, "commerce_order.sql", 8, WARMUP, variables, workdir, raw, "pgbench warm-up", pg_pid, server.proc.pid)
    res["pg_runs"] = []
    for c in LEVELS:
        before = settled_counts(db)
        r = wrk(server, c, DURATION, tokens_file, raw, f"postgresql wrk -c{c}", pg_pid)
        r["check"] = check_run(before, settled_counts(db), r["ok"], r["sent"], int(r["requests"]))
        r["connections"] = c
        log(f"[postgresql] -c{c}: server {r['ok_rps']:.0f} orders/s, p99 {r['p99_us'] / 1000:.1f} ms, "
            f"{int(r['err_status'])} non-2xx; database: {r['check']['match']}; CPU {r['cpu'].text()}")
        before = db.counts()
        r["pgbench"] = pgbench(bindir, url, "commerce_order.sql", c, DURATION, variables, workdir, raw,
                               f"pgbench commerce_order.sql -c{c}", pg_pid, server.proc.pid)
        made = db.counts()["orders"] - before["orders"]
        if made != r["pgbench"]["transactions"]:
            res["problems"].append(f"pgbench -c{c}: {r['pgbench']['transactions']} transactions but {made} orders")
        r["pgbench_shape"] = pgbench(bindir, url, "commerce_order_as_server.sql", c, DURATION, variables, workdir, raw,
                                     f"pgbench commerce_order_as_server.sql -c{c}", pg_pid, server.proc.pid)
        log(f"[postgresql] -c{c}: pgbench {r['pgbench']['tps']:.0f} orders/s (one commit), "
            f"{r['pgbench_shape']['tps']:.0f} (server's shape); CPU {r['pgbench']['cpu'].text('pgbench')}")
        res["pg_runs"].append(r)
    log(f"[postgresql] exact check: {VERIFY} orders over {max(LEVELS)} connections")
    res["pg_exact"] = exact_check(server, db, tokens, VERIFY, max(LEVELS))
    log(f"[postgresql] exact check: {res['pg_exact']['statuses']}; database: {res['pg_exact']['match']}")
    res["pg_total"], problems = final_check(db, "postgresql")
    res["problems"] += problems
    if not server.alive():
        raise BenchError("the storefront (postgresql) died during the run:\n" + server.tail())
    server.stop()


# ---- report -----------------------------------------------------------------------------------
def ms(us):
    return f"{us / 1000:.1f}" if us >= 1000 else f"{us / 1000:.2f}"


def per_order(cores, rate):
    """CPU milliseconds per order from cores used and orders per second."""
    return f"{1000 * cores / rate:.2f}" if rate else "n/a"


def verdict(ratio, target):
    return "PASS" if ratio >= target else "MISS"


def exact_line(e, total, totals_label):
    return (f"Exact check: {e['requests']} orders from {e['connections']} concurrent clients, answers "
            f"{e['statuses']}; database: {e['match']}. {totals_label}: {total['orders']} orders, "
            f"stock taken {STOCK - total['stock']}.")


def report(res):
    out = []
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "server"], cwd=ROOT, capture_output=True, text=True).stdout
    if dirty.strip():
        commit += " (server/ has uncommitted changes)"
    cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    out.append(f"# Order-placement benchmark — {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}\n")
    out.append(f"- Machine: {CORES} cores ({cpu_model}); loopback only; the server, wrk, PostgreSQL and pgbench share the "
               f"cores. CPU use by other work just before the run: {res['busy_at_start']:.0f} %.")
    out.append(f"- Storefront `{os.path.relpath(BIN, ROOT)}` at commit {commit}; local payment provider; log level warning; "
               f"{USERS} users, tokens rotating; the bench product is a tracked physical product with {STOCK} in stock; "
               f"each order is quantity 1.")
    out.append(f"- Load: wrk `-t min(2,c) -c c -d{DURATION}s --timeout 10s` (bench/commerce_wrk.lua) after a {WARMUP}s "
               f"warm-up; orders/s counts 200 answers only. CPU columns are cores used during the run (of {CORES}); "
               "'other' is everything else on the machine (kernel threads, other work), 'niced' the part of it running "
               "below the bench's priority (e.g. background builds).")
    b0, b1 = res.get("sqlite_base_before"), res.get("sqlite_base_after")
    if b0:
        out.append(f"- SQLite {b0['sqlite_version']} (journal_mode={b0['journal_mode']}, synchronous="
                   f"{['OFF', 'NORMAL', 'FULL', 'EXTRA'][int(b0['synchronous'])]}, foreign keys on, BEGIN IMMEDIATE), "
                   f"both databases in the same temp data dir on {res.get('fs', '?')}.")
    if res.get("pg_version"):
        out.append(f"- {res['pg_version']}, throwaway cluster (scripts/pg-throwaway: {res['pg_settings']}).")
    out.append("")

    if b0 and res.get("sqlite_runs"):
        base = (b0["orders_per_s"] + b1["orders_per_s"]) / 2 if b1 else b0["orders_per_s"]
        res["sqlite_base"] = base
        out.append("## SQLite\n")
        out.append("| load | orders/s | p50 ms | p99 ms | % of baseline | non-2xx / socket errors | database after the run | "
                   "CPU, cores | CPU ms per order |")
        out.append("|---|---:|---:|---:|---:|---:|---|---|---:|")
        for name, b in (("baseline, before", b0), ("baseline, after", b1)):
            if b:
                out.append(f"| {name}: 1 connection, one commit per order (Python sqlite3) | {b['orders_per_s']:.0f} | "
                           f"{ms(b['p50_us'])} | {ms(b['p99_us'])} | | | | {b['cpu'].text('python')} | "
                           f"python {per_order(b['cpu'].client, b['orders_per_s'])} |")
        for r in res["sqlite_runs"]:
            r["ratio"] = 100 * r["ok_rps"] / base
            errors = int(r["err_connect"] + r["err_read"] + r["err_write"] + r["err_timeout"])
            out.append(f"| server, wrk -c{r['connections']} | {r['ok_rps']:.0f} | {ms(r['p50_us'])} | {ms(r['p99_us'])} | "
                       f"{r['ratio']:.0f} % | {int(r['err_status'])} / {errors} | {r['check']['match']} | {r['cpu'].text()} | "
                       f"server {per_order(r['cpu'].server, r['ok_rps'])} |")
        s = res.get("sqlite_shape")
        if s:
            out.append(f"| diagnostic: 1 connection, the server's SQL shape (4 reads + 2 commits) | {s['orders_per_s']:.0f} | "
                       f"{ms(s['p50_us'])} | {ms(s['p99_us'])} | | | | {s['cpu'].text('python')} | "
                       f"python {per_order(s['cpu'].client, s['orders_per_s'])} |")
        out.append("")
        out.append(f"Baseline = mean of before and after: {base:.0f} orders/s. Python's own work per order (ids, "
                   f"timestamps, no SQL): {b0['prep_us']:.0f} µs of the {1e6 / b0['orders_per_s']:.0f} µs an order takes.")
        if res.get("sqlite_exact"):
            out.append(exact_line(res["sqlite_exact"], res["sqlite_total"], "Totals at the end"))
        out.append("")

    if res.get("pg_runs"):
        out.append("## PostgreSQL\n")
        out.append("| clients | load | orders/s | p50 ms | p99 ms | % of pgbench | errors | database after the run | "
                   "CPU, cores | CPU ms per order |")
        out.append("|---:|---|---:|---:|---:|---:|---:|---|---|---:|")
        for r in res["pg_runs"]:
            p, sh = r["pgbench"], r["pgbench_shape"]
            r["ratio"] = 100 * r["ok_rps"] / p["tps"] if p["tps"] else 0
            errs = int(r["err_status"]) + int(r["err_connect"] + r["err_read"] + r["err_write"] + r["err_timeout"])
            c = r["connections"]
            out.append(f"| {c} | server (wrk) | {r['ok_rps']:.0f} | {ms(r['p50_us'])} | {ms(r['p99_us'])} | "
                       f"**{r['ratio']:.0f} %** | {errs} | {r['check']['match']} | {r['cpu'].text()} | "
                       f"server {per_order(r['cpu'].server, r['ok_rps'])}, postgres {per_order(r['cpu'].pg, r['ok_rps'])} |")
            for name, b in (("pgbench, one commit", p), ("pgbench, server's SQL shape", sh)):
                out.append(f"| {c} | {name} | {b['tps']:.0f} | {ms(b['p50_us'])} | {ms(b['p99_us'])} | | {b['failed']} | | "
                           f"{b['cpu'].text('pgbench')} | postgres {per_order(b['cpu'].pg, b['tps'])} |")
        out.append("")
        if res.get("pg_exact"):
            out.append(exact_line(res["pg_exact"], res["pg_total"], "Totals at the end (server and pgbench)"))
        out.append("")
    elif res.get("pg_skipped"):
        out.append(f"## PostgreSQL\n\nSkipped: {res['pg_skipped']}\n")

    out.append("## Targets\n")
    out.append("| target | measured | verdict |")
    out.append("|---|---|---|")
    if res.get("sqlite_runs"):
        worst = min(r["ratio"] for r in res["sqlite_runs"])
        per = " / ".join(f"-c{r['connections']} {r['ratio']:.0f} %" for r in res["sqlite_runs"])
        out.append(f"| SQLite: server orders/s ≥ {SQLITE_TARGET:.0f} % of the single-connection, one-commit baseline, "
                   f"at every connection count | {per} | {verdict(worst, SQLITE_TARGET)} |")
    if res.get("pg_runs"):
        worst = min(r["ratio"] for r in res["pg_runs"])
        per = " / ".join(f"-c{r['connections']} {r['ratio']:.0f} %" for r in res["pg_runs"])
        out.append(f"| PostgreSQL: server orders/s ≥ {PG_TARGET:.0f} % of pgbench's (same SQL, one transaction, same "
                   f"client count) at every client count | {per} | {verdict(worst, PG_TARGET)} |")
    elif res.get("pg_skipped"):
        out.append(f"| PostgreSQL ≥ {PG_TARGET:.0f} % of pgbench | skipped | n/a |")
    correct = "every run matched" if not res["problems"] else "; ".join(res["problems"])
    out.append(f"| orders in the database = 200 answers (+ requests in flight when wrk stopped), stock taken = orders | "
               f"{correct} | {'PASS' if not res['problems'] else 'FAIL'} |")
    if res.get("error"):
        out.append(f"\n**The run stopped early:** {res['error']}")
    return "\n".join(out) + "\n"


# ---- main -------------------------------------------------------------------------------------
def on_signal(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv):
    if len(argv) > 2 and argv[1] == "sqlite-baseline":
        return sqlite_baseline(json.loads(argv[2]))
    signal.signal(signal.SIGTERM, on_signal)
    if not shutil.which("wrk"):
        print("commerce: 'wrk' is not installed (scripts/bootstrap installs it)", file=sys.stderr)
        return 2
    if not os.access(BIN, os.X_OK):
        print(f"commerce: no server binary at {BIN} (run: scripts/build server)", file=sys.stderr)
        return 2
    os.chdir(ROOT)
    res = {"problems": [], "busy_at_start": cpu_busy(2)}
    if res["busy_at_start"] > 15:
        log(f"warning: the CPUs were {res['busy_at_start']:.0f} % busy before the run; other work skews the figures "
            "(ratios less so)")
    workdir = tempfile.mkdtemp(prefix="storefront-commerce-bench.")
    os.chmod(workdir, 0o755)
    df = subprocess.run(["df", "--output=fstype,source", workdir], capture_output=True, text=True).stdout.splitlines()
    res["fs"] = df[1].strip() if len(df) > 1 else "?"
    raw = Raw()
    rc = 0
    results_dir = os.path.dirname(OUT)
    os.makedirs(results_dir, exist_ok=True)
    try:
        run_sqlite(workdir, raw, res)
        bindir, why = (None, "BENCH_COMMERCE_PG=skip") if PG_MODE == "skip" else pg_bindir()
        if bindir is None:
            res["pg_skipped"] = why
            log(f"[postgresql] skipped: {why}")
        elif os.geteuid() == 0 and subprocess.run(["id", "-u", "postgres"], capture_output=True).returncode != 0:
            res["pg_skipped"] = "running as root and there is no 'postgres' OS user to run the cluster"
            log(f"[postgresql] skipped: {res['pg_skipped']}")
        else:
            run_pg(workdir, raw, res, bindir)
    except BenchError as e:
        res["error"] = str(e).splitlines()[0]
        print(f"commerce: {e}", file=sys.stderr)
        rc = 2
    except KeyboardInterrupt:
        res["error"] = "interrupted"
        rc = 130
    finally:
        for key in ("sqlite_server", "pg_server"):
            server = res.get(key)
            if server:
                server.stop()
                shutil.copy(server.log_path, os.path.join(results_dir, f"commerce-storefront-{server.label}.log"))
        if res.get("pg_dir"):
            pg_log = os.path.join(res["pg_dir"], "postgres.log")
            if os.path.exists(pg_log):
                shutil.copy(pg_log, os.path.join(results_dir, "commerce-postgres.log"))
            stop = subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "stop", res["pg_dir"]], capture_output=True,
                                  text=True)
            if stop.returncode != 0:
                print(f"commerce: could not stop the PostgreSQL cluster in {res['pg_dir']}: {stop.stderr}", file=sys.stderr)
        shutil.rmtree(workdir, ignore_errors=True)
    text = report(res)
    with open(OUT, "w") as f:
        f.write(text)
    with open(os.path.join(results_dir, "commerce-raw.txt"), "w") as f:
        f.write(raw.text())
    print()
    print(text)
    shown = os.path.relpath(results_dir, ROOT)
    log(f"results written to {os.path.relpath(OUT, ROOT)} (raw outputs: {shown}/commerce-raw.txt, "
        f"server logs: {shown}/commerce-storefront-*.log)")
    if rc == 0 and res["problems"]:
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
