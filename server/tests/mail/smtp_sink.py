#!/usr/bin/python3
"""A real SMTP server on loopback that keeps every message, and a strict checker of what it kept.

  smtp_sink.py serve FOLDER
      Starts aiosmtpd (Debian's python3-aiosmtpd) on 127.0.0.1, on a free port, prints the port on
      a line of its own, and saves each message it accepts as FOLDER/NNNN.eml (the bytes of DATA
      after SMTP transparency is undone) with FOLDER/NNNN.json (the envelope). Runs until its
      standard input closes (so it stops when the test that started it stops or dies) or SIGTERM.

  smtp_sink.py check EXPECTATIONS.json
      EXPECTATIONS is a list of {"kind", "file", "from_name", "from_address", "to", "reply_to",
      "subject", "text", "heading", "legal_name", "address"}: what the server meant to send. Each
      file is parsed with Python's email package under the strict default policy and checked: CRLF
      line endings only, 7-bit, no line over 998 octets (78 in the header, 76 in the
      quoted-printable body), no parser defects on the message, any part or any header, Date /
      From / To / Subject / Message-ID / MIME-Version / Content-Type each present once and well
      formed, the Message-ID on the From address's domain, the envelope matching the headers, the
      decoded subject and addresses what was meant, and the body multipart/alternative with two
      quoted-printable UTF-8 parts: text/plain equal to the text, then text/html (the kind's
      heading, the footer's legal name and address, inline styles only, no image, script, style
      sheet or class, and links to exactly the URLs of the text). Prints a JSON object
      {kind: [problems]} and exits 0 when every list is empty, 1 otherwise.
"""
import asyncio
import datetime
import email
import email.policy
import html
import html.parser
import json
import os
import re
import signal
import socket
import sys
import threading

REQUIRED = ["Date", "From", "To", "Subject", "Message-ID", "MIME-Version", "Content-Type"]
URL = re.compile(r"https?://[^\s]+")
BANNED_TAGS = {"img", "script", "style", "link", "iframe", "object", "embed", "form", "base"}


