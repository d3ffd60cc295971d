#!/usr/bin/env python3
"""Flash-sale benchmark (bench/README.md, "Flash sale"). On 127.0.0.1, everything stopped at the end:

  1. a throwaway PostgreSQL (scripts/pg-throwaway, pg_stat_statements loaded) and TWO servers on it (a copy
     of build/server/storefront, development mode, local payment provider, log level warning, one
     STOREFRONT_PUBLIC_URL and STOREFRONT_TOTP_KEY for both as docs/scaling.md asks);
  2. BENCH_FLASH_BUYERS customers and a staff admin (`storefront users create [--admin]`; admin routes at
     aal1 through STOREFRONT_AUTH_ADMIN_MFA_REQUIRED=false, as `make run`), each customer signed in on the
     server it does NOT shop on; products copied from usb-rs232-cable: solo (10^6), control, flash;
  3. SOLO purchases one at a time, then 2 x CONCURRENCY at once (warm-up: opens the pools);
  4. control sale: every customer, CONCURRENCY at a time, customer i on server i % 2, POSTs
     /functions/v1/create-checkout-session for one unit and, given a checkout, pays as the TEST MODE page
     does (POST /pay/test/{session}/pay with the shipping form; the payment event is applied in it);
  5. quiet staff: every REFUND_EVERY-th paid order refunded in full without restock (POST
     /api/v1/admin/orders/{id}/refunds: takes a claim), then the rest shipped (PATCH ... shipped: checks
     for a claim), each pass its own pg_stat_statements window;
  6. the flash sale: step 4 on the flash product with the staff listing paid orders and refunding or
     shipping them alongside; then RETURNS shipped flash orders refunded with restock;
  7. checks the database, prints the tables, writes bench/results/flash_sale.md (logs beside it).
Per sale: pg_stat_activity sampled every SAMPLE_MS through one psql, pg_stat_statements, both servers'
/metrics (route times, DB pool waits) and the lock waits past 1 s that log_lock_waits logs.

Exit 1 when an invariant fails (each sale pays exactly min(buyers, stock) orders; stock at the end = stock
- sold + restocked; nothing pending; no 5xx or socket error; refused checkouts are 409 insufficient_stock;
staff actions 200), 2 on an infrastructure failure, else 0. Targets (PASS/MISS): flash-sale p99 of the
checkout start and of the payment under 500 ms. Knobs BENCH_FLASH_*: BUYERS (300), STOCK (100),
CONCURRENCY (50), SOLO (20), REFUND_EVERY (4), RETURNS (3), SAMPLE_MS (20; 0 = off), OUT; STOREFRONT_BIN,
PG_BINDIR. STOREFRONT_HTTP_THREADS, _HTTP_QUEUE, _KEEPALIVE_SECONDS, _DB_POOL pass through; other
STOREFRONT_*/SMTP_* are dropped.
"""
import http.client
import json
import math
import os
import re
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import commerce  # noqa: E402  (Storefront, PgDb, pg_bindir and the CPU helpers)
from commerce import BenchError, PgDb, Storefront, cpu_busy, machine_cpu, pg_bindir, proc_cpu, tree_cpu  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, "build/server/storefront"))
KNOB = lambda name, default: int(os.environ.get(f"BENCH_FLASH_{name}", default))  # noqa: E731
BUYERS, STOCK, CONCURRENCY, SOLO = KNOB("BUYERS", 300), KNOB("STOCK", 100), KNOB("CONCURRENCY", 50), KNOB("SOLO", 20)
REFUND_EVERY, RETURNS, SAMPLE_MS = KNOB("REFUND_EVERY", 4), KNOB("RETURNS", 3), KNOB("SAMPLE_MS", 20)
OUT = os.environ.get("BENCH_FLASH_OUT", os.path.join(ROOT, "bench/results/flash_sale.md"))
TARGET_MS, EXPECTED = 500, min(BUYERS, STOCK)
CHECKOUT = "/functions/v1/create-checkout-session"
# The TEST MODE pay page's shipping form (as server/tests/api/billing_support.h posts it).
ADDRESS = "name=Aroha+Ng%C4%81ti&line1=12+Kauri+Street&line2=&city=Wellington&postal_code=6011&country=NZ&phone=021+555+0101"
PRODUCTS = {"solo": ("f1a50000-0000-4000-8000-000000000001", 1_000_000),
            "control": ("f1a50000-0000-4000-8000-000000000002", STOCK),
            "flash": ("f1a50000-0000-4000-8000-000000000003", STOCK)}
