#!/usr/bin/env python3
"""Floods a running example server on loopback and reports what the server's memory did and
what the client saw: the figures of RELIABILITY.md's "Bounds of the example server" table.

    scripts/floods.py <server binary> <flood> [count]

starts `<server binary> --listen 127.0.0.1:<free port>` itself, runs one flood against it,
prints one JSON line (RSS in MB from /proc, before / at the end / after the clients left, and
what the clients got) and stops the server. Floods:

    listen   <count> subscriptions/listen streams that never read, then $FLOOD_LIST_CHANGES
             (default 5,000) tool-list changes
    abandon  <count> slow_compute calls (60 s) abandoned after 0.3 s, twice
    tasks    <count> tasks created by one principal
    drip     <count> connections sending one header byte every 0.5 s, watched for 12 s
    idle     <count> idle connections, watched for 12 s
    twice    one tools/call with Mcp-Name given twice
    big      one tools/call of 1.8 MB of small objects; peak RSS (VmHWM) before and after it
    bigtext  the same with 1.8 MB as one string

$FLOOD_SERVER_ARGS (split on spaces) is added to the server's command line.
Standard library only. Every loop is bounded in count and time; the server is killed on exit.
"""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time

HEAD = (
    "POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    "accept: application/json, text/event-stream\r\nmcp-protocol-version: 2026-07-28\r\n"
    "mcp-method: {method}\r\n{extra}content-length: {length}\r\n\r\n"
)
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
TASKS = {"extensions": {"io.modelcontextprotocol/tasks": {}}}
LIST_CHANGES = int(os.environ.get("FLOOD_LIST_CHANGES", "5000"))


def request(method, params, name=None, extra=""):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                      separators=(",", ":"))
    if name is not None:
        extra = f"mcp-name: {name}\r\n" + extra
    head = HEAD.format(method=method, extra=extra, length=len(body.encode()))
    return (head + body).encode()


def call(tool, arguments, caps=None, extra=""):
    meta = dict(META)
    if caps is not None:
        meta["io.modelcontextprotocol/clientCapabilities"] = caps
    params = {"name": tool, "arguments": arguments, "_meta": meta}
    return request("tools/call", params, tool, extra)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def mb(kb):
    return round(kb / 1024, 1)


async def exchange(port, data, timeout=30):
    """One request on its own connection; the status code, or None if the server closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        return int(line.split()[1]) if line else None
    finally:
        writer.close()


async def keep_alive_calls(port, data, count, connections=8):
    """`count` copies of `data` over a few keep-alive connections; the status codes seen."""
    seen = {}

    async def worker(n):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(n):
            writer.write(data)
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), 30)
            code = int(line.split()[1])
            seen[code] = seen.get(code, 0) + 1
            length = 0
            while True:
                h = await asyncio.wait_for(reader.readline(), 30)
                if h in (b"\r\n", b""):
                    break
                if h.lower().startswith(b"content-length:"):
                    length = int(h.split(b":")[1])
            await reader.readexactly(length)
        writer.close()

    share = [count // connections + (1 if i < count % connections else 0) for i in range(connections)]
    await asyncio.gather(*(worker(n) for n in share if n))
    return seen


async def unread_socket(port, data):
    """A connection with a small receive buffer that sends `data` and never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.setblocking(False)
    await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
    await asyncio.get_running_loop().sock_sendall(s, data)
    return s


def still_open(sockets):
    """How many of `sockets` the server has not closed (a read would not return EOF)."""
    n = 0
    for s in sockets:
        try:
            if s.recv(65536, socket.MSG_PEEK) == b"":
                continue
            n += 1  # data waiting: still open
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n


async def flood_listen(pid, port, count):
    listen = request(
        "subscriptions/listen",
        {"notifications": {"toolsListChanged": True}, "_meta": META},
    )
    streams = [await unread_socket(port, listen) for _ in range(count)]
    await asyncio.sleep(0.5)
    seen = await keep_alive_calls(port, call("test_trigger_tool_change", {}), LIST_CHANGES)
    await asyncio.sleep(1)
    peak = status_kb(pid, "VmRSS")
    # Now read what each stream got (for at most 30 s in all).
    told, notes = 0, 0
    until = time.monotonic() + 30
    for s in streams:
        got = b""
        while time.monotonic() < until:
            try:
                chunk = s.recv(1 << 20)
            except BlockingIOError:
                await asyncio.sleep(0.05)
                try:
                    chunk = s.recv(1 << 20)
                except BlockingIOError:
                    break
            if not chunk:
                break
            got += chunk
        notes += got.count(b"notifications/tools/list_changed")
        told += b'"code":-32000' in got
    for s in streams:
        s.close()
    await asyncio.sleep(2)
    return {"rss_end": mb(peak), "rss_after_close": mb(status_kb(pid, "VmRSS")),
            "trigger_statuses": seen, "streams_told_they_missed_changes": told,
            "notifications_per_stream": round(notes / max(count, 1))}


