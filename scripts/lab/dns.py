#!/usr/bin/env python3
"""DNS and UDP clients for the pcapdiag lab's DNS scenarios (Python standard library only).

  dns.py query SERVER NAME [--type A|AAAA] [--sport N] [--tries N] [--timeout S]
  dns.py udp HOST PORT [--sport N] [--timeout S]
  dns.py lookup NAME

`query` sends one DNS query from a fixed source port (glibc's resolver cannot fix it, and the
stale-conntrack scenario needs the same 5-tuple twice), re-sending the same message from the
same socket up to --tries times, and prints the answer's rcode (NOERROR, NXDOMAIN, SERVFAIL, ...)
or timeout / refused. `udp` sends one datagram from a connected socket and prints ok (an answer),
refused (ICMP port unreachable, reported as ECONNREFUSED) or timeout. `lookup` is glibc's
getaddrinfo(NAME, AF_UNSPEC): the resolver of every glibc-based pod, with its resolv.conf (search
list, ndots) and its parallel A and AAAA queries from one socket; it prints ok and the addresses,
nxdomain (EAI_NONAME), again (EAI_AGAIN: SERVFAIL or no answer) or failed, and the seconds it took.
"""
import argparse
import errno
import random
import socket
import struct
import sys
import time

RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN", 4: "NOTIMP", 5: "REFUSED"}
TYPES = {"A": 1, "AAAA": 28}


def message(name, qtype, qid):
    labels = b"".join(bytes([len(p)]) + p.encode("ascii") for p in name.rstrip(".").split(".") if p)
    # id, flags RD, QDCOUNT 1, no other records; the question: name, type, class IN.
    return struct.pack("!HHHHHH", qid, 0x0100, 1, 0, 0, 0) + labels + b"\x00" + struct.pack("!HH", TYPES[qtype], 1)


def query(args):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("0.0.0.0", args.sport))
    sock.connect((args.server, 53))
    sock.settimeout(args.timeout)
    qid = args.id if args.id is not None else random.randrange(1 << 16)
    msg = message(args.name, args.type, qid)
    outcome = "timeout"
    for _ in range(args.tries):
        sock.send(msg)
        try:
            while True:
                reply = sock.recv(4096)
                if len(reply) >= 12 and struct.unpack("!H", reply[:2])[0] == qid:
                    outcome = RCODES.get(reply[3] & 0x0F, "rcode" + str(reply[3] & 0x0F))
                    break
            break
        except socket.timeout:
            continue
        except ConnectionRefusedError:
            outcome = "refused"
            break
    sock.close()
    print(outcome, flush=True)
    return 0


def udp(args):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("0.0.0.0", args.sport))
    sock.connect((args.host, args.port))
    sock.settimeout(args.timeout)
    sock.send(b"pdlab.requests:1|c\n")
    try:
        sock.recv(4096)
        outcome = "ok"
    except socket.timeout:
        outcome = "timeout"
    except ConnectionRefusedError:
        outcome = "refused"
    except OSError as e:
        outcome = "error:" + errno.errorcode.get(e.errno, str(e.errno))
    sock.close()
    print(outcome, flush=True)
    return 0


def lookup(args):
    start = time.monotonic()
    try:
        infos = socket.getaddrinfo(args.name, None, socket.AF_UNSPEC, socket.SOCK_DGRAM)
        outcome = "ok " + ",".join(sorted({i[4][0] for i in infos}))
    except socket.gaierror as e:
        outcome = {socket.EAI_NONAME: "nxdomain", socket.EAI_AGAIN: "again"}.get(e.errno, "failed:" + str(e.errno))
    print("%s %.1fs" % (outcome, time.monotonic() - start), flush=True)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("query")
    q.add_argument("server")
    q.add_argument("name")
    q.add_argument("--type", choices=sorted(TYPES), default="A")
    q.add_argument("--sport", type=int, default=0)
    q.add_argument("--id", type=int, default=None, help="query id (default: random)")
    q.add_argument("--tries", type=int, default=1)
    q.add_argument("--timeout", type=float, default=2.0)
    u = sub.add_parser("udp")
    u.add_argument("host")
    u.add_argument("port", type=int)
    u.add_argument("--sport", type=int, default=0)
    u.add_argument("--timeout", type=float, default=1.0)
    lk = sub.add_parser("lookup")
    lk.add_argument("name")
    args = p.parse_args()
    return {"query": query, "udp": udp, "lookup": lookup}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
