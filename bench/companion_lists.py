#!/usr/bin/env python3
"""WireWrite staff lists at scale: 100,000 workers and 1,000,000 certificates (bench/README.md).

  bench/companion_lists.py [--workers N] [--certificates N] [--repeat N] [--db FILE]

--db keeps the filled SQLite database in FILE and reuses it when it exists (filling takes minutes).

Makes a temp dir, migrates a fresh SQLite database with build/server/storefront, fills it with SQL
directly (one transaction, then ANALYZE), creates a staff admin with `storefront users create`,
starts the server (two-factor not required: this measures the lists, not sign-in), signs in, and
times each list request the staff screens make, sequentially over one keep-alive connection:
the median and the 95th percentile of --repeat runs (after two warm-ups). Target: every page
under 100 ms. Standard library only; everything on 127.0.0.1; cleans up after itself.
"""
import argparse
import csv
import http.client
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, "build", "server", "storefront"))
TARGET_MS = 100.0

FIRST = ["Aroha", "Ben", "Chloe", "Daniel", "Emma", "Finn", "Grace", "Hemi", "Isla", "Jack", "Kiri", "Liam", "Mia",
         "Noah", "Olivia", "Paora", "Quinn", "Ruby", "Sam", "Tama", "Una", "Victor", "Wiremu", "Xavier", "Yasmin", "Zoe"]
LAST = ["Ngata", "Carter", "Wilson", "Tupou", "Thompson", "Brown", "Lee", "Walker", "Patel", "Henare", "Smith", "Chen",
        "Taylor", "Harris", "Martin", "Fifita", "Rangi", "Kelly", "Nguyen", "Parata", "King", "Ali", "Campbell", "Reid"]
STREETS = ["Queen Street", "Cuba Street", "Colombo Street", "George Street", "Victoria Street", "The Strand", "Devon Street"]
CITIES = ["Auckland", "Wellington", "Christchurch", "Dunedin", "Hamilton", "Tauranga", "New Plymouth", "Napier"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ts(epoch):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(epoch)) + ".%03dZ" % int((epoch % 1) * 1000)


WORKER_COLUMNS = ("id", "full_name", "email", "ewrb_licence_number", "entitlement", "created_at", "last_active_at",
                  "updated_at")
CERTIFICATE_COLUMNS = ("id", "worker_id", "certificate_number", "site_location", "status", "created_at", "updated_at",
                       "issued_at")


def generate(workers, certificates):
    """The rows (deterministic): a list of workers, an iterator of certificates, and the last number."""
    rng = random.Random(7)
    now = time.time()
    worker_ids = []
    worker_rows = []
    for i in range(workers):
        wid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        worker_ids.append(wid)
        first, last = rng.choice(FIRST), rng.choice(LAST)
        created = now - rng.uniform(0, 730) * 86400
        pro = rng.random() < 0.2
        worker_rows.append((wid, f"{first} {last}", f"{first.lower()}.{last.lower()}{i}@bench.example.test",
                            f"EW{100000 + i}", "pro" if pro else "free", ts(created),
                            ts(now - rng.uniform(0, 120) * 86400), ts(created)))
    state = {"number": 0}

    def certificate_rows():
        for _ in range(certificates):
            created = now - rng.uniform(0, 700) * 86400
            site = None if rng.random() < 0.05 else f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {rng.choice(CITIES)}"
            if rng.random() < 0.7:
                state["number"] += 1
                yield (str(uuid.UUID(int=rng.getrandbits(128), version=4)), rng.choice(worker_ids),
                       f"WW-2026-{state['number']:07d}", site, "issued", ts(created), ts(created), ts(created + 3600))
            else:
                yield (str(uuid.UUID(int=rng.getrandbits(128), version=4)), rng.choice(worker_ids), None, site, "draft",
                       ts(created), ts(created), None)

    return worker_rows, certificate_rows, state


def insert_sql(table, columns):
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"