async def flood_abandon(pid, port, count):
    """Two rounds: memory still held by abandoned calls adds up; memory returned is reused."""
    data = call("slow_compute", {"seconds": 60})
    rss = []
    for _ in range(2):
        sockets = []
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
            await asyncio.get_running_loop().sock_sendall(s, data)
            sockets.append(s)
        await asyncio.sleep(0.3)
        rss.append(mb(status_kb(pid, "VmRSS")))
        for s in sockets:
            s.close()
        await asyncio.sleep(1)
        rss.append(mb(status_kb(pid, "VmRSS")))
    started = time.monotonic()
    code = await exchange(port, call("test_simple_text", {}))
    return {"rss_with_calls_1": rss[0], "rss_1s_after_abandon_1": rss[1],
            "rss_with_calls_2": rss[2], "rss_1s_after_abandon_2": rss[3],
            "next_call_status": code, "next_call_ms": round((time.monotonic() - started) * 1000)}


async def flood_tasks(pid, port, count):
    seen = await keep_alive_calls(port, call("slow_compute", {"seconds": 600}, TASKS), count)
    return {"rss_end": mb(status_kb(pid, "VmRSS")), "statuses": seen}


async def flood_slow(pid, port, count, drip):
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
        sockets.append(s)
    head = b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nx-padding: " + b"a" * 100
    started = time.monotonic()
    i = 0
    while time.monotonic() - started < 12:
        if drip and i < len(head):
            for s in sockets:
                try:
                    s.send(head[i:i + 1])
                except OSError:
                    pass
            i += 1
        await asyncio.sleep(0.5)
    open_after = still_open(sockets)
    code = await exchange(port, call("test_simple_text", {}), timeout=5)
    for s in sockets:
        s.close()
    return {"open_after_12s": open_after, "of": count, "good_client_status": code}


async def flood_twice(pid, port, _count):
    data = call("test_simple_text", {}, extra="mcp-name: evil_tool\r\n")
    return {"status": await exchange(port, data)}


async def flood_big(pid, port, _count, text=False):
    await exchange(port, call("test_simple_text", {}))
    before = status_kb(pid, "VmHWM")
    if text:
        # 1.8 MB as one string.
        arguments = {"blob": "x" * 1_800_000}
    else:
        # 1.8 MB of small objects, the shape that costs most as a tree of values.
        arguments = {"items": [{"a": 1}] * 225_000}
    code = await exchange(port, call("test_simple_text", arguments))
    after = status_kb(pid, "VmHWM")
    return {"status": code, "peak_rss_before": mb(before), "peak_rss_after": mb(after),
            "peak_growth_mb": mb(after - before)}


FLOODS = {
    "listen": flood_listen,
    "abandon": flood_abandon,
    "tasks": flood_tasks,
    "drip": lambda pid, port, n: flood_slow(pid, port, n, True),
    "idle": lambda pid, port, n: flood_slow(pid, port, n, False),
    "twice": flood_twice,
    "big": flood_big,
    "bigtext": lambda pid, port, n: flood_big(pid, port, n, True),
}


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in FLOODS:
        sys.exit(__doc__)
    binary, flood = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    port = free_port()
    extra = os.environ.get("FLOOD_SERVER_ARGS", "").split()
    server = subprocess.Popen([binary, "--listen", f"127.0.0.1:{port}", *extra],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        start = status_kb(server.pid, "VmRSS")
        began = time.monotonic()
        result = asyncio.run(asyncio.wait_for(FLOODS[flood](server.pid, port, count), 300))
        result = {"flood": flood, "count": count, "rss_start": mb(start), **result,
                  "seconds": round(time.monotonic() - began, 1)}
        print(json.dumps(result))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
