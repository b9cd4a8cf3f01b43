#!/usr/bin/env python3
"""A loopback SMTP sink for the notify tests: accepts every message (EHLO,
AUTH PLAIN or LOGIN, MAIL, RCPT, DATA) and appends one JSON line per message
to LOG: the envelope sender and recipients, the login it was given, and the
message as received (dot-stuffing undone). A recipient whose local part is
tempfail-once is refused with 451 the first time, then accepted.
It listens on 127.0.0.1 (a free port, written to PORTFILE once it listens).

With CERT and KEY (PEM files) it offers STARTTLS and records whether the
message came over TLS.

usage: smtp_sink.py PORTFILE LOG [CERT KEY]
"""
import base64
import json
import os
import socketserver
import sys
import threading

portfile, logfile = sys.argv[1], sys.argv[2]
tls = None
if len(sys.argv) > 4:
    import ssl

    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(sys.argv[3], sys.argv[4])
lock = threading.Lock()
refused = set()


def b64(s):
    return base64.b64decode(s).decode("utf-8", "replace")


class Session(socketserver.StreamRequestHandler):
    def say(self, line):
        self.wfile.write((line + "\r\n").encode())

    def line(self):
        raw = self.rfile.readline()
        if not raw:
            raise EOFError
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    def auth(self, args):
        mech, _, rest = args.partition(" ")
        if mech.upper() == "PLAIN":
            if not rest:
                self.say("334 ")
                rest = self.line()
            _, user, pw = b64(rest).split("\0")
        else:  # LOGIN
            self.say("334 VXNlcm5hbWU6")
            user = b64(self.line())
            self.say("334 UGFzc3dvcmQ6")
            pw = b64(self.line())
        self.login = {"user": user, "password": pw}
        self.say("235 2.7.0 authenticated")

    def data(self):
        self.say("354 end with <CRLF>.<CRLF>")
        lines = []
        while True:
            l = self.line()
            if l == ".":
                break
            lines.append(l[1:] if l.startswith("..") else l)
        with lock:
            with open(logfile, "a") as f:
                f.write(json.dumps({"from": self.sender, "rcpt": self.rcpt, "login": self.login,
                                    "tls": self.tls, "data": "\r\n".join(lines) + "\r\n"}) + "\n")
        self.say("250 2.0.0 queued")

    def rcpt_to(self, arg):
        addr = arg.split(":", 1)[1].strip().strip("<>")
        with lock:
            first = addr.startswith("tempfail-once@") and addr not in refused
            refused.add(addr)
        if first:
            self.say("451 4.3.0 try again later")
        else:
            self.rcpt.append(addr)
            self.say("250 2.1.5 ok")

    def starttls(self):
        self.say("220 2.0.0 ready to start TLS")
        self.wfile.flush()
        self.connection = tls.wrap_socket(self.connection, server_side=True)
        self.rfile = self.connection.makefile("rb")
        self.wfile = self.connection.makefile("wb", buffering=0)
        self.tls = True

    def handle(self):
        self.login, self.sender, self.rcpt, self.tls = None, None, [], False
        self.say("220 sink ESMTP")
        try:
            while True:
                cmd, _, args = self.line().partition(" ")
                cmd = cmd.upper()
                if cmd == "EHLO":
                    self.say("250-sink")
                    if tls and not self.tls:
                        self.say("250-STARTTLS")
                    self.say("250-AUTH PLAIN LOGIN")
                    self.say("250 8BITMIME")
                elif cmd == "HELO":
                    self.say("250 sink")
                elif cmd == "STARTTLS" and tls and not self.tls:
                    self.starttls()
                elif cmd == "AUTH":
                    self.auth(args)
                elif cmd == "MAIL":
                    self.sender, self.rcpt = args.split(":", 1)[1].strip().strip("<>"), []
                    self.say("250 2.1.0 ok")
                elif cmd == "RCPT":
                    self.rcpt_to(args)
                elif cmd == "DATA":
                    self.data()
                elif cmd == "QUIT":
                    self.say("221 bye")
                    return
                else:
                    self.say("250 ok")
        except EOFError:
            return


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Session)
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(portfile + ".tmp", portfile)
server.serve_forever()
