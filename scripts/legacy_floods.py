#!/usr/bin/env python3
"""Floods the legacy (2025-11-25) sessions of an example server on loopback: the figures of
RELIABILITY.md's "Legacy sessions that no client can exhaust" (issue 32).

    scripts/legacy_floods.py <server binary> <flood> [count]

Starts `<server binary> --listen 127.0.0.1:0` (with $FLOOD_SERVER_ARGS), runs one flood,
prints one JSON line (RSS in MB from /proc and what the clients saw) and stops the server.
Floods:

    bigcaps    an initialize declaring <count> keys under capabilities.experimental, then 20
               tools/list in that session and 20 in a plain one (mean milliseconds of each)
    anonymous  <count> anonymous sessions kept open, then one initialize of another principal
    getstreams <count> sessions of 8 principals, each with an idle GET stream, then a new
               client's ping
    cancels    <count> elicitations cancelled in one session, then one more that must be asked
    answers    <count> elicitations answered with 3 MB each in one session (kept for
               resumption as the tool echoes them)

Standard library only; every wait is bounded; the server is killed on exit.
"""

import http.client
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from floods import mb, start_server, status_kb  # noqa: E402

LEGACY = "2025-11-25"


def message(id, method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        m["id"] = id
    if params is not None:
        m["params"] = params
    return m


def post(port, body, session=None, principal=None, timeout=60):
    """POSTs `body` as a legacy client; the status, the headers and the text of the answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"content-type": "application/json",
               "accept": "application/json, text/event-stream",
               "mcp-protocol-version": LEGACY}
    if session:
        headers["mcp-session-id"] = session
    if principal:
        headers["authorization"] = principal
    conn.request("POST", "/mcp", json.dumps(body), headers)
    resp = conn.getresponse()
    return resp.status, resp.headers, resp, conn


def text_of(resp, conn):
    try:
        return resp.read().decode()
    finally:
        conn.close()


def initialize(port, capabilities=None, principal=None, timeout=60):
    """A new session's id (None if refused) and the answer's text."""
    params = {"protocolVersion": LEGACY, "capabilities": capabilities or {"elicitation": {}},
              "clientInfo": {"name": "flood", "version": "1"}}
    status, headers, resp, conn = post(port, message(1, "initialize", params),
                                       principal=principal, timeout=timeout)
    text = text_of(resp, conn)
    session = headers.get("mcp-session-id") if status == 200 else None
    if session:
        s, _, r, c = post(port, message(None, "notifications/initialized"), session, principal)
        text_of(r, c)
    return session, text


def events(resp, until):
    """The JSON-RPC messages of an SSE answer, read until `until` says stop (or it ends)."""
    seen = []
    while True:
        line = resp.fp.readline()
        # The end of the body (the last chunk of a chunked answer) or of the connection.
        if not line or line == b"0\r\n":
            return seen
        if line.startswith(b"data: "):
            try:
                m = json.loads(line[6:])
            except ValueError:
                continue
            seen.append(m)
            if until(m):
                return seen


def elicit(port, session, id):
    """Starts an elicitation call; the open answer and the server's request."""
    call = message(id, "tools/call", {"name": "test_elicitation", "arguments": {"message": "Who?"}})
    status, headers, resp, conn = post(port, call, session)
    asked = events(resp, lambda m: "method" in m)
    return resp, conn, (asked[-1] if asked else None)


def timed_lists(port, session, n=20):
    began = time.monotonic()
    for i in range(n):
        _, _, r, c = post(port, message(100 + i, "tools/list", {}), session)
        text_of(r, c)
    return round((time.monotonic() - began) * 1000 / n, 2)


def flood_bigcaps(pid, port, count):
    experimental = {f"k{n}": {} for n in range(count)}
    size = len(json.dumps(experimental))
    big, answer = initialize(port, {"experimental": experimental})
    result = {"capabilities_bytes": size, "opened": big is not None,
              "answer": answer[:200], "rss_after_initialize": mb(status_kb(pid, "VmRSS"))}
    plain, _ = initialize(port)
    result["plain_list_ms"] = timed_lists(port, plain)
    if big:
        result["big_list_ms"] = timed_lists(port, big)
    result["rss_end"] = mb(status_kb(pid, "VmRSS"))
    return result


def flood_anonymous(pid, port, count):
    opened = refused = 0
    for _ in range(count):
        session, _ = initialize(port)
        opened += session is not None
        refused += session is None
    other, answer = initialize(port, principal="Bearer another")
    return {"anonymous_opened": opened, "anonymous_refused": refused,
            "other_principal_opened": other is not None, "other_answer": answer[:160],
            "rss_end": mb(status_kb(pid, "VmRSS"))}


def flood_getstreams(pid, port, count):
    held, statuses = [], {}
    for n in range(count):
        principal = f"Bearer p{n % 8}"
        try:
            session, _ = initialize(port, principal=principal, timeout=3)
            if session is None:
                statuses["initialize refused"] = statuses.get("initialize refused", 0) + 1
                continue
            s = socket.create_connection(("127.0.0.1", port), timeout=3)
            s.sendall((f"GET /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n"
                       f"mcp-session-id: {session}\r\nauthorization: {principal}\r\n\r\n").encode())
            line = s.recv(4096).split(b"\r\n")[0]
        except OSError:
            statuses["no answer (stopped)"] = 1
            break
        code = int(line.split()[1]) if line else 0
        statuses[code] = statuses.get(code, 0) + 1
        if code == 200:
            held.append(s)
        else:
            s.close()
    began = time.monotonic()
    try:
        session, _ = initialize(port, principal="Bearer newcomer", timeout=10)
        newcomer = "served" if session else "refused"
    except (socket.timeout, OSError) as e:
        newcomer = f"not served: {e!r}"
    result = {"get_statuses": {str(k): v for k, v in statuses.items()}, "newcomer": newcomer,
              "newcomer_seconds": round(time.monotonic() - began, 2),
              "rss_end": mb(status_kb(pid, "VmRSS"))}
    for s in held:
        s.close()
    return result


def flood_cancels(pid, port, count):
    session, _ = initialize(port)
    told = 0
    for id in range(2, count + 2):
        resp, conn, asked = elicit(port, session, id)
        if asked is None or asked.get("method") != "elicitation/create":
            return {"cancelled": id - 2, "failed_at": id, "asked": asked}
        s, _, r, c = post(port, message(None, "notifications/cancelled", {"requestId": id}), session)
        text_of(r, c)
        rest = events(resp, lambda m: False)
        told += any(m.get("method") == "notifications/cancelled" for m in rest)
        conn.close()
    resp, conn, asked = elicit(port, session, 10_000)
    conn.close()
    return {"cancelled": count, "told_the_client": told,
            "asked_after": (asked or {}).get("method") or asked,
            "rss_end": mb(status_kb(pid, "VmRSS"))}


def flood_answers(pid, port, count):
    session, _ = initialize(port)
    start = status_kb(pid, "VmRSS")
    answered = 0
    for id in range(2, count + 2):
        resp, conn, asked = elicit(port, session, id)
        if asked is None:
            break
        reply = {"jsonrpc": "2.0", "id": asked["id"],
                 "result": {"action": "accept", "content": {"name": "x" * 3_000_000}}}
        s, _, r, c = post(port, reply, session)
        text_of(r, c)
        answered += any("result" in m for m in events(resp, lambda m: m.get("id") == id))
        conn.close()
    return {"answered": answered, "rss_before": mb(start),
            "rss_end": mb(status_kb(pid, "VmRSS")),
            "grew_mb": mb(status_kb(pid, "VmRSS") - start)}


FLOODS = {"bigcaps": flood_bigcaps, "anonymous": flood_anonymous,
          "getstreams": flood_getstreams, "cancels": flood_cancels, "answers": flood_answers}


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in FLOODS:
        sys.exit(__doc__)
    binary, flood = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    server, port = start_server(binary, os.environ.get("FLOOD_SERVER_ARGS", "").split())
    try:
        began = time.monotonic()
        start = status_kb(server.pid, "VmRSS")
        result = FLOODS[flood](server.pid, port, count)
        print(json.dumps({"flood": flood, "count": count, "rss_start": mb(start), **result,
                          "seconds": round(time.monotonic() - began, 1)}))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