PRODUCT_SQL = """INSERT INTO products (id, slug, name, description, description_detail, meta_keywords, type, icon_url,
  picture_url, stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing, price_nzd,
  billing_interval, created_at, updated_at)
SELECT '{id}', 'bench-{name}', 'Bench {name} item', description, description_detail, meta_keywords, 'physical', icon_url,
  picture_url, {stock}, TRUE, TRUE, features, 'checkout', NULL, show_pricing, price_nzd, NULL,
  '2099-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z' FROM products WHERE slug = 'usb-rs232-cable'"""
PAID = "('paid', 'shipped', 'completed', 'refunded')"
OF_PRODUCT = "o.id IN (SELECT order_id FROM order_items WHERE product_id = '{id}')"
CHECK_SQL = f"""SELECT (SELECT stock_quantity FROM products WHERE id = '{{id}}'),
  (SELECT COUNT(*) FROM orders o WHERE o.status IN {PAID} AND {OF_PRODUCT}),
  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
     WHERE i.product_id = '{{id}}' AND o.status IN {PAID}),
  (SELECT COUNT(*) FROM checkout_sessions WHERE product_id = '{{id}}' AND status = 'completed'),
  (SELECT COUNT(*) FROM orders o WHERE o.status = 'pending' AND {OF_PRODUCT}),
  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_refunds r JOIN order_items i ON i.order_id = r.order_id
     WHERE r.restock AND r.status = 'succeeded' AND i.product_id = '{{id}}')"""
CHECK_KEYS = ("stock", "paid_orders", "units", "completed_checkouts", "pending_orders", "restocked")
ACTIVITY_SQL = ("SELECT COALESCE(wait_event_type, '-'), COALESCE(state, '-'), regexp_replace(left(query, 90), '\\s+', ' ', 'g'), "
                "COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' "
                "AND pid <> pg_backend_pid() GROUP BY 1, 2, 3;")
STATEMENTS_SQL = ("SELECT queryid, calls, total_exec_time, regexp_replace(left(query, 140), '\\s+', ' ', 'g') "
                  "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")
KINDS = ["checkout start", "payment", "staff list", "ship", "refund", "refund + restock"]
PHASES = ["solo", "warm-up", "control", "quiet", "sale", "after"]
RECORDS, RECORDS_LOCK = [], threading.Lock()  # (kind, phase, answer, seconds, ended at)


def log(message):
    print(f"flash_sale: {message}", flush=True)


commerce.log = log  # Storefront's own messages


def record(kind, phase, answer, seconds):
    with RECORDS_LOCK:
        RECORDS.append((kind, phase, answer, seconds, time.perf_counter()))


def rows_of(kind=None, phase=None, answer=None):
    return [r for r in RECORDS if kind in (None, r[0]) and phase in (None, r[1]) and answer in (None, r[2])]


def answer_of(status, raw):
    """"200", "303", or the status with the error code of the JSON body ("409 insufficient_stock")."""
    try:
        return str(status) if status < 400 else f"{status} {json.loads(raw).get('code', '')}".strip()
    except ValueError:
        return str(status)


