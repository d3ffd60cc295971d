#!/usr/bin/env python3
"""Small helpers for bench/run (standard library only; everything talks to 127.0.0.1).

  tools.py free-port                      print a free loopback TCP port
  tools.py wait-http PORT PATH SECONDS     wait until GET PATH answers 200 (exit 1 on timeout)
  tools.py fetch PORT PATH OUT_BODY OUT_HEADERS
        GET PATH once over a raw socket; write the exact body bytes to OUT_BODY and the response
        status line and headers (one "Name: value" a line) to OUT_HEADERS; exit 1 unless 200
  tools.py cpu-busy [SECONDS]              print the machine's CPU use (%) over SECONDS (1)
  tools.py nginx-headers HEADERS_FILE      print nginx directives (default_type + add_header)
        that mirror the storefront's own response headers for that resource
"""
import socket
import sys
import time


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read_response(sock, deadline):
    """Reads one HTTP/1.1 response with a Content-Length body. Returns (status, headers, body)."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("connection closed before the response headers")
        buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    lengths = [v for n, v in headers if n.lower() == "content-length"]
    if not lengths:
        raise ValueError("response has no Content-Length (chunked responses are not expected here)")
    length = int(lengths[0])
    while len(body) < length:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("connection closed inside the response body")
        body += chunk
    return status, lines[0], headers, body[:length]


def get(port, path, timeout=10.0, keep_alive=False):
    deadline = time.monotonic() + timeout
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        conn = "keep-alive" if keep_alive else "close"
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {conn}\r\n\r\n".encode())
        return read_response(s, deadline)


def wait_http(port, path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            status, *_ = get(port, path, timeout=2.0)
            if status == 200:
                return 0
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    return 1


def fetch(port, path, out_body, out_headers):
    status, status_line, headers, body = get(port, path)
    with open(out_body, "wb") as f:
        f.write(body)
    with open(out_headers, "w", encoding="latin-1") as f:
        f.write(status_line + "\n")
        for name, value in headers:
            f.write(f"{name}: {value}\n")
    if status != 200:
        print(f"GET {path} answered {status}, expected 200", file=sys.stderr)
        return 1
    return 0


# Headers nginx writes itself (or that describe this connection/body), so they are not mirrored.
NOT_MIRRORED = {"date", "server", "content-length", "connection", "keep-alive", "transfer-encoding",
                "content-type", "etag", "last-modified", "accept-ranges"}


def nginx_headers(headers_file):
    with open(headers_file, encoding="latin-1") as f:
        lines = f.read().splitlines()[1:]
    out = []
    for line in lines:
        name, _, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if name.lower() == "content-type":
            out.append(f'default_type "{value}";')
        elif name.lower() not in NOT_MIRRORED:
            if any(c in value for c in '"\\$') or any(c in name for c in '"\\$ ;{}'):
                out.append(f"# not mirrored (needs escaping): {name}")
                continue
            out.append(f'add_header {name} "{value}" always;')
    print("\n".join(out))
    return 0



def cpu_busy(seconds):
    def sample():
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        idle = values[3] + values[4]  # idle + iowait
        return sum(values), idle
    total0, idle0 = sample()
    time.sleep(seconds)
    total1, idle1 = sample()
    total = max(1, total1 - total0)
    print(f"{100.0 * (1 - (idle1 - idle0) / total):.0f}")
    return 0


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    if cmd == "free-port":
        print(free_port())
        return 0
    if cmd == "wait-http":
        return wait_http(int(args[0]), args[1], float(args[2]))
    if cmd == "fetch":
        return fetch(int(args[0]), args[1], args[2], args[3])
    if cmd == "cpu-busy":
        return cpu_busy(float(args[0]) if args else 1.0)
    if cmd == "nginx-headers":
        return nginx_headers(args[0])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
