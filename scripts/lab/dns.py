#!/usr/bin/env python3
"""DNS and UDP clients for the pcapdiag lab's DNS scenarios (Python standard library only).

  dns.py query SERVER NAME [--type A|AAAA] [--sport N] [--tries N] [--timeout S]
  dns.py udp HOST PORT [--sport N] [--timeout S]
  dns.py lookup NAME
  dns.py serve ADDR ZONE [--delay MS] [--record NAME=IPV4]...

`query` sends one DNS query from a fixed source port (glibc's resolver cannot fix it, and the
stale-conntrack scenario needs the same 5-tuple twice), re-sending the same message from the
same socket up to --tries times, and prints the answer's rcode (NOERROR, NXDOMAIN, SERVFAIL, ...)
or timeout / refused. `udp` sends one datagram from a connected socket and prints ok (an answer),
refused (ICMP port unreachable, reported as ECONNREFUSED) or timeout. `lookup` is glibc's
getaddrinfo(NAME, AF_UNSPEC): the resolver of every glibc-based pod, with its resolv.conf (search
list, ndots) and its parallel A and AAAA queries from one socket; it prints ok and the addresses,
nxdomain (EAI_NONAME), again (EAI_AGAIN: SERVFAIL or no answer) or failed, and the seconds it took.
`serve` answers DNS queries on ADDR:53 (UDP) for ZONE, each after --delay ms (a server further away
or busier than the one the client talks to): A for the given records, NOERROR without data for
their other types, NXDOMAIN with the zone's SOA for any other name in the zone, REFUSED outside it.
"""
import argparse
import errno
import heapq
import random
import select
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


def name_at(msg, off):
    """The question name at off (no compression: a question's first name never has it) and the offset after it."""
    labels = []
    while msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode("ascii").lower())
        off += 1 + n
    return ".".join(labels), off + 1


def serve(args):
    zone = args.zone.rstrip(".").lower()
    records = {}
    for r in args.record:
        name, addr = r.split("=")
        records[name.rstrip(".").lower()] = socket.inet_aton(addr)
    labels = b"".join(bytes([len(p)]) + p.encode("ascii") for p in zone.split("."))
    # The zone's SOA in the authority section of a negative answer, as an authoritative server gives it
    # (RFC 2308): the resolver caches the NXDOMAIN for its minimum TTL.
    soa_rdata = b"\x02ns" + labels + b"\x00\x0ahostmaster" + labels + b"\x00" + struct.pack("!IIIII", 1, 7200, 1800, 86400, 5)
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((args.addr, 53))
    print("listening on %s:53 for %s, answering after %d ms" % (args.addr, zone, args.delay), flush=True)
    due = []   # (time to send, sequence, reply, client)
    seq = 0
    while True:
        wait = max(0.0, due[0][0] - time.monotonic()) if due else None
        if select.select([sock], [], [], wait)[0]:
            msg, client = sock.recvfrom(4096)
            if len(msg) < 12 or msg[2] & 0x80 or struct.unpack("!H", msg[4:6])[0] != 1:
                continue
            qname, off = name_at(msg, 12)
            qtype = struct.unpack("!H", msg[off:off + 2])[0]
            question = msg[12:off + 4]
            flags = 0x8000 | 0x0400 | (struct.unpack("!H", msg[2:4])[0] & 0x0100)  # QR, AA, the query's RD
            answers, authority = [], []
            if qname != zone and not qname.endswith("." + zone):
                flags |= 5
            elif qname in records:
                if qtype == 1:
                    answers.append(b"\xc0\x0c" +  # the owner: a pointer to the question's name
                                    struct.pack("!HHIH", 1, 1, 30, 4) + records[qname])
            else:
                flags |= 3
            if (flags & 0xF) in (0, 3) and not answers:
                authority.append(labels + b"\x00" + struct.pack("!HHIH", 6, 1, 30, len(soa_rdata)) + soa_rdata)
            # An OPT record back when the query had one (EDNS0, RFC 6891), as a resolver asking with
            # EDNS expects.
            edns = [b"\x00" + struct.pack("!HHIH", 41, 1232, 0, 0)] if struct.unpack("!H", msg[10:12])[0] else []
            reply = (msg[:2] + struct.pack("!HHHHH", flags, 1, len(answers), len(authority), len(edns))
                     + question + b"".join(answers + authority + edns))
            seq += 1
            heapq.heappush(due, (time.monotonic() + args.delay / 1000, seq, reply, client))
        while due and due[0][0] <= time.monotonic():
            _, _, reply, client = heapq.heappop(due)
            sock.sendto(reply, client)


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
    sv = sub.add_parser("serve")
    sv.add_argument("addr")
    sv.add_argument("zone")
    sv.add_argument("--delay", type=int, default=0, help="ms before each answer")
    sv.add_argument("--record", action="append", default=[], metavar="NAME=IPV4")
    args = p.parse_args()
    return {"query": query, "udp": udp, "lookup": lookup, "serve": serve}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