def call(conn, method, path, body=None, token=None, form=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if form is not None or body is not None:
        headers["Content-Type"] = "application/json" if form is None else "application/x-www-form-urlencoded"
    t0 = time.perf_counter()
    conn.request(method, path, json.dumps(body) if form is None and body is not None else form, headers)
    res = conn.getresponse()
    return res.status, res.read(), time.perf_counter() - t0


def pct(seconds, q):
    """Nearest-rank percentile in ms."""
    s = sorted(seconds)
    return 1000 * s[min(len(s) - 1, max(0, math.ceil(len(s) * q) - 1))] if s else float("nan")


# ---- customers and staff ----------------------------------------------------------------------
def buy(ctx, i, slug, phase):
    """Customer i on server i % 2 (a connection of its own): a checkout of one unit, then the payment."""
    conn = http.client.HTTPConnection("127.0.0.1", ctx["servers"][i % 2].port, timeout=60)
    kind = "checkout start"
    try:
        status, raw, dt = call(conn, "POST", CHECKOUT, {"productSlug": slug}, ctx["tokens"][i % len(ctx["tokens"])])
        record(kind, phase, answer_of(status, raw), dt)
        if status == 200:
            kind = "payment"
            status, raw, dt = call(conn, "POST", urlsplit(json.loads(raw)["url"]).path + "/pay", form=ADDRESS)
            record(kind, phase, answer_of(status, raw), dt)
    except (OSError, http.client.HTTPException, ValueError, KeyError) as e:
        record(kind, phase, type(e).__name__, 0.0)
    finally:
        conn.close()


class Staff:
    """The staff admin: one keep-alive connection per server, requests alternating between them."""

    def __init__(self, ctx, phase_of):
        self.conns = [http.client.HTTPConnection("127.0.0.1", s.port, timeout=60) for s in ctx["servers"]]
        self.token, self.phase_of, self.k, self.shipped, self.used = ctx["admin"], phase_of, 0, [], [0.0, 0.0]

    def act(self, kind, method, path, body=None):
        self.k += 1
        i, phase = self.k % 2, self.phase_of()
        if time.monotonic() - self.used[i] > 3:
            self.conns[i].close()  # the server closes connections idle for 5 s (STOREFRONT_KEEPALIVE_SECONDS)
        try:
            status, raw, dt = call(self.conns[i], method, path, body, self.token)
        except (OSError, http.client.HTTPException) as e:
            self.conns[i].close()
            return record(kind, phase, type(e).__name__, 0.0)
        finally:
            self.used[i] = time.monotonic()
        record(kind, phase if phase == self.phase_of() else "after", answer_of(status, raw), dt)
        return json.loads(raw) if status == 200 else None

    def paid(self):
        """Every paid order, oldest pages first (200 a page)."""
        orders, page = [], 1
        while len(orders) == 200 * (page - 1):
            orders += (self.act("staff list", "GET", f"/api/v1/admin/orders?status=paid&page_size=200&page={page}")
                       or {}).get("items", [])
            page += 1
        return orders

    def refund(self, o, restock=False, kind="refund"):
        return self.act(kind, "POST", f"/api/v1/admin/orders/{o['id']}/refunds",
                        {"amount": o["total_amount"], "reason": "Flash sale bench", "restock": restock})

    def ship(self, o):
        if self.act("ship", "PATCH", f"/api/v1/admin/orders/{o['id']}",
                    {"status": "shipped", "carrier": "NZ Post", "tracking_number": f"NZ{self.k:08d}"}) is not None:
            self.shipped.append(o)

    def work(self, done):
        """Until `done` is set and no paid order is left: each new paid order refunded (every
        REFUND_EVERY-th) or shipped."""
        handled = set()
        while True:
            finished = done.is_set()
            todo = [o for o in self.paid() if o["id"] not in handled]
            if not todo and finished:
                return
            time.sleep(0 if todo else 0.02)
            for o in todo:
                handled.add(o["id"])
                if len(handled) % REFUND_EVERY == 0:
                    self.refund(o)
                else:
                    self.ship(o)

    def close(self):
        for c in self.conns:
            c.close()


class Sampler:
    """pg_stat_activity every SAMPLE_MS through one long-lived psql, while a window is open."""

    def __init__(self, psql, url):
        self.proc = subprocess.Popen([psql, "-X", "-q", "-At", "-F", "\t", "-d", url], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.window, self.stopped = None, False
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while not self.stopped:
            if (w := self.window) is None:
                time.sleep(0.05)
                continue
            self.proc.stdin.write(ACTIVITY_SQL + "\n\\echo __END__\n")
            self.proc.stdin.flush()
            rows = []
            while (line := self.proc.stdout.readline()) not in ("__END__\n", ""):
                rows.append(line.rstrip("\n").split("\t"))
            if not line:
                return  # psql ended
            locks = [(r[2], int(r[3])) for r in rows if r[0] == "Lock"]
            w["active"].append(sum(int(r[3]) for r in rows if r[1] == "active"))
            w["lock"].append(sum(n for _, n in locks))
            for q, n in locks:
                w["lock_queries"][q] = w["lock_queries"].get(q, 0) + n
            time.sleep(SAMPLE_MS / 1000)

    def begin(self):
        self.window = {"active": [], "lock": [], "lock_queries": {}}

    def end(self):
        w, self.window = self.window, None
        time.sleep(0.1)  # lets a sample in progress finish
        return w

    def close(self):
        self.stopped = True
        self.proc.terminate()
        self.proc.wait(timeout=10)


def cpu_now(ctx):
    me = resource.getrusage(resource.RUSAGE_SELF)
    return {"t": time.perf_counter(), "a": proc_cpu(ctx["servers"][0].proc.pid), "b": proc_cpu(ctx["servers"][1].proc.pid),
            "pg": tree_cpu(ctx["pg_pid"])[0], "client": me.ru_utime + me.ru_stime, "machine": machine_cpu()}


def cpu_text(c0, c1):
    wall = c1["t"] - c0["t"]
    busy = ((c1["machine"][0] - c0["machine"][0]) - (c1["machine"][1] - c0["machine"][1])) / wall
    p = {k: (c1[k] - c0[k]) / wall for k in ("a", "b", "pg", "client")}
    return (f"server A {p['a']:.2f}, server B {p['b']:.2f}, postgres {p['pg']:.2f}, client (Python) {p['client']:.2f}, "
            f"other {max(0.0, busy - sum(p.values())):.2f} (machine {busy:.2f} of {os.cpu_count()})")


def statements(db, before=None):
    """pg_stat_statements now; with `before`: (calls, ms, text) since then, most time first."""
    now = {r[0]: (int(r[1]), float(r[2]), r[3]) for r in db.query(STATEMENTS_SQL)}
    if before is None:
        return now
    out = [(c - before.get(q, (0, 0.0))[0], t - before.get(q, (0, 0.0))[1], text) for q, (c, t, text) in now.items()]
    return sorted((d for d in out if d[0] > 0), key=lambda d: -d[1])


def metrics(ctx, before=None):
    """Both servers' /metrics summed: the DB pool's wait counters and each route's time; with `before`: since then."""
    now = {}
    for s in ctx["servers"]:
        conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
        for line in call(conn, "GET", "/metrics")[1].decode().splitlines():
            if line.startswith(("storefront_db_pool_wait", "storefront_http_request_duration_seconds_sum",
                                "storefront_http_request_duration_seconds_count")):
                name, value = line.rsplit(" ", 1)
                now[name] = now.get(name, 0.0) + float(value)
        conn.close()
    return now if before is None else {k: v - before.get(k, 0.0) for k, v in now.items()}


def run_sale(ctx, phase, slug, buyers, with_staff):
    """`buyers` customers, CONCURRENCY at a time; with_staff: the staff works alongside."""
    done, sampler = threading.Event(), ctx["sampler"]
    before, log0, m0 = statements(ctx["db"]), os.path.getsize(ctx["pg_log"]), metrics(ctx)
    if sampler:
        sampler.begin()
    c0 = cpu_now(ctx)
    staff = Staff(ctx, lambda: "after" if done.is_set() else phase) if with_staff else None
    helper = threading.Thread(target=staff.work, args=(done,), daemon=True) if staff else None
    if helper:
        helper.start()
    try:
        with ThreadPoolExecutor(CONCURRENCY) as pool:  # each worker takes the next customer when it is done
            list(pool.map(lambda i: buy(ctx, i, slug, phase), range(buyers)))
    finally:
        done.set()  # the staff stops once the paid orders are handled
    c1 = cpu_now(ctx)
    activity = sampler.end() if sampler else None
    if staff:
        helper.join()
        staff.close()
    with open(ctx["pg_log"], errors="replace") as f:
        f.seek(log0)
        long_waits = re.findall(r"still waiting for (\w+) on (\w+)", f.read())
    return {"seconds": c1["t"] - c0["t"], "t0": c0["t"], "cpu": cpu_text(c0, c1), "activity": activity,
            "statements": statements(ctx["db"], before), "shipped": staff.shipped if staff else [],
            "long_waits": long_waits, "metrics": metrics(ctx, m0)}


# ---- setup and the run ------------------------------------------------------------------------
def pg_throwaway(*args, env=None):
    return subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, check=False)


def start_cluster(res):
    bindir, why = pg_bindir()
    if bindir is None:
        raise BenchError(why)
    start = pg_throwaway("start", env=dict(os.environ, PG_BINDIR=bindir, PG_THROWAWAY_DB="storefront_flash_bench"))
    found = dict(re.findall(r"^export (\w+)=(\S+)$", start.stdout, re.M))
    res["pg_dir"] = found.get("PG_THROWAWAY_DIR")
    if start.returncode != 0 or "STOREFRONT_TEST_DATABASE" not in found:
        raise BenchError(f"scripts/pg-throwaway start failed:\n{start.stderr}")
    url, psql = found["STOREFRONT_TEST_DATABASE"], os.path.join(bindir, "psql")
    db = PgDb(psql, url)
    # pg_stat_statements is loaded at the next start; log_lock_waits logs each wait past deadlock_timeout (1 s).
    db.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
    db.query("ALTER SYSTEM SET log_lock_waits = on")
    for step in ("halt", "resume"):
        if (run := pg_throwaway(step, res["pg_dir"], env=dict(os.environ, PG_BINDIR=bindir))).returncode != 0:
            raise BenchError(f"scripts/pg-throwaway {step} failed:\n{run.stderr}")
    db.query("CREATE EXTENSION pg_stat_statements")
    with open(os.path.join(res["pg_dir"], "data", "postmaster.pid")) as f:
        pg_pid = int(f.readline())
    res["pg_version"] = subprocess.run([os.path.join(bindir, "postgres"), "--version"], capture_output=True,
                                       text=True).stdout.strip()
    return db, url, psql, pg_pid


def setup(res, workdir):
    binary = os.path.join(workdir, "storefront")
    shutil.copy2(BIN, binary)  # build/ may be rebuilt meanwhile
    commerce.BIN = binary
    db, url, psql, pg_pid = start_cluster(res)
    servers = res["servers"] = [Storefront(label, workdir, url) for label in ("A", "B")]
    shared = {"STOREFRONT_PUBLIC_URL": servers[0].base, "STOREFRONT_TOTP_KEY": "flash-sale-" + secrets.token_hex(24),
              "STOREFRONT_AUTH_ADMIN_MFA_REQUIRED": "false", "STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS": "1000000",
              "STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT": "1000000"}
    for s in servers:
        s.env.update(shared)
        s.start()
    log(f"creating {BUYERS} customers and a staff admin (storefront users create, 4 at a time)")
    t0 = time.perf_counter()
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda n: servers[0].create_user(f"buyer-{n}@example.test", f"flash password {n}"), range(BUYERS)))
    run = subprocess.run([binary, "users", "create", "--email", "staff@example.test", "--admin"], input="flash staff password",
                         env=servers[0].env, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise BenchError(f"storefront users create --admin failed: {run.stderr or run.stdout}")
    for name, (pid, stock) in PRODUCTS.items():
        db.query(PRODUCT_SQL.format(id=pid, name=name, stock=stock))
    if len(db.query(f"SELECT id FROM products WHERE id IN {tuple(p for p, _ in PRODUCTS.values())}")) != len(PRODUCTS):
        raise BenchError("could not create the bench products (is the seeded product usb-rs232-cable missing?)")
    with ThreadPoolExecutor(4) as pool:  # signed in on the other server: the token must work on both
        tokens = list(pool.map(lambda n: servers[(n + 1) % 2].sign_in(f"buyer-{n}@example.test", f"flash password {n}")[0],
                               range(BUYERS)))
    admin = servers[1].sign_in("staff@example.test", "flash staff password")[0]
    log(f"setup took {time.perf_counter() - t0:.0f} s")
    return {"servers": servers, "db": db, "tokens": tokens, "admin": admin, "pg_pid": pg_pid,
            "pg_log": os.path.join(res["pg_dir"], "postgres.log"),
            "sampler": Sampler(psql, url) if SAMPLE_MS > 0 else None}


def run(res, workdir):
    ctx = setup(res, workdir)
    db = ctx["db"]
    log(f"solo: {SOLO} purchases one at a time, then {2 * CONCURRENCY} at once (warm-up)")
    for i in range(SOLO):
        buy(ctx, i, "bench-solo", "solo")
    run_sale(ctx, "warm-up", "bench-solo", 2 * CONCURRENCY, False)
    log(f"control sale: {BUYERS} customers, {CONCURRENCY} at a time, {STOCK} in stock, no staff")
    res["control"] = run_sale(ctx, "control", "bench-control", BUYERS, False)
    log("quiet staff: refunds, then shipments, with nothing else running")
    staff, windows = Staff(ctx, lambda: "quiet"), {}
    for kind in ("refund", "ship"):
        before = statements(db)
        for n, o in enumerate(staff.paid(), 1):
            if kind == "ship" or n % REFUND_EVERY == 0:
                getattr(staff, kind)(o)
        windows[kind] = statements(db, before)
    res["quiet"] = windows
    log(f"flash sale: {BUYERS} customers, {CONCURRENCY} at a time, {STOCK} in stock, the staff working alongside")
    res["sale"] = run_sale(ctx, "sale", "bench-flash", BUYERS, True)
    log(f"returns: {RETURNS} shipped flash orders refunded with restock")
    staff.phase_of = lambda: "after"
    for o in res["sale"]["shipped"][:RETURNS]:
        staff.refund(o, restock=True, kind="refund + restock")
    staff.close()
    res["returned"] = len(rows_of("refund + restock", "after", "200"))
    res["checks"] = {n: dict(zip(CHECK_KEYS, map(int, db.query(CHECK_SQL.format(id=PRODUCTS[n][0]))[0])))
                     for n in ("control", "flash")}
    res["claims"] = db.query("SELECT action, state, COUNT(*) FROM record_actions GROUP BY 1, 2 ORDER BY 1, 2")
    if ctx["sampler"]:
        ctx["sampler"].close()
    for s in ctx["servers"]:
        if not s.alive():
            raise BenchError(f"the storefront {s.label} died during the run:\n{s.tail()}")


# ---- report -----------------------------------------------------------------------------------
def problems_of(res):
    problems = []
    for name, restock in (("control", 0), ("flash", res["returned"])):
        c = res["checks"][name]
        if not c["paid_orders"] == c["units"] == c["completed_checkouts"] == EXPECTED:
            problems.append(f"{name}: {c['paid_orders']} orders paid, {c['units']} units, {c['completed_checkouts']} "
                            f"completed checkouts (expected {EXPECTED})")
        if c["stock"] != STOCK - c["units"] + c["restocked"] or c["restocked"] != restock:
            problems.append(f"{name}: stock {c['stock']}, {c['units']} sold, {c['restocked']} restocked ({restock} returns)")
        if c["pending_orders"]:
            problems.append(f"{name}: {c['pending_orders']} orders left pending")
    bad = {f"{r[0]} {r[2]}" for r in RECORDS if not r[2][0].isdigit() or r[2][0] == "5"}
    odd = {f"checkout {r[2]}" for r in rows_of("checkout start") if r[2] not in ("200", "409 insufficient_stock")}
    odd |= {f"payment {r[2]}" for r in rows_of("payment") if r[2] != "303"}
    odd |= {f"{r[0]} {r[2]}" for r in RECORDS if r[0] not in ("checkout start", "payment") and r[2] != "200"}
    return problems + ([f"5xx or socket errors: {', '.join(sorted(bad))}"] if bad else []) + \
        ([f"unexpected answers: {', '.join(sorted(odd - bad))}"] if odd - bad else [])


def latency_table():
    out = ["| request | phase | n | answers | p50 ms | p95 ms | p99 ms | max ms |", "|---|---|---:|---|---:|---:|---:|---:|"]
    for kind, phase in sorted({(r[0], r[1]) for r in RECORDS}, key=lambda kp: (KINDS.index(kp[0]), PHASES.index(kp[1]))):
        rs = rows_of(kind, phase)
        answers = {a: sum(1 for r in rs if r[2] == a) for a in sorted({r[2] for r in rs})}
        s = [r[3] for r in rs if r[2][0].isdigit()]
        out.append(f"| {kind} | {phase} | {len(rs)} | {', '.join(f'{k}: {v}' for k, v in answers.items())} | "
                   f"{pct(s, .5):.1f} | {pct(s, .95):.1f} | {pct(s, .99):.1f} | {pct(s, 1):.1f} |")
    return out


def sale_line(phase, sale, check):
    ok = rows_of("checkout start", phase, "200")
    no = [r[3] for r in rows_of("checkout start", phase, "409 insufficient_stock")]
    sold_out = max((r[4] for r in ok), default=sale["t0"]) - sale["t0"]
    return (f"| {phase} | {sale['seconds']:.2f} s | {len(rows_of('checkout start', phase)) / sale['seconds']:.0f} /s | "
            f"{len(ok)} in {sold_out:.2f} s | {pct([r[3] for r in ok], .99):.0f} / {pct(no, .99):.0f} ms | "
            f"{len(rows_of('payment', phase, '303'))} | {check['paid_orders']} | {check['units']} | {check['restocked']} | "
            f"{check['stock']} (expected {STOCK - check['units'] + check['restocked']}) | {check['pending_orders']} |")


def activity_lines(name, w):
    if not w or not w["active"]:
        return []
    n, top = len(w["active"]), sorted(w["lock_queries"].items(), key=lambda kv: -kv[1])[:3]
    return [f"- {name}, pg_stat_activity ({n} samples): active backends mean {sum(w['active']) / n:.1f} (max "
            f"{max(w['active'])}), waiting on a lock {sum(w['lock']) / n:.1f} (max {max(w['lock'])}); the lock waits: " +
            "; ".join(f"{c} x `{q[:70]}`" for q, c in top)]


def claims_lines(res):
    """Statements on record_actions against all statements, per window (pg_stat_statements)."""
    out = []
    for label, diff, kind in [(f"quiet: {k}s only", res["quiet"][k], k) for k in ("refund", "ship")] + \
            [("flash sale: the whole window, every request", res["sale"]["statements"], None)]:
        (cc, ct), (ac, at) = [(sum(d[0] for d in x), sum(d[1] for d in x))
                              for x in ([d for d in diff if "record_actions" in d[2]], diff)]
        n = len(rows_of(kind, "quiet")) if kind else 0
        per = (f"{ac / n:.1f} / {cc / n:.1f} | {at / n:.2f} / {ct / n:.3f} ms | "
               f"{pct([r[3] for r in rows_of(kind, 'quiet')], .5):.1f} ms") if n else " | | "
        out.append(f"| {label} | {ac} / {cc} ({100 * cc / max(ac, 1):.1f} %) | {at:.0f} / {ct:.1f} ms "
                   f"({100 * ct / max(at, 1e-9):.2f} %) | {per} |")
    return out


def report(res):
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "status", "--porcelain", "--", "server"], cwd=ROOT, capture_output=True, text=True).stdout.strip():
        commit += " (server/ has uncommitted changes)"
    cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    tun = ", ".join(f"{k}={os.environ[k]}" for k in sorted(commerce.PASS_THROUGH) if k in os.environ) or "defaults"
    out = [f"# Flash sale — {time.strftime('%Y-%m-%dT%H:%MZ', time.gmtime())}\n",
           f"- Machine: {os.cpu_count()} cores ({cpu_model}), shared; CPU busy before the run {res['busy_at_start']:.0f} %, "
           f"load average {res['load']}. Binary {os.path.relpath(BIN, ROOT)}, commit {commit}.",
           f"- Two servers on one PostgreSQL database ({res.get('pg_version', '?')}, scripts/pg-throwaway: fsync and "
           f"synchronous_commit off), development mode, local payment provider, log level warning, tunables: {tun}.",
           f"- {BUYERS} customers, {CONCURRENCY} at a time (customer i on server i % 2, signed in on the other), one unit "
           f"each of {STOCK} in stock; the staff refunds every {REFUND_EVERY}th paid order and ships the rest; {RETURNS} "
           "returns (refund + restock) after the sale.", ""]
    if res.get("error"):
        out.append(f"**The run stopped early:** {res['error']}\n")
    if "checks" not in res:
        return "\n".join(out + latency_table()) + "\n"
    out += ["| sale | wall | checkout starts | 200s (sold out after) | p99 of the 200s / 409s | payments 303 | orders paid | "
            "units sold | restocked | stock at the end | pending |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            sale_line("control", res["control"], res["checks"]["control"]),
            sale_line("sale", res["sale"], res["checks"]["flash"]), ""] + latency_table() + [""]
    p99 = {k: pct([r[3] for r in rows_of(k, "sale") if r[2][0].isdigit()], .99) for k in ("checkout start", "payment")}
    ok = not res["problems"]
    out += ["| target | measured | verdict |", "|---|---|---|",
            f"| exactly {EXPECTED} sold, stock = {STOCK} − sold + restocked, 0 5xx | "
            f"{'as expected' if ok else '; '.join(res['problems'])} | {'PASS' if ok else 'FAIL'} |"]
    out += [f"| p99 {k} under {TARGET_MS} ms (flash sale) | {v:.0f} ms | {'PASS' if v < TARGET_MS else 'MISS'} |"
            for k, v in p99.items()]
    out += ["", f"- CPU, control sale (cores): {res['control']['cpu']}.", f"- CPU, flash sale: {res['sale']['cpu']}."]
    out += activity_lines("control sale", res["control"]["activity"]) + activity_lines("flash sale", res["sale"]["activity"])
    for name, label in (("control", "control sale"), ("sale", "flash sale")):
        m, key = res[name]["metrics"], "storefront_http_request_duration_seconds_{}{{route=\"{}\"}}"
        server = lambda route: 1000 * m.get(key.format("sum", route), 0) / max(1, m.get(key.format("count", route), 0))  # noqa
        client = lambda kind: 1000 * sum(r[3] for r in rows_of(kind, name)) / max(1, len(rows_of(kind, name)))  # noqa
        out.append(f"- {label}, server side (/metrics, both servers): checkout start mean {server(CHECKOUT):.0f} ms "
                   f"(client {client('checkout start'):.0f}), payment mean {server('/pay/test/{session}/pay'):.0f} ms "
                   f"(client {client('payment'):.0f}); DB pool: {m.get('storefront_db_pool_waits_total', 0):.0f} waits, "
                   f"{m.get('storefront_db_pool_wait_seconds_total', 0):.2f} s in all, "
                   f"{m.get('storefront_db_pool_wait_timeouts_total', 0):.0f} timeouts.")
    out += [f"- Lock waits past 1 s in the PostgreSQL log (log_lock_waits), {name}: {len(w)}" +
            "".join(f"; {w.count(k)} x {k[0]} on {k[1]}" for k in sorted(set(w))) + "."
            for name, w in (("control sale", res["control"]["long_waits"]), ("flash sale", res["sale"]["long_waits"]))]
    out += ["", "Statements of the flash-sale window by total time (pg_stat_statements; the time includes lock waits):", "",
            "| calls | total ms | mean ms | statement |", "|---:|---:|---:|---|"]
    out += [f"| {c} | {t:.0f} | {t / c:.2f} | `{q[:110]}` |" for c, t, q in res["sale"]["statements"][:6]]
    out += ["", "Claims: statements on record_actions (a refund claims and finishes, a ship checks for a claim) against all "
            "statements, from pg_stat_statements:", "",
            "| window | statements: all / claims | execution time: all / claims | per action: statements all / claims | "
            "per action: time all / claims | action p50 |", "|---|---:|---:|---:|---:|---:|"] + claims_lines(res)
    out.append("\nrecord_actions at the end: " + ", ".join(f"{a} {s}: {n}" for a, s, n in res["claims"]) + ".")
    return "\n".join(out) + "\n"