class HtmlFacts(html.parser.HTMLParser):
    """What the HTML part holds: its links, its banned tags and attributes, its visible text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hrefs, self.banned, self.text, self.h1 = set(), [], [], []
        self.in_h1 = False

    def handle_starttag(self, tag, attrs):
        if tag in BANNED_TAGS:
            self.banned.append("<%s>" % tag)
        for name, value in attrs:
            if name in ("class", "src", "srcset", "background") or name.startswith("on"):
                self.banned.append("%s= on <%s>" % (name, tag))
            if name == "href":
                self.hrefs.add(value)
        self.in_h1 = tag == "h1"

    def handle_endtag(self, tag):
        if tag == "h1":
            self.in_h1 = False

    def handle_data(self, data):
        self.text.append(data)
        if self.in_h1:
            self.h1.append(data)


def urls_of(text):
    return {u.rstrip(".,;:)!?\"'") for u in URL.findall(text)}


def check_html(e, part, problems):
    facts = HtmlFacts()
    facts.feed(part.get_content())
    visible = " ".join("".join(facts.text).split())
    problems.extend("HTML part has %s" % b for b in facts.banned)
    if facts.hrefs != urls_of(e["text"]):
        problems.append("HTML links %r, the text's %r" % (sorted(facts.hrefs), sorted(urls_of(e["text"]))))
    if "".join(facts.h1).strip() != e["heading"]:
        problems.append("HTML heading %r, want %r" % ("".join(facts.h1), e["heading"]))
    for what in ("legal_name", "address"):
        if " ".join(e[what].split()) not in visible:
            problems.append("HTML footer lacks the %s %r" % (what, e[what]))
    for line in e["text"].splitlines():
        for word in URL.sub(" ", line).split():
            if word not in visible:
                problems.append("HTML part lacks the text's %r" % word)
                return
DATE_FORM = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                       r"\d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$")
MESSAGE_ID = re.compile(r"^<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@([A-Za-z0-9.-]+)>$")


class Saver:
    def __init__(self, folder):
        self.folder = folder
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            stem = os.path.join(self.folder, "%04d" % self.count)
        with open(stem + ".eml", "wb") as f:
            f.write(envelope.original_content)
        meta = {"mail_from": envelope.mail_from, "rcpt_tos": list(envelope.rcpt_tos)}
        with open(stem + ".json.tmp", "w") as f:
            json.dump(meta, f)
        os.rename(stem + ".json.tmp", stem + ".json")  # the .json appearing means the message is whole
        return "250 Message accepted for delivery"


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(folder):
    from aiosmtpd.controller import Controller

    os.makedirs(folder, exist_ok=True)
    controller = None
    for _ in range(10):  # another process may take the port between probing and binding
        try:
            controller = Controller(Saver(folder), hostname="127.0.0.1", port=free_port())
            controller.start()
            break
        except Exception as error:  # noqa: BLE001 - retried on a new port, then reported
            last = error
            controller = None
    if controller is None:
        print("cannot start the SMTP sink: %s" % last, file=sys.stderr)
        return 2
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(controller.port, flush=True)
    watcher = threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True)
    watcher.start()
    stop.wait()
    controller.stop()
    return 0


def check_one(e):
    problems = []
    with open(e["file"], "rb") as f:
        raw = f.read()
    with open(e["file"][:-4] + ".json") as f:
        envelope = json.load(f)

    # The wire form.
    if re.search(rb"(?<!\r)\n", raw):
        problems.append("bare LF in the message")
    if re.search(rb"\r(?!\n)", raw):
        problems.append("bare CR in the message")
    if any(b > 127 for b in raw):
        problems.append("8-bit bytes in the message (it must be 7-bit without 8BITMIME)")
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        problems.append("no blank line between header and body")
    for name, part, limit in (("header", head, 78), ("body", body, 76)):
        for line in part.split(b"\r\n"):
            if len(line) > 998:
                problems.append("%s line of %d octets (over 998): %r" % (name, len(line), line[:60]))
            elif len(line) > limit:
                problems.append("%s line of %d octets (over %d): %r" % (name, len(line), limit, line[:60]))

    # The strict parse.
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for defect in msg.defects:
        problems.append("message defect: %r" % defect)
    for name, value in msg.items():
        for defect in getattr(value, "defects", ()):
            problems.append("%s header defect: %r" % (name, defect))
    for name in REQUIRED:
        n = len(msg.get_all(name) or [])
        if n != 1:
            problems.append("%d %s headers (want 1)" % (n, name))
    if problems and any("headers (want 1)" in p for p in problems):
        return problems

    if str(msg["MIME-Version"]) != "1.0":
        problems.append("MIME-Version is %r" % str(msg["MIME-Version"]))
    if msg.get_content_type() != "multipart/alternative":
        problems.append("Content-Type is %r" % str(msg["Content-Type"]))
        return problems
    parts = list(msg.iter_parts())
    types = [p.get_content_type() for p in parts]
    if types != ["text/plain", "text/html"]:
        problems.append("parts %r, want text/plain then text/html" % types)
        return problems
    for part in parts:
        for defect in part.defects:
            problems.append("%s part defect: %r" % (part.get_content_type(), defect))
        if part.get_content_charset() != "utf-8":
            problems.append("%s charset %r" % (part.get_content_type(), part.get_content_charset()))
        if part["Content-Transfer-Encoding"] is None or part["Content-Transfer-Encoding"].cte != "quoted-printable":
            problems.append("%s Content-Transfer-Encoding is %r" % (part.get_content_type(), str(part["Content-Transfer-Encoding"])))

    date = msg["Date"]
    if not DATE_FORM.match(str(date)):
        problems.append("Date %r is not in the RFC 5322 form" % str(date))
    elif date.datetime is None or date.datetime.tzinfo is None:
        problems.append("Date %r has no zone" % str(date))
    else:
        skew = abs((datetime.datetime.now(datetime.timezone.utc) - date.datetime).total_seconds())
        if skew > 3600:
            problems.append("Date %r is %d s from now" % (str(date), skew))

    senders = msg["From"].addresses
    if len(senders) != 1:
        problems.append("From holds %d addresses" % len(senders))
    else:
        if senders[0].addr_spec != e["from_address"]:
            problems.append("From address %r, want %r" % (senders[0].addr_spec, e["from_address"]))
        if senders[0].display_name != e["from_name"]:
            problems.append("From name %r, want %r" % (senders[0].display_name, e["from_name"]))
        match = MESSAGE_ID.match(str(msg["Message-ID"]).strip())
        if not match:
            problems.append("Message-ID %r is not <id@domain>" % str(msg["Message-ID"]))
        elif match.group(1).lower() != senders[0].domain.lower():
            problems.append("Message-ID domain %r is not the sender's %r" % (match.group(1), senders[0].domain))

    recipients = [a.addr_spec for a in msg["To"].addresses]
    if recipients != [e["to"]]:
        problems.append("To %r, want [%r]" % (recipients, e["to"]))
    if e.get("reply_to"):
        reply = [a.addr_spec for a in msg["Reply-To"].addresses] if msg["Reply-To"] else []
        if reply != [e["reply_to"]]:
            problems.append("Reply-To %r, want [%r]" % (reply, e["reply_to"]))
    elif msg["Reply-To"] is not None:
        problems.append("Reply-To %r, want none" % str(msg["Reply-To"]))
    if str(msg["Subject"]) != e["subject"]:
        problems.append("Subject %r, want %r" % (str(msg["Subject"]), e["subject"]))

    try:
        text = parts[0].get_content().replace("\r\n", "\n")
        if text != e["text"]:
            problems.append("text differs:\n--- got\n%s\n--- want\n%s" % (text, e["text"]))
        check_html(e, parts[1], problems)
    except Exception as error:  # noqa: BLE001 - a body that cannot be decoded is the finding
        problems.append("body cannot be decoded: %r" % error)

    if envelope["mail_from"] != e["from_address"]:
        problems.append("MAIL FROM %r, want %r" % (envelope["mail_from"], e["from_address"]))
    if envelope["rcpt_tos"] != [e["to"]]:
        problems.append("RCPT TO %r, want [%r]" % (envelope["rcpt_tos"], e["to"]))
    return problems


def check(path):
    with open(path) as f:
        expectations = json.load(f)
    report = {}
    for e in expectations:
        try:
            report[e["kind"]] = check_one(e)
        except Exception as error:  # noqa: BLE001 - reported per message, the others still checked
            report[e["kind"]] = ["cannot check: %r" % error]
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 0 if expectations and all(not p for p in report.values()) else 1


def main(argv):
    if len(argv) == 3 and argv[1] == "serve":
        return serve(argv[2])
    if len(argv) == 3 and argv[1] == "check":
        return check(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
