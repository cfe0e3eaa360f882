#!/usr/bin/env bash
# PrometheusScrapeTest's PDLAB_LIVE_CMD, in the lab node's network namespace: pcapdiag live with its metrics
# endpoint, and a real Prometheus scraping it every second. Prints "both ready" once Prometheus has stored the
# findings counter at 0 from a scrape; on SIGTERM (the scenario is over) it waits for the finding and a scrape
# that stores it, asks Prometheus's HTTP API what it stored, writes the answers beside the recordings, and stops both.
#   scrape.sh PCAPDIAG WORKDIR
set -u
pcapdiag=$1 dir=$2
mkdir -p "$dir/tsdb"
cat >"$dir/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: pcapdiag
    static_configs:
      - targets: ['127.0.0.1:9464']
YML
"$pcapdiag" live -i any --format jsonl --metrics-port 9464 --metrics-address 127.0.0.1 >"$dir/live.out" 2>"$dir/live.err" &
live=$!
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/tsdb" --web.listen-address=127.0.0.1:9090 \
  >"$dir/prometheus.log" 2>&1 &
prom=$!
query() { # NAME PROMQL: the API's answer into $dir/NAME.json
  python3 - "$1" "$2" "$dir" <<'PY'
import json, sys, urllib.parse, urllib.request
name, q, d = sys.argv[1:4]
url = "http://127.0.0.1:9090/api/v1/query?" + urllib.parse.urlencode({"query": q})
with urllib.request.urlopen(url, timeout=5) as r:
    open(d + "/" + name + ".json", "w").write(r.read().decode())
PY
}
stop() {
  # live decides an attempt about 4 s after its SYN (late copies, retransmissions): wait for the lab's finding
  # (the lab allows 10 s after SIGTERM), then until Prometheus has stored the counter at 1 and its last scrape of
  # the target succeeded (a fixed wait could end with neither on a loaded machine, whose scrapes can time out), for
  # at most 3 s. up.json is the answer of the last try: the target up (1), or nothing if it never was.
  for _ in $(seq 1 60); do grep -q '"event":"finding"' "$dir/live.out" && break; sleep 0.1; done
  for _ in $(seq 1 20); do
    query counted 'pcapdiag_findings_total{pattern="connection-refused"} == 1' 2>/dev/null \
      && grep -q '"value"' "$dir/counted.json" \
      && query up 'up{job="pcapdiag"} == 1' 2>/dev/null && grep -q '"value"' "$dir/up.json" && break
    sleep 0.1
  done
  [ -f "$dir/up.json" ] || query up 'up{job="pcapdiag"} == 1'
  query findings 'pcapdiag_findings_total'
  query refused_range 'pcapdiag_findings_total{pattern="connection-refused"}[2m]'
  query attempts 'pcapdiag_attempts_total'
  query interfaces 'pcapdiag_capture_interfaces'
  query series 'count by (__name__) ({__name__=~"pcapdiag_.*"})'
  kill -TERM "$live" "$prom" 2>/dev/null
  wait "$live" "$prom" 2>/dev/null
  exit 0
}
trap stop TERM
for _ in $(seq 1 600); do
  if grep -q capturing "$dir/live.err" 2>/dev/null; then
    # ready once Prometheus has stored the counter at 0 (a scrape that succeeded): "up" has a value after a failed
    # or timed-out scrape too (0), and the finding could then be the first value of the counter Prometheus sees.
    query probe 'pcapdiag_findings_total{pattern="connection-refused"} == 0' 2>/dev/null && grep -q '"value"' "$dir/probe.json" && break
  fi
  sleep 0.1
done
echo "both ready"
wait "$live"
