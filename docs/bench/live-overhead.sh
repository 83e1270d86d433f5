#!/usr/bin/env bash
# What watching costs the measurement (docs/bench/live-overhead.md): `solrscale bench --out` at its
# maximum rate, without and with `--live` plus a page open in headless Chromium and /metrics
# scraped every second (as Prometheus would), alternated ROUNDS times, against driver.sh's cheap
# endpoint: one nginx worker pinned to core 0 answering a small Solr-like JSON body. The bench is
# pinned to core 1 with 16 users on 16 connections (the driver is the bottleneck there: a cost in
# the driver shows as lost throughput); the browser and the scraper run on core 0 beside nginx.
# Needs nginx-light, wrk (not used here, but driver.sh's peer), chromium, curl.
# Usage: docs/bench/live-overhead.sh [WORKDIR] [SECONDS] [ROUNDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-live}; secs=${2:-10}; rounds=${3:-3}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
command -v nginx >/dev/null && command -v chromium >/dev/null || { echo "install nginx-light and chromium first" >&2; exit 3; }
rm -rf "$work"
. "$(dirname "$0")/nginx-lib.sh"
nginx_endpoint "$work"
"$s" --version >/dev/null
taskset -c 0 nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill -QUIT "$nginx_pid" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
sleep 1
url=http://127.0.0.1:18080/solr
port=19470
bench() { # $1: out dir, rest: extra flags
  local out=$1; shift
  taskset -c 1 "$s" bench --url "$url" --collection c --queries "$work/queries.txt" --threads 16 \
    --connections 16 --warmup 3s --duration "${secs}s" --out "$out" --json "$@" 2>"$out.err" \
    | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("%.0f %.0f" % (d["throughput"]["achieved"], d["driver"]["cpu_percent"]))'
}
watched() { # the bench with --live, a page open and /metrics scraped each second while it runs
  local out=$1
  ( for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 0.1; done
    taskset -c 0 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" \
      "http://127.0.0.1:$port/" >/dev/null 2>&1 &
    echo $! > "$work/chromium.pid"
    while curl -sf "http://127.0.0.1:$port/metrics" >/dev/null; do sleep 1; done ) &
  local helper=$!
  echo "$(bench "$out" --live --live-port "$port") $(grep -o 'it used [0-9.]* s of CPU' "$out.err" | awk '{print $3}')"
  wait "$helper" 2>/dev/null || true
  local cp; cp=$(cat "$work/chromium.pid" 2>/dev/null || true)
  [ -n "$cp" ] && { kill "$cp" 2>/dev/null || true; wait "$cp" 2>/dev/null || true; }
  rm -f "$work/chromium.pid"
}
printf '%-6s %-24s %-36s\n' round "without: req/s CPU%" "with --live + page: req/s CPU% view-CPU-s"
for r in $(seq 1 "$rounds"); do
  a=$(bench "$work/plain-$r")
  b=$(watched "$work/live-$r")
  printf '%-6s %-24s %-36s\n' "$r" "$a" "$b"
done
