#!/usr/bin/env python3
"""Compare one pcapdiag JSON report with the generator's FILE.planted.json.

usage: check.py REPORT.json FILE.planted.json LABEL

Per pattern, the sum of `attempts` over findings[] must equal the planted count; attempts in
findings beyond pcapdiag's --max-findings are not listed but counted per pattern in
`findings_not_listed`, and are added (shown apart). Also compared:
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

    found, listed = {}, {}
    for finding in report.get("findings", []):
        listed[finding["pattern"]] = listed.get(finding["pattern"], 0) + int(finding.get("attempts", 0))
        found[finding["pattern"]] = found.get(finding["pattern"], 0) + int(finding.get("attempts", 0))
    not_listed = report.get("findings_not_listed") or {}
    for pattern, n in not_listed.items():
        if n:
            found[pattern] = found.get(pattern, 0) + int(n)

    mismatches = 0
    rows = []
    def split(pattern):
        n = int(not_listed.get(pattern, 0) or 0)
        return f"  [{listed.get(pattern, 0):,} in findings[] + {n:,} in findings_not_listed]" if n else ""

    for pattern, want in planted["findings"].items():
        rows.append((pattern, want, found.pop(pattern, 0), split(pattern)))
    for pattern, got in sorted(found.items()):          # patterns nothing planted
        rows.append((pattern, 0, got, split(pattern)))

    packets = sum(int(c.get("packets", 0)) for c in report.get("captures", []))
    rows.append(("(packets read)", planted["packets"], packets, ""))
    total = (report.get("attempts") or {}).get("total")
    if total is not None:
        rows.append(("(attempts.total)", planted["attempts"], int(total), ""))

    # A bounded tracker may evict undecided attempts (DESIGN.md: evictions are counted and reported).
    # They are not findings, so a shortfall they explain exactly is still a mismatch, but say so.
    evicted = int((report.get("attempts") or {}).get("evicted", 0) or 0)
    print(f"  correctness: {label}")
    for name, want, got, note in rows:
        ok = want == got
        mismatches += not ok
        if not ok and evicted and not name.startswith("(") and got + evicted == want:
            note += f"  = planted - attempts.evicted ({evicted:,}): the shortfall is the tracker's evictions"
        diff = "" if ok else f"  ({got - want:+d}, {100.0 * (got - want) / want:+.2f}%)" if want else f"  ({got - want:+d})"
        print(f"    {'OK      ' if ok else 'MISMATCH'}  {name:<20} planted {want:>10,}  found {got:>10,}{diff}{note}")
    tracker = report.get("tracker") or {}
    attempts = report.get("attempts") or {}
    extra = ", ".join(f"{k} {attempts[k]:,}" for k in ("pending", "evicted") if k in attempts)
    print(f"    tracker.evicted {tracker.get('evicted', 'n/a')}"
          + (f", peak_open {tracker['peak_open']:,}" if "peak_open" in tracker else "")
          + (f"; attempts: {extra}" if extra else ""))
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
