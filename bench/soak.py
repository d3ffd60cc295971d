#!/usr/bin/env python3
"""Soak: mixed load on one storefront process for a long time; is its memory flat?

  bench/soak.py [--seconds N] [--clients N]      (defaults: BENCH_SOAK_SECONDS or 600, 8 clients)

On 127.0.0.1 only: starts build/server/storefront on a free port with a fresh SQLite database in a
temp dir (local payment provider, log level warning, tiny argon2 cost), creates 8 users with the
server's own CLI, adds a tracked bench product with 10^9 in stock (a copy of the seeded
usb-rs232-cable), signs each user in, then runs N client threads for the duration, each looping
over a weighted mix:
  35 %  GET /api/v1/products                   (catalogue JSON)
  20 %  GET /product/usb-rs232-cable           (server-rendered page)
  15 %  GET /api/v1/account/dashboard          (signed in)
  15 %  POST create-checkout-session, then pay (the local provider's page: 303)
   5 %  POST /api/v1/contact                   (writes a row and an outbox mail)
   5 %  sign in again (argon2 verify, new session)
   5 %  GET /auth/v1/user                       (signed in)
Every 10 s it samples the server's VmRSS and VmHWM (/proc/PID/status) and its thread and file
descriptor counts. Prints and writes bench/results/soak.md: RSS at the start of the load, after the
first minute (warm: caches, pools and thread stacks in place) and at the end, the growth from warm
to end, requests by status, and latency percentiles. Exit 0 when measured (whatever the figures),
1 when a request failed with a 5xx or no answer, 2 on an infrastructure failure.
--only KIND,... runs just those kinds (to tell which requests the memory follows); --server-env NAME=VALUE
(repeatable) gives the server a setting (e.g. STOREFRONT_MALLOC_TRIM_SECONDS=0).
Knobs: BENCH_SOAK_SECONDS, BENCH_SOAK_CLIENTS, BENCH_SOAK_OUT, STOREFRONT_BIN.
"""
import argparse
import base64
import http.client
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BIN = os.environ.get("STOREFRONT_BIN", os.path.join(ROOT, "build", "server", "storefront"))
OUT = os.environ.get("BENCH_SOAK_OUT", os.path.join(HERE, "results", "soak.md"))
USERS = 8
PRODUCT_ID = "b0000000-0000-4000-8000-00000000050a"
PRODUCT_SLUG = "bench-soak-item"
SAMPLE_SECONDS = 10
MIX = [("products", 35), ("page", 20), ("dashboard", 15), ("order", 15), ("contact", 5), ("signin", 5), ("user", 5)]


def log(message):
    print(f"soak: {message}", flush=True)


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            values[name] = value.strip()
    kib = lambda name: int(values.get(name, "0 kB").split()[0])
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    return {"rss": kib("VmRSS"), "hwm": kib("VmHWM"), "threads": int(values.get("Threads", "0")), "fds": fds}


