#!/usr/bin/env python3
"""Floods a running example server on loopback and reports what the server's memory did and
what the client saw: the figures of RELIABILITY.md's "Bounds of the example server" table.

    scripts/floods.py <server binary> <flood> [count]
    scripts/floods.py --ci <server binary>

The first form starts `<server binary> --listen 127.0.0.1:0` itself, runs one flood
against it, prints one JSON line (RSS in MB from /proc, before / at the end / after the clients
left, and what the clients got) and stops the server. Floods:

    listen   <count> subscriptions/listen streams that never read, then $FLOOD_LIST_CHANGES
             (default 5,000) tool-list changes
    abandon  <count> slow_compute calls (60 s) abandoned after 0.3 s, in $FLOOD_ROUNDS rounds
             (default 2)
    tasks    <count> tasks created by one principal
    drip     <count> connections sending one header byte every 0.5 s, watched for
             $FLOOD_WATCH_S seconds (default 12)
    idle     <count> idle connections, watched for $FLOOD_WATCH_S seconds
    twice    one tools/call with Mcp-Name given twice
    big      one tools/call of 1.8 MB of small objects; peak RSS (VmHWM) before and after it
    bigtext  the same with 1.8 MB as one string

$FLOOD_SERVER_ARGS (split on spaces) is added to the server's command line.

The second form (CI's, after scripts/conformance.sh) runs every flood with small counts and
small limits (the CHECKS below: server options, count, and what "the bound held" means for
that flood), prints one line per check and exits 1 if any bound did not hold.

Standard library only. Every loop is bounded in count and time; the server is killed on exit.
"""

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
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


def settings_from_env():
    """The floods' settings: how many list changes the listen flood makes, how many rounds of
    calls the abandon flood abandons, and how long the drip and idle floods watch their
    connections."""
    return {"changes": int(os.environ.get("FLOOD_LIST_CHANGES", "5000")),
            "watch": float(os.environ.get("FLOOD_WATCH_S", "12")),
            "rounds": int(os.environ.get("FLOOD_ROUNDS", "2"))}


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


def start_server(binary, server_args):
    """Starts the server on a port the kernel picks (port 0: no other process can take it
    between our choice and the server's bind); the process and the port it says it listens on.
    Its standard error is read to the end by a thread, so the server never blocks on it."""
    server = subprocess.Popen([binary, "--listen", "127.0.0.1:0", *server_args],
                              stderr=subprocess.PIPE, text=True)
    said = []
    for line in server.stderr:
        if "listening on " in line:
            address = line.split("listening on ", 1)[1].strip()
            port = int(address.removeprefix("http://").split("/")[0].rsplit(":", 1)[1])
            threading.Thread(target=server.stderr.read, daemon=True).start()
            return server, port
        said.append(line)
    server.wait()
    sys.exit(f"floods: the server stopped before listening: {''.join(said)}")


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def mb(kb):
    return round(kb / 1024, 1)


async def exchange(port, data, timeout=30):
    """One request on its own connection; the status code, or None if the server closed
    without answering.

    The answer is read while the request is still being sent: a server that refuses a body
    from its head (413) answers and closes without reading the rest, so the send may fail
    with a broken pipe after the answer is already waiting to be read."""
    loop = asyncio.get_running_loop()
    s = socket.socket()
    s.setblocking(False)
    sending = None
    try:
        await loop.sock_connect(s, ("127.0.0.1", port))
        sending = asyncio.ensure_future(send_until_closed(s, data))
        line = await asyncio.wait_for(read_status_line(s), timeout)
        return int(line.split()[1]) if line else None
    finally:
        if sending is not None:
            sending.cancel()
        s.close()


async def send_until_closed(s, data):
    """Sends `data` on `s`; stops quietly if the server closed the connection first."""
    try:
        await asyncio.get_running_loop().sock_sendall(s, data)
    except (BrokenPipeError, ConnectionResetError):
        pass


async def read_status_line(s):
    """The first line the server sends on `s` (empty if it closed before sending one)."""
    received = b""
    while b"\r\n" not in received:
        try:
            chunk = await asyncio.get_running_loop().sock_recv(s, 4096)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            break
        received += chunk
    return received.split(b"\r\n")[0]


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


async def drain(s, until):
    """What `s` has received so far (not waiting for more), or until EOF or `until`."""
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
    return got


# How many times the listen flood makes its list changes at most, reading every stream after
# each: a stream whose kernel buffers had not filled before the changes ended (the sender's
# buffer grows with the load, so how many changes fill it varies) is left unread for another
# round, until every stream has been told or the rounds run out.
LISTEN_ROUNDS = 3


