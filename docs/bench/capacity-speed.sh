#!/usr/bin/env bash
# How long a capacity search takes, before and after it starts near the answer and decides probes
# early (docs/bench/capacity-speed.md), in one run: the issue's cluster (2 Solr nodes of 512m, 1
# ZooKeeper, a 2-shard collection of a 50,000-document synthetic corpus, 2,000 derived queries),
# and the calibration server (4 workers x 10 ms: 400 requests/s known in advance). Each round runs
# the old search (--start-rate 10 --full-probes, as before) and the new one (the defaults:
# --start-rate auto, probes decided early) one after the other, with the same objective, warm-up
# and minimum probe time (the calibration server's old search runs once: its answer is known).
# Prints each search's capacity, interval, probes and seconds.
# Usage: docs/bench/capacity-speed.sh [WORKDIR] [ROUNDS] [both|new]  (new: only the new search on
# Solr, ROUNDS times, and no calibration server). WARMUP (default 60s): how long the warm-up load
# at 100 requests/s runs before the first search.
set -euo pipefail
work=${1:-/tmp/solrscale-bench-capacity-speed}; rounds=${2:-2}; mode=${3:-both}; warmup=${WARMUP:-60s}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-capspeed
mkdir -p "$work"; cd "$work"
"$s" --version >/dev/null
"$s" down --name $name --purge >/dev/null 2>&1 || true
calib=""
cleanup() {
  [ -n "$calib" ] && kill "$calib" 2>/dev/null || true
  "$s" down --name $name --purge >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$s" up --name $name --nodes 2 --heap 512m --collection docs --shards 2 >/dev/null
"$s" data synth --docs 50000 --seed 9 -o corpus.jsonl >/dev/null
"$s" index --name $name --collection docs corpus.jsonl >/dev/null
"$s" data queries corpus.jsonl --count 2000 --seed 9 -o queries.txt >/dev/null
# a warm-up load (a cold 2-shard collection answers a few hundred ms a query): its verdict is no
# matter
"$s" bench --name $name --collection docs --queries queries.txt --rate 100 --warmup 0s \
  --duration "$warmup" >/dev/null 2>&1 || true
report() { # FILE START END LABEL
  python3 - "$@" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
early = sum(1 for p in c["probes"] if p["measured"].get("decided_early"))
ramp = c.get("ramp")
print("%s: capacity %s req/s (interval %s-%s), %d probes (%d decided early), %.0f s%s; %s" % (
    sys.argv[4], c.get("capacity"), c.get("low"), c.get("high"), len(c["probes"]), early,
    float(sys.argv[3]) - float(sys.argv[2]),
    "" if not ramp else ", closed loop %.0f req/s -> start %s" % (ramp["achieved"], ramp["start"]),
    c["ended"]))
PY
}
search() { # LABEL OUT ARGS...
  local label=$1 out=$2; shift 2
  local t0 t1; t0=$(date +%s.%N)
  "$s" capacity "$@" --slo 'p99<100ms,errors<0.1%' --warmup 3s --json >"$out" 2>/dev/null || true
  t1=$(date +%s.%N)
  report "$out" "$t0" "$t1" "$label"
}
before() {
  search "round $1 solr, before (--start-rate 10 --full-probes)" "solr-before-$1.json" \
    --name $name --collection docs --queries queries.txt --start-rate 10 --full-probes
}
after() {
  search "round $1 solr, after (defaults)" "solr-after-$1.json" \
    --name $name --collection docs --queries queries.txt
}
for ((r = 1; r <= rounds; r++)); do # the order alternates: neither always follows the other
  if [ "$mode" = new ]; then after $r
  elif ((r % 2)); then before $r; after $r
  else after $r; before $r; fi
done
[ "$mode" = new ] && exit 0
port=18999
"$s" calibration-server --workers 4 --service-ms 10 --port $port >/dev/null 2>&1 &
calib=$!
for ((i = 0; i < 60; i++)); do # until it answers (a JVM starting on a busy machine)
  curl -s -o /dev/null "http://127.0.0.1:$port/solr/calib/select?q=x" && break
  sleep 0.5
done
# the calibration server's capacity is known, so one search before is enough to time it
search "calibration (400/s), before" "calib-before.json" \
  --url "http://127.0.0.1:$port/solr" --collection calib --queries queries.txt \
  --start-rate 10 --full-probes
for ((r = 1; r <= rounds; r++)); do
  search "round $r calibration (400/s), after" "calib-after-$r.json" \
    --url "http://127.0.0.1:$port/solr" --collection calib --queries queries.txt
done
