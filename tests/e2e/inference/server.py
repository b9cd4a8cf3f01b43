#!/usr/bin/env python3
"""A stand-in inference server for tests/e2e/inference: answers GET /health
(200, or 503 with --never-healthy) and GET /v1/models like sglang's
launch_server, prints sglang's readiness line ("The server is fired up and
ready to roll!", which CVS's sglang_common.py waits for), and writes its pid
(and its children's, with --child) to --pidfile so a test can check that
assay stopped the whole process group.

usage: server.py --port P --pidfile FILE [--never-healthy] [--child]
                 [--log-error TEXT]"""
import argparse
import http.server
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--pidfile", required=True)
ap.add_argument("--never-healthy", action="store_true")
ap.add_argument("--child", action="store_true")
ap.add_argument("--log-error", default="")
args = ap.parse_args()

pids = [os.getpid()]
if args.child:  # a helper process in the same group, as a real server has
    pids.append(subprocess.Popen(["sleep", "600"]).pid)
with open(args.pidfile, "a") as f:
    f.write(" ".join(str(p) for p in pids) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/health":
            code = 503 if args.never_healthy else 200
            body = b"" if code == 200 else b"loading"
        elif self.path == "/v1/models":
            code, body = 200, b'{"data": [{"id": "toy-llama"}]}'
        else:
            code, body = 404, b""
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if self.path == "/v1/models" and args.log_error:
            print(args.log_error, flush=True)

    def log_message(self, fmt, *a):
        print("request: " + fmt % a, flush=True)


srv = http.server.HTTPServer(("127.0.0.1", args.port), Handler)
print("The server is fired up and ready to roll!", flush=True)
try:
    srv.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
