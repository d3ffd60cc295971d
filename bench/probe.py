#!/usr/bin/env python3
"""Keep-alive starvation probe (127.0.0.1 only; standard library only).

Opens IDLE keep-alive connections to the server; each sends one complete `GET /healthz` with
`Connection: keep-alive`, reads the whole response, then stays open and silent, like the idle
connections browsers keep. While they are open, a NEW connection makes `GET /api/v1/products`;
the figure is the time from connect() to the last byte of its response. A thread-per-connection
server whose threads are all parked on idle connections makes that visitor wait until a
keep-alive timeout frees one; a healthy one answers in a few milliseconds.

  probe.py --port PORT [--idle 300] [--path /api/v1/products] [--idle-path /healthz]
           [--probes 5] [--timeout 20] [--label NAME]

Prints a human summary and one machine-readable line starting with "PROBE ". Every socket is
closed before exit. Exit status: 0 when the measurement ran (slow or not), 1 when it could not run
(connection refused, bad status).
"""
import argparse
import resource
import selectors
import socket
import statistics
import sys
import time


def request(path, port, keep_alive):
    conn = "keep-alive" if keep_alive else "close"
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {conn}\r\n\r\n".encode()


def parse_complete(buf):
    """Returns (status, total_length) once the headers are in, else None."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = buf[:end].decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    length = 0
    for line in head[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return status, end + 4 + length


def open_idle(port, count, path, deadline):
    """Opens `count` keep-alive connections, one request each, concurrently. Returns
    (sockets, answered, failures, seconds)."""
    start = time.perf_counter()
    socks, failures = [], 0
    sel = selectors.DefaultSelector()
    try:
        for _ in range(count):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=max(0.1, deadline - time.monotonic()))
            except OSError:
                failures += 1
                continue
            socks.append(s)
            try:
                s.sendall(request(path, port, keep_alive=True))
            except OSError:
                failures += 1
                continue
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ, bytearray())
        answered = 0
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(timeout=min(0.2, max(0.0, deadline - time.monotonic()))):
                s, buf = key.fileobj, key.data
                try:
                    chunk = s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    failures += 1
                    sel.unregister(s)
                    continue
                buf += chunk
                done = parse_complete(bytes(buf))
                if done and len(buf) >= done[1]:
                    sel.unregister(s)
                    if done[0] == 200:
                        answered += 1
                    else:
                        failures += 1
        for key in list(sel.get_map().values()):  # still unanswered at the deadline
            sel.unregister(key.fileobj)
    finally:
        sel.close()
    return socks, answered, failures, time.perf_counter() - start


def still_open(socks):
    """Counts sockets the server has not closed (no EOF, no error, nothing unread)."""
    n = 0
    for s in socks:
        try:
            data = s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            if data:
                n += 1  # open (unexpected extra bytes, but open)
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


def probe_once(port, path, timeout):
    """One new connection, one GET, full response. Returns (milliseconds or None, status, bytes)."""
    start = time.perf_counter()
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            s.sendall(request(path, port, keep_alive=False))
            buf = b""
            while True:
                s.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                done = parse_complete(buf)
                if done and len(buf) >= done[1]:
                    return (time.perf_counter() - start) * 1000.0, done[0], done[1]
            return None, 0, len(buf)
    except socket.timeout:
        return None, 0, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--idle", type=int, default=300)
    ap.add_argument("--path", default="/api/v1/products")
    ap.add_argument("--idle-path", default="/healthz")
    ap.add_argument("--probes", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=20.0,
                    help="seconds; bounds opening the idle connections and each probe (at most 2x this in all)")
    ap.add_argument("--label", default="server")
    a = ap.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = a.idle + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))

    socks = []
    try:
        socks, answered, failures, open_s = open_idle(a.port, a.idle, a.idle_path, time.monotonic() + a.timeout)
        open_before = still_open(socks)
        times, statuses = [], []
        for _ in range(a.probes):
            ms, status, _ = probe_once(a.port, a.path, a.timeout)
            times.append(ms)
            statuses.append(status)
            if ms is None:
                break  # starved: waiting out the timeout again would only repeat the answer
        open_after = still_open(socks)
    finally:
        for s in socks:
            try:
                s.close()
            except OSError:
                pass

    def fmt(ms):
        return f"{ms:.1f}" if ms is not None else f"timeout>{a.timeout * 1000:.0f}"

    done = [t for t in times if t is not None]
    first = times[0] if times else None
    worst = max(done) if len(done) == len(times) and done else None
    median = statistics.median(done) if done else None
    print(f"[{a.label}] idle keep-alive connections: {answered}/{a.idle} answered {a.idle_path} in {open_s:.2f}s "
          f"({failures} failed); open before probe {open_before}, after {open_after}")
    print(f"[{a.label}] new connection GET {a.path}: first {fmt(first)} ms; all {[fmt(t) for t in times]} ms; "
          f"statuses {statuses}")
    print(f"PROBE label={a.label} idle={a.idle} idle_answered={answered} idle_failed={failures} "
          f"idle_open_before={open_before} idle_open_after={open_after} open_seconds={open_s:.3f} "
          f"first_ms={fmt(first)} median_ms={fmt(median)} max_ms={fmt(worst)} "
          f"statuses={','.join(map(str, statuses))}")
    if not statuses or any(s not in (200, 0) for s in statuses) or answered == 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