def on_signal(signum, _frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    signal.signal(signal.SIGTERM, on_signal)
    if not os.access(BIN, os.X_OK):
        print(f"flash_sale: no server binary at {BIN} (run: scripts/build server)", file=sys.stderr)
        return 2
    res = {"busy_at_start": cpu_busy(2), "load": " ".join(open("/proc/loadavg").read().split()[:3]), "problems": []}
    if res["busy_at_start"] > 15:
        log(f"warning: the CPUs were {res['busy_at_start']:.0f} % busy before the run; other work skews the figures")
    workdir = tempfile.mkdtemp(prefix="storefront-flash-bench.")
    os.chmod(workdir, 0o755)
    results = os.path.dirname(OUT)
    os.makedirs(results, exist_ok=True)
    rc = 0
    try:
        run(res, workdir)
        res["problems"] = problems_of(res)
    except BenchError as e:
        print(f"flash_sale: {e}", file=sys.stderr)
        res["error"], rc = str(e).splitlines()[0], 2
    except KeyboardInterrupt:
        res["error"], rc = "interrupted", 130
    except Exception as e:  # noqa: BLE001  (an answer the bench did not expect: still clean up)
        traceback.print_exc()
        res["error"], rc = f"{type(e).__name__}: {e}", 2
    finally:
        for s in res.get("servers", []):
            s.stop()
            if os.path.exists(s.log_path):
                shutil.copy(s.log_path, os.path.join(results, f"flash_sale-storefront-{s.label}.log"))
        if res.get("pg_dir"):
            if os.path.exists(os.path.join(res["pg_dir"], "postgres.log")):
                shutil.copy(os.path.join(res["pg_dir"], "postgres.log"), os.path.join(results, "flash_sale-postgres.log"))
            if (stop := pg_throwaway("stop", res["pg_dir"])).returncode != 0:
                print(f"flash_sale: could not stop the cluster in {res['pg_dir']}: {stop.stderr}", file=sys.stderr)
        shutil.rmtree(workdir, ignore_errors=True)
    text = report(res)
    with open(OUT, "w") as f:
        f.write(text)
    print("\n" + text)
    log(f"written to {os.path.relpath(OUT, ROOT)} (server and PostgreSQL logs beside it)")
    return rc or (1 if res["problems"] else 0)


if __name__ == "__main__":
    sys.exit(main())
