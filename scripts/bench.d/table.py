#!/usr/bin/env python3
"""Turn the benchmark's raw measurements into the summary table.

usage: table.py RAW.tsv

RAW.tsv rows (tab-separated):
  trace  <name> <file> <packets> <bytes>
  run    <name> <tool> <wall seconds> <peak RSS KiB> <exit status> <round>
  note   <name> <text>
Medians over the runs of each (trace, tool). The bench runs every tool of a trace once a round, side by side;
a ratio is the median over the rounds of pcapdiag's wall time over the other tool's in the same round, so that
the machine's drift from minute to minute, which falls on a whole round, cancels out of it.
"""
import statistics
import sys


def paired(runs, tool, other):
    """The median over the rounds both ran in of tool's wall time over other's, or None."""
    a = {r[3]: r[0] for r in runs.get(tool, [])}
    b = {r[3]: r[0] for r in runs.get(other, [])}
    ratios = [a[k] / b[k] for k in a if k in b and a[k] > 0 and b[k] > 0]
    return statistics.median(ratios) if ratios else None


def ratio(r):
    if r is None:
        return ""
    if 0.95 <= r <= 1.05:
        return "about the same"
    return f"{r:.1f}x slower" if r > 1 else f"{1 / r:.1f}x faster"


def main(argv):
    traces, runs, notes, order = {}, {}, {}, []
    with open(argv[1], encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols[0] == "trace":
                traces[cols[1]] = (cols[2], int(cols[3]), int(cols[4]))
                order.append(cols[1])
            elif cols[0] == "run":
                runs.setdefault(cols[1], {}).setdefault(cols[2], []).append(
                    (float(cols[3]), int(cols[4]), int(cols[5]), int(cols[6])))
            elif cols[0] == "note":
                notes.setdefault(cols[1], []).append(cols[2])

    header = f"{'trace':<14} {'packets':>11} {'MB':>8}  {'tool':<20} {'runs':>4} {'wall s':>8} {'RSS MB':>8}  pcapdiag vs tool"
    print(header)
    print("-" * len(header))
    for name in order:
        _, packets, size = traces[name]
        tools = runs.get(name, {})
        med = {}
        for tool, rs in tools.items():
            ok = [r for r in rs if r[2] in ((0, 1) if tool.startswith("pcapdiag") else (0,))]
            med[tool] = (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs) / 1024,
                         len(rs), len(ok) == len(rs))
        first = True
        for tool in tools:
            wall, rss, n, ok = med[tool]
            lead = f"{name:<14} {packets:>11,} {size / 1e6:>8.1f}" if first else " " * 35
            vs = "" if tool == "pcapdiag" else ratio(paired(tools, "pcapdiag", tool))
            flag = "" if ok else "  [FAILED RUN]"
            print(f"{lead}  {tool:<20} {n:>4} {wall:>8.3f} {rss:>8.1f}  {vs}{flag}")
            first = False
        if "tcpdump" in med:
            # The target of the speed work: each output format against libpcap's own read of the same file.
            formats = [(label, paired(tools, t, "tcpdump")) for label, t in (("text", "pcapdiag"),
                       ("json", "pcapdiag json"), ("jsonl", "pcapdiag jsonl")) if t in med]
            formats = [(label, r) for label, r in formats if r is not None]
            if formats:
                print(" " * 37 + "pcapdiag " + "/".join(l for l, _ in formats) + " vs tcpdump -r -w /dev/null: "
                      + " / ".join(f"{r:.2f}x" for _, r in formats))
        if "pcapdiag" in med and packets >= 10_000:
            mbps = size / 1e6 / med["pcapdiag"][0] if med["pcapdiag"][0] > 0 else 0
            print(" " * 37 + f"pcapdiag throughput {mbps:,.0f} MB/s, "
                  f"{packets / med['pcapdiag'][0] / 1e6:,.2f} M packets/s")
        for n in notes.get(name, []):
            print(" " * 37 + n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