def fill(db_path, workers, certificates):
    """SQLite: plain INSERTs (the search triggers of migration 0011 index every row as it comes)."""
    worker_rows, certificate_rows, state = generate(workers, certificates)
    con = sqlite3.connect(db_path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    con.executemany(insert_sql("worker_profiles", WORKER_COLUMNS), worker_rows)
    batch = []
    for row in certificate_rows():
        batch.append(row)
        if len(batch) >= 50000:
            con.executemany(insert_sql("certificates", CERTIFICATE_COLUMNS), batch)
            batch = []
    if batch:
        con.executemany(insert_sql("certificates", CERTIFICATE_COLUMNS), batch)
    con.execute("INSERT INTO certificate_number_counters (number_year, last_value) VALUES (2026, ?)", (max(state["number"], 1),))
    con.commit()
    con.execute("ANALYZE")
    con.commit()
    con.close()


def fill_postgres(psql, url, workers, certificates):
    """PostgreSQL: the same rows through COPY (the pg_trgm indexes of migration 0011 take them as they come)."""
    worker_rows, certificate_rows, state = generate(workers, certificates)

    def copy(table, columns, rows):
        proc = subprocess.Popen([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c",
                                 f"\\copy {table} ({', '.join(columns)}) FROM STDIN WITH (FORMAT csv)"],
                                stdin=subprocess.PIPE, text=True)
        writer = csv.writer(proc.stdin)
        for row in rows:
            writer.writerow(["" if v is None else v for v in row])
        proc.stdin.close()
        if proc.wait() != 0:
            sys.exit(f"companion_lists: COPY {table} failed")

    copy("worker_profiles", WORKER_COLUMNS, worker_rows)
    copy("certificates", CERTIFICATE_COLUMNS, certificate_rows())
    subprocess.run([psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c",
                    f"INSERT INTO certificate_number_counters (number_year, last_value) VALUES (2026, {max(state['number'], 1)})"],
                   check=True)
    subprocess.run([psql, "-X", "-q", "-d", url, "-c", "VACUUM ANALYZE"], check=True)


def pg_bindir():
    if os.environ.get("PG_BINDIR"):
        return os.environ["PG_BINDIR"]
    root = "/usr/lib/postgresql"
    cands = sorted(os.path.join(root, v, "bin") for v in os.listdir(root)) if os.path.isdir(root) else []
    cands = [d for d in cands if os.path.exists(os.path.join(d, "psql"))]
    return cands[-1] if cands else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=100_000)
    parser.add_argument("--certificates", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--db", help="keep the filled database here, and reuse it when it exists")
    parser.add_argument("--pg", action="store_true",
                        help="PostgreSQL instead of SQLite: a throwaway cluster (scripts/pg-throwaway), filled by COPY")
    args = parser.parse_args()
    if not os.access(BINARY, os.X_OK):
        sys.exit(f"companion_lists: build the server first ({BINARY})")

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        pgdir = None
        if args.pg:
            bindir = pg_bindir()
            if not bindir:
                sys.exit("companion_lists: no PostgreSQL binaries (PG_BINDIR)")
            start = subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "start"], cwd=ROOT, capture_output=True,
                                   text=True)
            if start.returncode != 0:
                sys.exit(f"companion_lists: scripts/pg-throwaway start failed:\n{start.stderr}")
            exports = dict(line.replace("export ", "", 1).split("=", 1) for line in start.stdout.splitlines()
                           if line.startswith("export "))
            db_path, pgdir = exports["STOREFRONT_TEST_DATABASE"], exports["PG_THROWAWAY_DIR"]
            reuse = False
        else:
            db_path = os.path.abspath(args.db) if args.db else os.path.join(tmp, "bench.db")
            reuse = os.path.exists(db_path)
        env = dict(os.environ, STOREFRONT_ENV="development", STOREFRONT_DATABASE=db_path, STOREFRONT_DATA_DIR=tmp, STOREFRONT_LOG_LEVEL="warning",
                   STOREFRONT_AUTH_ADMIN_MFA_REQUIRED="false", STOREFRONT_AUTH_CONFIRM_EMAIL="false",
                   STOREFRONT_WIREWRITE_INACTIVITY_ENABLED="false", STOREFRONT_WEB_DIR=tmp)
        try:
            subprocess.run([BINARY, "migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
            if reuse:
                print(f"reusing {db_path}")
            else:
                started = time.monotonic()
                if args.pg:
                    fill_postgres(os.path.join(pg_bindir(), "psql"), db_path, args.workers, args.certificates)
                else:
                    fill(db_path, args.workers, args.certificates)
                print(f"filled {args.workers:,} workers and {args.certificates:,} certificates in "
                      f"{time.monotonic() - started:.0f} s ({'PostgreSQL' if args.pg else 'SQLite'})")
            measure(args, env)
        finally:
            if pgdir:
                subprocess.run([os.path.join(ROOT, "scripts/pg-throwaway"), "stop", pgdir], capture_output=True)


def measure(args, env):
    password = "Bench-" + uuid.uuid4().hex
    admin_email = f"bench-admin-{uuid.uuid4().hex[:8]}@example.test"
    subprocess.run([BINARY, "users", "create", "--email", admin_email, "--admin"], env=env, check=True,
                   input=password.encode(), stdout=subprocess.DEVNULL)
    port = free_port()
    server = subprocess.Popen([BINARY], env=dict(env, STOREFRONT_PORT=str(port)), stdout=subprocess.DEVNULL)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(1200):  # up to 2 minutes on a loaded machine
            try:
                conn.request("GET", "/healthz")
                if conn.getresponse().read() and True:
                    break
            except OSError:
                conn.close()
                time.sleep(0.1)
        conn.request("POST", "/auth/v1/token?grant_type=password",
                     body=json.dumps({"email": admin_email, "password": password}),
                     headers={"Content-Type": "application/json"})
        token_response = conn.getresponse()
        token = json.loads(token_response.read())["access_token"]
        headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        cases = [
            ("stats", "/api/v1/admin/wirewrite/stats"),
            ("users: default (joined, newest first)", "/api/v1/admin/wirewrite/workers"),
            ("users: sort=name, page 1000", "/api/v1/admin/wirewrite/workers?sort=name&page=1000"),
            ("users: tier=pro, sort=tier desc", "/api/v1/admin/wirewrite/workers?tier=pro&sort=tier&dir=desc"),
            ("users: q=ngata (name search)", "/api/v1/admin/wirewrite/workers?q=ngata"),
            ("users: q=EW150000 (licence search)", "/api/v1/admin/wirewrite/workers?q=EW150000"),
            ("certificates: default (created, newest first)", "/api/v1/admin/wirewrite/certificates"),
            ("certificates: sort=number asc, page 200", "/api/v1/admin/wirewrite/certificates?sort=number&dir=asc&page=200"),
            ("certificates: status=draft, sort=status", "/api/v1/admin/wirewrite/certificates?status=draft&sort=status"),
            ("certificates: q=WW-2026-0123456 (number)", "/api/v1/admin/wirewrite/certificates?q=WW-2026-0123456"),
            ("certificates: q=cuba street (site)", "/api/v1/admin/wirewrite/certificates?q=cuba%20street"),
            ("certificates: q=cuba street, status=draft", "/api/v1/admin/wirewrite/certificates?q=cuba%20street&status=draft"),
            ("certificates: q=devon street, dunedin (site)",
             "/api/v1/admin/wirewrite/certificates?q=devon%20street%2C%20dunedin"),
            ("certificates: q=aroha.ngata1234 (worker email)", "/api/v1/admin/wirewrite/certificates?q=aroha.ngata1234"),
            ("certificates: q=ngata (worker name)", "/api/v1/admin/wirewrite/certificates?q=ngata"),
            ("users: q=ng (two characters: a scan)", "/api/v1/admin/wirewrite/workers?q=ng"),
            ("certificates: q=7 (one character: a scan)", "/api/v1/admin/wirewrite/certificates?q=7"),
            ("certificates: q=7, status=draft", "/api/v1/admin/wirewrite/certificates?q=7&status=draft"),
            ("certificates: q=7, page 100", "/api/v1/admin/wirewrite/certificates?q=7&page=100"),
            ("certificates: q=ki (two characters, via the worker)", "/api/v1/admin/wirewrite/certificates?q=ki"),
            ("certificates: q=zz (two characters, no match)", "/api/v1/admin/wirewrite/certificates?q=zz"),
            ("promo codes", "/api/v1/admin/wirewrite/promo-codes"),
        ]
        print(f"load average before measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
        print(f"\n{'request':48} {'median ms':>10} {'p95 ms':>8}  target")
        missed = 0
        for name, path in cases:
            times = []
            for i in range(args.repeat + 2):
                t0 = time.perf_counter()
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                body = response.read()
                elapsed = (time.perf_counter() - t0) * 1000
                if response.status != 200:
                    sys.exit(f"companion_lists: {path} answered {response.status}: {body[:200]!r}")
                if i >= 2:
                    times.append(elapsed)
            median = statistics.median(times)
            p95 = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
            ok = median < TARGET_MS
            missed += 0 if ok else 1
            print(f"{name:48} {median:10.1f} {p95:8.1f}  {'PASS' if ok else 'MISS'}")
        print(f"\n{len(cases) - missed} of {len(cases)} under {TARGET_MS:.0f} ms (median); "
              f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
