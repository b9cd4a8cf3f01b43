#!/usr/bin/env python3
"""Drives assay serve's pages in headless Chromium through the DevTools
protocol (a websocket client of the standard library only), as a person
would: every page loads with no console message, script error or refused
request (a CSP violation is logged as an error), the charts are drawn, the
overview's filter form narrows the table, an ack with a wrong token is
refused on the page, and an ack with the write token appears on the series
page after its reload.

    browser.py CHROMIUM_PORT SERVER_URL SERIES_KEY WRITE_TOKEN
"""
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.request


class Tab:
    """One page's DevTools websocket: commands and the events between them."""

    def __init__(self, ws_url):
        host_port, path = ws_url[len("ws://"):].split("/", 1)
        host, port = host_port.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("no websocket: " + head.decode(errors="replace"))
        self.next_id = 0
        self.events = []

    def _send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(head + mask + body)

    def _exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError("the browser closed the websocket")
            buf += chunk
        return buf

    def _recv(self):
        msg = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exact(8))[0]
            msg += self._exact(n)
            if b0 & 0x80:
                return json.loads(msg)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            m = self._recv()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, timeout=120):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for i, m in enumerate(self.events):
                if m.get("method") == name:
                    del self.events[i]
                    return m
            self.events.append(self._recv())
        raise RuntimeError(f"no {name} in {timeout} s")

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def load(self, url):
        self.events = [m for m in self.events if m.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")
        self.wait_ready()

    def wait_ready(self):
        """Until the pages' two scripts have run (their sentinels)."""
        for _ in range(600):
            if self.eval("document.documentElement.getAttribute('data-serve-js')+','+"
                         "document.documentElement.getAttribute('data-assay-js')") == "ready,ready":
                return
            time.sleep(0.1)
        raise RuntimeError("the page's scripts did not finish")

    def complaints(self):
        """Console messages, script errors and refused requests so far."""
        out = []
        for m in self.events:
            p = m.get("params", {})
            if m.get("method") == "Runtime.consoleAPICalled":
                out.append("console." + p["type"] + ": " +
                           " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
            elif m.get("method") == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p["exceptionDetails"])[:300])
            elif m.get("method") == "Log.entryAdded":
                e = p["entry"]
                # The ack refused on purpose answers 401; nothing else may log.
                if "401" in e.get("text", "") and "/api/v1/annotations" in e.get("url", ""):
                    continue
                out.append(f"log {e['level']}: {e['text']} {e.get('url', '')}")
        return out


def main():
    port, url, key, token = sys.argv[1:5]
    pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    tab = Tab([p for p in pages if p["type"] == "page"][0]["webSocketDebuggerUrl"])
    for domain in ("Page", "Runtime", "Log"):
        tab.call(domain + ".enable")
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    # The overview: loads clean, sparklines drawn, the filter narrows it.
    tab.load(url + "/")
    rows = tab.eval("document.querySelectorAll('#series-table tbody tr').length")
    sparks = tab.eval("[].filter.call(document.querySelectorAll('svg.spark polyline'),"
                      "function(p){return p.points.numberOfItems>0;}).length")
    check(rows == 8, f"overview: {rows} rows, expected 8")
    check(sparks == rows, f"overview: {sparks} sparklines drawn for {rows} rows")
    tab.eval("var f=document.getElementById('filter-form');"
             "f.elements.match.value='precision=bf16';f.requestSubmit();")
    tab.wait_event("Page.loadEventFired")
    tab.wait_ready()
    labels = tab.eval("[].map.call(document.querySelectorAll('#series-table tbody tr td:first-child'),"
                      "function(c){return c.textContent;})")
    check(len(labels) == 4 and all("precision=bf16" in t for t in labels),
          f"filter precision=bf16: {labels}")
    check(tab.eval("location.search") == "?match=precision%3Dbf16&since=&sort=key",
          "filter: the URL is " + str(tab.eval("location.search")))

    # The series page: the report's chart with its line.
    tab.load(f"{url}/series/{key}")
    drawn = tab.eval("[].filter.call(document.querySelectorAll('#chart svg path, #chart svg polyline'),"
                     "function(p){return p.getBBox().width>100;}).length")
    check(drawn >= 1, "series page: no line drawn in the chart")
    points = tab.eval("document.querySelectorAll('#point-table tbody tr').length")
    check(points == 40, f"series page: {points} points, expected 40")

    # An ack with a wrong token: refused, said on the page, nothing stored.
    def ack(tok):
        tab.eval("var f=document.getElementById('ack');f.elements.revision.value='c30';"
                 "f.elements.kind.value='ack';f.elements.note.value='new kernel';"
                 f"f.elements.token.value={json.dumps(tok)};f.requestSubmit();")

    ack("not-the-token")
    for _ in range(600):
        said = tab.eval("document.getElementById('ack-result').textContent")
        if said:
            break
        time.sleep(0.1)
    check(said.startswith("401"), f"a wrong token's ack: the page says {said!r}")
    check(tab.eval("document.querySelectorAll('tr.ann').length") == 0,
          "a refused ack appears on the page")

    # With the write token: stored, and the page reloads to show it.
    ack(token)
    tab.wait_event("Page.loadEventFired")
    tab.wait_ready()
    ann = tab.eval("[].map.call(document.querySelectorAll('tr.ann'),function(r){return r.textContent;})")
    check(len(ann) == 1 and ann[0].startswith("ackc30by alice: new kernel"),
          f"the ack on the series page: {ann}")

    # A run's page (linked from the overview's runs): the report's renderer,
    # its assets linked, no inline code.
    tab.load(url + "/")
    run_href = tab.eval("document.querySelector('#run-table a').getAttribute('href')")
    tab.load(url + run_href)
    title = tab.eval("document.title")
    check(run_href.split("/")[2] in title and tab.eval("!!document.getElementById('cases')"),
          f"run page {run_href}: title {title!r}, or no cases section")

    # The publications page (this server has no --publications: it says so).
    tab.load(url + "/publications")
    check(tab.eval("!!document.getElementById('publications')"), "no publications section")

    complaints = tab.complaints()
    check(not complaints, "the pages logged: " + "; ".join(complaints))
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