async def flood_listen(pid, port, count, settings):
    listen = request(
        "subscriptions/listen",
        {"notifications": {"toolsListChanged": True}, "_meta": META},
    )
    streams = [await unread_socket(port, listen) for _ in range(count)]
    await asyncio.sleep(0.5)
    seen, peak, rounds = {}, 0, 0
    received = [b"" for _ in streams]
    told = [False for _ in streams]
    while rounds < LISTEN_ROUNDS and not all(told):
        rounds += 1
        statuses = await keep_alive_calls(port, call("test_trigger_tool_change", {}),
                                          settings["changes"])
        for code, n in statuses.items():
            seen[code] = seen.get(code, 0) + n
        await asyncio.sleep(1)
        peak = max(peak, status_kb(pid, "VmRSS"))
        # Now read what each stream not yet told got (for at most 30 s in all).
        until = time.monotonic() + 30
        for i, s in enumerate(streams):
            if not told[i]:
                received[i] += await drain(s, until)
                told[i] = b'"code":-32000' in received[i]
    notes = sum(got.count(b"notifications/tools/list_changed") for got in received)
    for s in streams:
        s.close()
    await asyncio.sleep(2)
    return {"rss_end": mb(peak), "rss_after_close": mb(status_kb(pid, "VmRSS")),
            "trigger_statuses": seen, "rounds": rounds,
            "streams_told_they_missed_changes": sum(told),
            "notifications_per_stream": round(notes / max(count, 1))}


async def flood_abandon(pid, port, count, settings):
    """Rounds of calls abandoned: memory still held by abandoned calls adds up from round to
    round; memory returned is reused by the next round."""
    data = call("slow_compute", {"seconds": 60})
    result = {}
    for n in range(1, settings["rounds"] + 1):
        sockets = []
        for _ in range(count):
            s = socket.socket()
            s.setblocking(False)
            await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
            await asyncio.get_running_loop().sock_sendall(s, data)
            sockets.append(s)
        await asyncio.sleep(0.3)
        result[f"rss_with_calls_{n}"] = mb(status_kb(pid, "VmRSS"))
        for s in sockets:
            s.close()
        await asyncio.sleep(1)
        result[f"rss_1s_after_abandon_{n}"] = mb(status_kb(pid, "VmRSS"))
    started = time.monotonic()
    code = await exchange(port, call("test_simple_text", {}))
    return {**result, "next_call_status": code,
            "next_call_ms": round((time.monotonic() - started) * 1000)}


async def flood_tasks(pid, port, count, _settings):
    seen = await keep_alive_calls(port, call("slow_compute", {"seconds": 600}, TASKS), count)
    return {"rss_end": mb(status_kb(pid, "VmRSS")), "statuses": seen}


async def flood_slow(pid, port, count, settings, drip):
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        await asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port))
        sockets.append(s)
    head = b"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\nx-padding: " + b"a" * 100
    started = time.monotonic()
    i = 0
    while time.monotonic() - started < settings["watch"]:
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
    return {"watched_s": settings["watch"], "open_after_watch": open_after, "of": count,
            "good_client_status": code}


async def flood_twice(pid, port, _count, _settings):
    data = call("test_simple_text", {}, extra="mcp-name: evil_tool\r\n")
    return {"status": await exchange(port, data)}


async def flood_big(pid, port, _count, _settings, text=False):
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
    "drip": lambda pid, port, n, settings: flood_slow(pid, port, n, settings, True),
    "idle": lambda pid, port, n, settings: flood_slow(pid, port, n, settings, False),
    "twice": flood_twice,
    "big": flood_big,
    "bigtext": lambda pid, port, n, settings: flood_big(pid, port, n, settings, True),
}


class Check:
    """One flood of the CI run: the server's options, the count, and whether the bound held."""

    def __init__(self, flood, count, server_args, held, meaning, **settings):
        self.flood, self.count, self.server_args = flood, count, server_args
        self.held, self.meaning = held, meaning
        self.settings = {"changes": 0, "watch": 0, "rounds": 0, **settings}


def grew(r, key):
    """How much the server's RSS grew from its start to `r[key]`, in MB."""
    return r[key] - r["rss_start"]


def kept_per_call_kb(r):
    """RSS growth per abandoned call and round from the second round to the last, in KB: what
    calls still running after their client left would keep (the first round also pays for
    buffers that later rounds reuse)."""
    last = max(int(k.rsplit("_", 1)[1]) for k in r if k.startswith("rss_with_calls_"))
    growth = r[f"rss_with_calls_{last}"] - r["rss_with_calls_2"]
    return growth * 1024 / (r["count"] * (last - 2))


# Enough list changes to fill an unread stream's socket buffers on loopback (a few MB of
# notifications) and then its queue.
CI_LIST_CHANGES = 40_000

