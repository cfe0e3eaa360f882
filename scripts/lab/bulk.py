#!/usr/bin/env python3
"""HTTP-like server and client for the lab's established-connection scenarios (standard library only).

  bulk.py serve PORT --size N                    answer each request with an N-byte response body
  bulk.py serve PORT --stream BYTES --every S    answer with a body that never ends: BYTES every S seconds
  bulk.py get HOST PORT [--sport N] [--timeout S] [--ping S [--mark FILE]] [--for S]

The server reads the request head, sends the response head in a segment of its own (as a server that
flushes its headers does), then the body. The client sends `GET /` with a fixed source port, reads
until the body is complete (--size: Content-Length) or the connection ends, and with --ping writes a
line every S seconds meanwhile (a client's heartbeat on a long-lived stream: what makes it send, and
retransmit, once the server has gone), appending "ping N" to FILE after each (--mark: what the lab
times its interventions by). --timeout is the longest the client waits for any byte; --for ends a
read that is still going after S seconds (a stream that is alive is "ok"). It prints the outcome and the body bytes it read: "ok N", "timeout N", "reset N", "closed N" (the
server closed before the body was complete), "unreachable N" or "error:ERRNO N".
"""
import argparse
import errno
import socket
import sys
import threading
import time


def respond(conn, args):
    head = b""
    while b"\r\n\r\n" not in head:
        data = conn.recv(4096)
        if not data:
            return
        head += data
    if args.stream:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        # Whatever the client sends meanwhile (its heartbeats) is read and dropped.
        threading.Thread(target=drain, args=(conn,), daemon=True).start()
        while True:
            time.sleep(args.every)
            conn.sendall(b"d" * args.stream)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % args.size)
    # The head leaves on its own (Nagle sends it at once: nothing is in flight); the pause keeps the
    # body's first bytes from being coalesced with it by TCP autocorking.
    time.sleep(0.05)
    conn.sendall(b"b" * args.size)
    conn.settimeout(30)
    while conn.recv(4096):
        pass


def drain(conn):
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass


def handle(conn, args):
    try:
        respond(conn, args)
    except OSError:
        pass
    finally:
        conn.close()


def serve(args):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", args.port))
    srv.listen(16)
    print("listening", flush=True)
    while True:
        conn, _ = srv.accept()
        threading.Thread(target=handle, args=(conn, args), daemon=True).start()


def get(args):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("0.0.0.0", args.sport))
    sock.settimeout(args.timeout)
    body = 0
    outcome = None
    stop = threading.Event()
    deadline = time.monotonic() + args.for_ if args.for_ else None
    try:
        sock.connect((args.host, args.port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: %s:%d\r\nAccept: */*\r\n\r\n" % (args.host.encode(), args.port))
        if args.ping:
            threading.Thread(target=ping, args=(sock, args.ping, args.mark, stop), daemon=True).start()
        buf = b""
        length = None
        while True:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    outcome = "ok"
                    break
                sock.settimeout(min(args.timeout, left))
            try:
                data = sock.recv(65536)
            except socket.timeout:
                if deadline is not None and time.monotonic() >= deadline - 0.001:
                    continue
                raise
            if not data:
                outcome = "closed"
                break
            if length is None:
                buf += data
                if b"\r\n\r\n" not in buf:
                    continue
                head, _, rest = buf.partition(b"\r\n\r\n")
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                if length is None:
                    length = -1   # a stream: no end
                body += len(rest)
            else:
                body += len(data)
            if 0 <= length <= body:
                outcome = "ok"
                break
    except socket.timeout:
        outcome = "timeout"
    except ConnectionResetError:
        outcome = "reset"
    except OSError as e:
        outcome = "unreachable" if e.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH) else "error:" + errno.errorcode.get(e.errno, str(e.errno))
    finally:
        stop.set()
        sock.close()
    print(outcome, body, flush=True)
    return 0 if outcome == "ok" else 1


def ping(sock, every, mark, stop):
    n = 0
    while not stop.wait(every):
        try:
            sock.sendall(b"ping\n")
        except OSError:
            return
        n += 1
        if mark:
            with open(mark, "a", encoding="ascii") as f:
                f.write("ping %d\n" % n)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("port", type=int)
    s.add_argument("--size", type=int, default=0, help="response body bytes")
    s.add_argument("--stream", type=int, default=0, help="an endless body: this many bytes at a time")
    s.add_argument("--every", type=float, default=0.5, help="seconds between the stream's writes")
    g = sub.add_parser("get")
    g.add_argument("host")
    g.add_argument("port", type=int)
    g.add_argument("--sport", type=int, default=0, help="source port")
    g.add_argument("--timeout", type=float, default=5.0, help="longest wait for any byte")
    g.add_argument("--ping", type=float, default=0, help="send a heartbeat line every this many seconds")
    g.add_argument("--mark", default="", help="append 'ping N' to this file after each heartbeat")
    g.add_argument("--for", dest="for_", type=float, default=0, help="a read still going after this many seconds is ok")
    args = p.parse_args()
    if args.cmd == "serve":
        serve(args)
        return 0
    return get(args)


if __name__ == "__main__":
    sys.exit(main())
