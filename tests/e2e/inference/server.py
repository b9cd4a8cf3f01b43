#!/usr/bin/env python3
"""A stand-in inference server for tests/e2e/inference: answers GET /health
(200, or 503 with --never-healthy) and GET /v1/models like sglang's
launch_server, prints sglang's readiness line ("The server is fired up and
ready to roll!", which CVS's sglang_common.py waits for), and writes its pid
(and its children's, with --child) to --pidfile so a test can check that
assay stopped the whole process group.

Across nodes it takes sglang.launch_server's multi-node flags as CVS's
sglang_distributed_lib.py passes them (ROCm/cvs dddd914): --nnodes,
--node-rank, --dist-init-addr. A rank above 0 joins (a file JOIN_DIR/
joined-RANK, unless --never-join) and serves nothing; rank 0 serves on
--host and answers /health 200 only once every other rank has joined, as a
real head answers only when the whole model is loaded.

usage: server.py --port P --pidfile FILE [--never-healthy] [--child]
                 [--log-error TEXT] [--host H] [--nnodes N --node-rank R
                 --dist-init-addr A:P --join-dir DIR [--never-join] [--exit STATUS]]"""
import argparse
import http.server
import os
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--pidfile", required=True)
ap.add_argument("--never-healthy", action="store_true")
ap.add_argument("--child", action="store_true")
ap.add_argument("--log-error", default="")
ap.add_argument("--host", default="127.0.0.1")
ap.add_argument("--nnodes", type=int, default=1)
ap.add_argument("--node-rank", type=int, default=0)
ap.add_argument("--dist-init-addr", default="")
ap.add_argument("--join-dir", default=".")
ap.add_argument("--never-join", action="store_true")
ap.add_argument("--exit", type=int, default=None)
args = ap.parse_args()

pids = [os.getpid()]
if args.child:  # a helper process in the same group, as a real server has
    pids.append(subprocess.Popen(["sleep", "600"]).pid)
with open(args.pidfile, "a") as f:
    f.write(" ".join(str(p) for p in pids) + "\n")

if args.exit is not None:  # a rank that fails at once
    print(f"node rank {args.node_rank}: failing with status {args.exit}", flush=True)
    sys.exit(args.exit)

if args.node_rank > 0:
    print(f"node rank {args.node_rank} of {args.nnodes}: init {args.dist_init_addr}", flush=True)
    if not args.never_join:
        open(os.path.join(args.join_dir, f"joined-{args.node_rank}"), "w").close()
    while True:
        time.sleep(60)


def all_joined():
    return all(
        os.path.exists(os.path.join(args.join_dir, f"joined-{r}")) for r in range(1, args.nnodes)
    )


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/health":
            code = 503 if args.never_healthy or not all_joined() else 200
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


srv = http.server.HTTPServer((args.host, args.port), Handler)
print("The server is fired up and ready to roll!", flush=True)
try:
    srv.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
