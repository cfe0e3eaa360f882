#!/usr/bin/env python3
"""Compare one pcapdiag JSON report with the generator's FILE.planted.json.

usage: check.py REPORT.json FILE.planted.json LABEL

Per pattern, the sum of `attempts` over findings[] must equal the planted count. Also compared:
packets read (captures[].packets) and attempts.total. Prints one line per check, then the
tracker's eviction count; exits 1 on any mismatch, 2 when the report cannot be read.
"""
import json
import sys


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    report_path, planted_path, label = argv[1:]
    with open(planted_path, encoding="utf-8") as f:
        planted = json.load(f)
    try:
        with open(report_path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"  ERROR     {label}: pcapdiag output is not JSON ({e})")
        return 2

    found = {}
    for finding in report.get("findings", []):
        found[finding["pattern"]] = found.get(finding["pattern"], 0) + int(finding.get("attempts", 0))

    mismatches = 0
    rows = []
    for pattern, want in planted["findings"].items():
        rows.append((pattern, want, found.pop(pattern, 0)))
    for pattern, got in sorted(found.items()):          # patterns nothing planted
        rows.append((pattern, 0, got))

    packets = sum(int(c.get("packets", 0)) for c in report.get("captures", []))
    rows.append(("(packets read)", planted["packets"], packets))
    total = (report.get("attempts") or {}).get("total")
    if total is not None:
        rows.append(("(attempts.total)", planted["attempts"], int(total)))

    print(f"  correctness: {label}")
    for name, want, got in rows:
        ok = want == got
        mismatches += not ok
        diff = "" if ok else f"  ({got - want:+d}, {100.0 * (got - want) / want:+.2f}%)" if want else f"  ({got - want:+d})"
        print(f"    {'OK      ' if ok else 'MISMATCH'}  {name:<20} planted {want:>10,}  found {got:>10,}{diff}")
    tracker = report.get("tracker") or {}
    attempts = report.get("attempts") or {}
    extra = ", ".join(f"{k} {attempts[k]:,}" for k in ("pending", "evicted") if k in attempts)
    print(f"    tracker.evicted {tracker.get('evicted', 'n/a')}"
          + (f", peak_open {tracker['peak_open']:,}" if "peak_open" in tracker else "")
          + (f"; attempts: {extra}" if extra else ""))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
