#!/usr/bin/env python3
"""Minimal TCP server and client for the pcapdiag lab (Python standard library only).

  tcp.py serve PORT [--v6]                 accept, read one line, answer "ok", close
  tcp.py dial HOST PORT [--bind ADDR] [--sport N] [--timeout S] [--send]

The client binds a fixed source address/port so that re-recorded captures keep the same
4-tuples, and prints one word for the outcome: ok, refused, timeout, unreachable or error.
"""
import argparse
import errno
import socket
import sys


def serve(args):
    family = socket.AF_INET6 if args.v6 else socket.AF_INET
    srv = socket.socket(family, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if args.v6:
        # One dual-stack socket answers both families, like most pod servers.
        srv.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    srv.bind(("::" if args.v6 else "0.0.0.0", args.port))
    srv.listen(16)
    print("listening", flush=True)
    while True:
        conn, _ = srv.accept()
        conn.settimeout(2.0)
        try:
            conn.recv(256)
            conn.sendall(b"ok\n")
        except OSError:
            pass
        conn.close()


def dial(args):
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    if args.bind or args.sport:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.bind or ("::" if family == socket.AF_INET6 else "0.0.0.0"), args.sport))
    sock.settimeout(args.timeout)
    try:
        sock.connect((args.host, args.port))
        if args.send:
            sock.sendall(b"hello\n")
            while sock.recv(256):
                pass
        outcome = "ok"
    except socket.timeout:
        outcome = "timeout"
    except ConnectionRefusedError:
        outcome = "refused"
    except OSError as e:
        outcome = "unreachable" if e.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH) else "error:" + errno.errorcode.get(e.errno, str(e.errno))
    finally:
        sock.close()
    print(outcome, flush=True)
    return 0 if outcome == "ok" else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("port", type=int)
    s.add_argument("--v6", action="store_true", help="dual-stack socket on ::")
    d = sub.add_parser("dial")
    d.add_argument("host")
    d.add_argument("port", type=int)
    d.add_argument("--bind", default="", help="source address")
    d.add_argument("--sport", type=int, default=0, help="source port")
    d.add_argument("--timeout", type=float, default=2.0)
    d.add_argument("--send", action="store_true", help="send a line and read to EOF")
    args = p.parse_args()
    if args.cmd == "serve":
        serve(args)
        return 0
    return dial(args)


if __name__ == "__main__":
    sys.exit(main())
