#!/usr/bin/env python3
"""A loopback HTTP server that records what it receives, for the notify
tests. Listens on 127.0.0.1 (a free port, written to PORTFILE once it
listens) and appends one JSON line per request to LOG: method, path,
headers, body (text), the monotonic time it arrived, and the status sent.

The first part of the path says how to answer:
  /ok/...          200
  /fail-once/...   500 the first time for that path, then 200
  /429-once/...    429 with Retry-After: 2 the first time, then 200
  /500/...         500 always
  /404/...         404 always
  /hang/...        never answers (the connection stays open)
  /slow-once/...   the first time: recorded, then 200 after 60 s; then 200
  /github/...      201 with {"id": 1} (GitHub's REST API answers so)

With CERT and KEY (PEM files) it speaks HTTPS instead.

usage: server.py PORTFILE LOG [CERT KEY]
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

portfile, logfile = sys.argv[1], sys.argv[2]
lock = threading.Lock()
seen = {}


def record(entry):
    with lock:
        with open(logfile, "a") as f:
            f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"ok", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode("utf-8", "replace")
        mode = self.path.split("/")[1] if "/" in self.path else ""
        with lock:
            count = seen.get(self.path, 0)
            seen[self.path] = count + 1
        status, extra, delay = 200, (), 0
        if mode == "fail-once" and count == 0:
            status = 500
        elif mode == "429-once" and count == 0:
            status, extra = 429, (("Retry-After", "2"),)
        elif mode == "500":
            status = 500
        elif mode == "404":
            status = 404
        elif mode == "github":
            status = 201
        elif mode == "hang":
            delay = 3600
        elif mode == "slow-once" and count == 0:
            delay = 60
        record({"method": self.command, "path": self.path, "headers": dict(self.headers),
                "body": body, "time": time.monotonic(), "status": status,
                "delayed": delay > 0})
        if delay:
            time.sleep(delay)
        self.answer(status, b'{"id": 1}' if mode == "github" else b"ok", extra)

    do_POST = handle_any
    do_PUT = handle_any
    do_PATCH = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) > 4:
    import ssl

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(sys.argv[3], sys.argv[4])
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os  # noqa: E402

os.rename(portfile + ".tmp", portfile)
server.serve_forever()