class Client:
    """One keep-alive connection; reconnects when the server closes it."""

    def __init__(self, port):
        self.port = port
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                self.conn.request(method, path, body=data, headers=headers)
                res = self.conn.getresponse()
                payload = res.read()
                if res.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return res.status, payload, res
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed (idle timeout): one retry on a new one.
                self.conn.close()
                self.conn = None
                if attempt == 1:
                    raise
        raise RuntimeError("unreachable")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("BENCH_SOAK_SECONDS", "600")))
    parser.add_argument("--clients", type=int, default=int(os.environ.get("BENCH_SOAK_CLIENTS", "8")))
    parser.add_argument("--only", default="", help="comma-separated request kinds to run (diagnosis), e.g. products,page")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for the server (repeatable), e.g. STOREFRONT_MALLOC_TRIM_SECONDS=0")
    args = parser.parse_args()
    if any("=" not in e or not e.split("=", 1)[0] for e in args.server_env):
        log("--server-env takes NAME=VALUE")
        return 2
    only = [k for k in args.only.split(",") if k]
    if any(k not in dict(MIX) for k in only):
        log(f"--only takes kinds from {', '.join(k for k, _ in MIX)}")
        return 2
    if not os.access(BIN, os.X_OK):
        log(f"no server binary at {BIN} (run scripts/build first)")
        return 2
    work = tempfile.mkdtemp(prefix="storefront-soak.")
    proc = None
    try:
        port = free_port()
        data = os.path.join(work, "data")
        os.makedirs(data)
        database = os.path.join(data, "storefront.db")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("STOREFRONT_", "SMTP_"))}
        env.update({
            "STOREFRONT_ENV": "development",
            "STOREFRONT_BIND": "127.0.0.1", "STOREFRONT_PORT": str(port), "STOREFRONT_PUBLIC_URL": f"http://127.0.0.1:{port}",
            "STOREFRONT_DATA_DIR": data, "STOREFRONT_DATABASE": database,
            "STOREFRONT_WEB_DIR": os.path.join(ROOT, "web", "dist"), "STOREFRONT_LOG_LEVEL": "warning",
            "STOREFRONT_PAYMENT_PROVIDER": "local", "STOREFRONT_CHECKOUT_EXPIRY_SECONDS": "86400",
            "STOREFRONT_AUTH_ARGON2_OPS": "1", "STOREFRONT_AUTH_ARGON2_MEMORY_KIB": "8",
            "STOREFRONT_CONTACT_LIMIT": "100000", "STOREFRONT_CONTACT_WINDOW_SECONDS": "1", "STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ACCOUNT": "1000000",
            "STOREFRONT_AUTH_SIGNIN_LIMIT_PER_ADDRESS": "1000000",
        })
        env.update(e.split("=", 1) for e in args.server_env)
        for n in range(USERS):
            run = subprocess.run([BIN, "users", "create", "--email", f"soak-{n}@example.test"], input=f"soak password {n}",
                                 env=env, cwd=ROOT, capture_output=True, text=True, check=False)
            if run.returncode != 0:
                log(f"users create failed: {run.stderr.strip() or run.stdout.strip()}")
                return 2
        log_path = os.path.join(work, "storefront.log")
        with open(log_path, "ab") as out:
            proc = subprocess.Popen([BIN], env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=ROOT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if Client(port).request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                log("the storefront did not answer /healthz within 30 s")
                return 2
            time.sleep(0.1)
        with sqlite3.connect(database, timeout=30) as db:
            db.execute(f"""INSERT INTO products (id, slug, name, description, type, icon_url, stock_quantity,
                track_inventory, is_active, features, action_type, show_pricing, price_nzd, created_at, updated_at)
                SELECT '{PRODUCT_ID}', '{PRODUCT_SLUG}', 'Soak item', description, 'physical', icon_url, 1000000000, 1, 1,
                features, 'checkout', show_pricing, price_nzd, '2099-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z'
                FROM products WHERE slug = 'usb-rs232-cable'""")
        tokens = []
        setup = Client(port)
        for n in range(USERS):
            status, body, _ = setup.request("POST", "/auth/v1/token?grant_type=password",
                                            {"email": f"soak-{n}@example.test", "password": f"soak password {n}"})
            if status != 200:
                log(f"sign-in failed: {status} {body[:200]!r}")
                return 2
            tokens.append(json.loads(body)["access_token"])

        counts, latencies, failures = {}, [], []
        lock = threading.Lock()
        stop = threading.Event()
        kinds = [k for k, w in MIX for _ in range(w) if not only or k in only]

        def worker(index):
            rnd = random.Random(index)
            client = Client(port)
            n = index % USERS
            auth = {"Authorization": f"Bearer {tokens[n]}"}
            while not stop.is_set():
                kind = rnd.choice(kinds)
                start = time.monotonic()
                try:
                    if kind == "products":
                        status = client.request("GET", "/api/v1/products")[0]
                    elif kind == "page":
                        status = client.request("GET", "/product/usb-rs232-cable")[0]
                    elif kind == "dashboard":
                        status = client.request("GET", "/api/v1/account/dashboard", headers=auth)[0]
                    elif kind == "user":
                        status = client.request("GET", "/auth/v1/user", headers=auth)[0]
                    elif kind == "order":
                        status, body, _ = client.request("POST", "/functions/v1/create-checkout-session",
                                                         {"productSlug": PRODUCT_SLUG, "quantity": 1}, auth)
                        if status == 200:
                            url = json.loads(body)["url"]
                            path = url[url.index("/", len("http://")):]
                            status = client.request("POST", path + "/pay", b"",
                                                    {"Content-Type": "application/x-www-form-urlencoded"})[0]
                    elif kind == "contact":
                        status = client.request("POST", "/api/v1/contact",
                                                {"name": "Soak Test", "email": f"soak-{index}@example.test",
                                                 "company": "Soak", "message": "A message from the soak test."})[0]
                    else:
                        status, body, _ = client.request("POST", "/auth/v1/token?grant_type=password",
                                                         {"email": f"soak-{n}@example.test", "password": f"soak password {n}"})
                        if status == 200:
                            auth = {"Authorization": f"Bearer {json.loads(body)['access_token']}"}
                except Exception as e:  # noqa: BLE001 - every failure is counted and reported
                    status = 0
                    with lock:
                        failures.append(f"{kind}: {e!r}")
                elapsed = time.monotonic() - start
                with lock:
                    counts[(kind, status)] = counts.get((kind, status), 0) + 1
                    latencies.append(elapsed)
                    if status >= 500:
                        failures.append(f"{kind}: {status}")

        samples = [(0.0, proc_status(proc.pid))]
        log(f"load: {args.clients} clients for {args.seconds} s; RSS at start {samples[0][1]['rss']} KiB")
        threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(args.clients)]
        began = time.monotonic()
        for t in threads:
            t.start()
        while time.monotonic() - began < args.seconds:
            time.sleep(min(SAMPLE_SECONDS, max(0.0, args.seconds - (time.monotonic() - began))))
            if proc.poll() is not None:
                log("the storefront died during the soak")
                break
            samples.append((time.monotonic() - began, proc_status(proc.pid)))
            s = samples[-1][1]
            log(f"{samples[-1][0]:6.0f} s  RSS {s['rss']} KiB  threads {s['threads']}  fds {s['fds']}  requests {len(latencies)}")
        stop.set()
        for t in threads:
            t.join(timeout=60)
        alive = proc.poll() is None

        start_rss = samples[0][1]["rss"]
        warm = next((s for at, s in samples if at >= 60), samples[min(1, len(samples) - 1)][1])
        end = samples[-1][1]
        total = len(latencies)
        lat = sorted(latencies)
        pct = lambda p: lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else 0
        lines = [
            "# Soak", "",
            f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: `bench/soak.py --seconds {args.seconds} --clients {args.clients}"
            f"{' --only ' + args.only if only else ''}{''.join(' --server-env ' + e for e in args.server_env)}`,"
            f" SQLite, {total} requests ({total / max(1, args.seconds):.0f}/s).", "",
            "| sample | RSS KiB | peak RSS KiB | threads | fds |", "|---|---:|---:|---:|---:|",
            f"| start of load | {start_rss} | {samples[0][1]['hwm']} | {samples[0][1]['threads']} | {samples[0][1]['fds']} |",
            f"| warm (after 60 s) | {warm['rss']} | {warm['hwm']} | {warm['threads']} | {warm['fds']} |",
            f"| end ({samples[-1][0]:.0f} s) | {end['rss']} | {end['hwm']} | {end['threads']} | {end['fds']} |", "",
            f"Growth warm to end: {end['rss'] - warm['rss']:+d} KiB ({(end['rss'] - warm['rss']) / max(1, warm['rss']) * 100:+.1f} %);"
            f" start to end {end['rss'] - start_rss:+d} KiB. Server alive at the end: {'yes' if alive else 'NO'}.", "",
            f"Latency ms: p50 {pct(50):.1f}, p99 {pct(99):.1f}, max {pct(100):.1f}.", "",
            "| request | status | count |", "|---|---:|---:|",
        ] + [f"| {k} | {s} | {c} |" for (k, s), c in sorted(counts.items())] + [
            "", f"Failures (5xx or no answer): {len(failures)}" + (f"; first: {failures[:5]}" if failures else ""), "",
            "RSS every 10 s (KiB): " + " ".join(str(s["rss"]) for _, s in samples),
        ]
        report = "\n".join(lines) + "\n"
        print(report)
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        with open(OUT, "w") as f:
            f.write(report)
        log(f"written to {OUT}")
        return 0 if alive and not failures else 1
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