# Small counts against small limits, so that each bound is reached in seconds; the growth
# thresholds are generous (the same floods without the bounds grow far more: RELIABILITY.md,
# "The floods before and after").
CHECKS = [
    Check("listen", 4, ["--listen-queue", "16"],
          lambda r: r["streams_told_they_missed_changes"] == r["count"]
          and r["trigger_statuses"] == {200: CI_LIST_CHANGES * r["rounds"]}
          and grew(r, "rss_end") < 64,
          "every unread stream ended with -32000 once the kernel's buffers and its queue of 16 "
          f"were full (within {LISTEN_ROUNDS} rounds of changes); every trigger answered 200; "
          "RSS grew < 64 MB",
          changes=CI_LIST_CHANGES),
    Check("abandon", 500, [],
          lambda r: r["next_call_status"] == 200 and kept_per_call_kb(r) < 4,
          "eight rounds of 500 abandoned calls: from the second round on, RSS grows < 4 KB per "
          "call and round (calls still running after their client left keep about 10 KB "
          "each); the next call answered 200",
          rounds=8),
    Check("tasks", 300, ["--max-tasks-per-principal", "100", "--max-tasks", "200"],
          lambda r: r["statuses"] == {200: 100, 429: 200} and grew(r, "rss_end") < 64,
          "exactly 100 tasks of one principal created, the other 200 calls refused with 429; "
          "RSS grew < 64 MB"),
    Check("drip", 50, ["--header-timeout-ms", "1000"],
          lambda r: r["open_after_watch"] == 0 and r["good_client_status"] == 200,
          "every connection dripping its head closed within 5 s (header timeout 1 s); a good "
          "client then answered 200",
          watch=5),
    Check("idle", 60, ["--header-timeout-ms", "1000", "--max-connections", "20"],
          lambda r: r["open_after_watch"] == 0 and r["good_client_status"] == 200,
          "60 idle connections against a cap of 20 and an idle timeout of 1 s: all closed "
          "within 6 s (those beyond the cap accepted as others closed); a good client then "
          "answered 200",
          watch=6),
    Check("twice", 1, [], lambda r: r["status"] == 400, "Mcp-Name given twice: 400"),
    Check("big", 1, [],
          lambda r: r["status"] == 200 and r["peak_rss_after"] - r["peak_rss_before"] < 300,
          "1.8 MB of small objects answered 200 with peak RSS < 300 MB above the warm-up's "
          "(before the one typed read: +455 MB)"),
    Check("big", 1, ["--max-body-bytes", "1000000"],
          lambda r: r["status"] == 413 and r["peak_rss_after"] - r["peak_rss_before"] < 16,
          "the same over a body limit of 1 MB: 413, peak RSS < 16 MB above the warm-up's"),
    Check("bigtext", 1, [],
          lambda r: r["status"] == 200 and r["peak_rss_after"] - r["peak_rss_before"] < 32,
          "1.8 MB as one string answered 200 with peak RSS < 32 MB above the warm-up's"),
]


def ci(binary):
    """Runs every check against `binary`; whether every bound held. One line per check."""
    failed = 0
    for check in CHECKS:
        try:
            result = run(binary, check.flood, check.count, check.server_args, check.settings)
            held = check.held(result)
        except Exception as e:  # a flood that broke down is a bound not shown to hold
            result, held = {"flood": check.flood, "error": repr(e)}, False
        failed += not held
        verdict = "held" if held else "NOT HELD"
        options = "".join(f" {a}" for a in check.server_args)
        print(f"{verdict}: {check.flood}{options}: {check.meaning}")
        print(f"    {json.dumps(result)}", flush=True)
    print(f"floods: {len(CHECKS) - failed} of {len(CHECKS)} bounds held")
    return failed == 0


def run(binary, flood, count, server_args, settings):
    """Starts the server, runs `flood` against it, stops it; the flood's result."""
    server, port = start_server(binary, server_args)
    try:
        start = status_kb(server.pid, "VmRSS")
        began = time.monotonic()
        flooding = FLOODS[flood](server.pid, port, count, settings)
        result = asyncio.run(asyncio.wait_for(flooding, 300))
        return {"flood": flood, "count": count, "rss_start": mb(start), **result,
                "seconds": round(time.monotonic() - began, 1)}
    finally:
        server.kill()
        server.wait()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--ci":
        if not os.access(sys.argv[2], os.X_OK):
            sys.exit(f"floods: no server binary at {sys.argv[2]} (scripts/conformance.sh builds it)")
        sys.exit(0 if ci(sys.argv[2]) else 1)
    if len(sys.argv) < 3 or sys.argv[2] not in FLOODS:
        sys.exit(__doc__)
    binary, flood = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    extra = os.environ.get("FLOOD_SERVER_ARGS", "").split()
    print(json.dumps(run(binary, flood, count, extra, settings_from_env())))


if __name__ == "__main__":
    main()
