#!/usr/bin/env bash
# What bench --attribute costs (docs/benchmarks.md): a closed loop of 4 threads for 15 s against a
# 2-shard collection on 2 local Solr nodes, with and without --attribute (default 5 %, and 100 %),
# alternated ROUNDS times; prints each run's throughput and the driver's CPU. Usage:
#   docs/bench/attribution-cost.sh WORKDIR [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${1:?workdir}; ROUNDS=${2:-3}
mkdir -p "$W"
S=./solrscale
NAME=battr
trap '$S down --name $NAME --if-exists >/dev/null 2>&1 || true' EXIT
$S up --name $NAME --nodes 2 --heap 512m --collection g --shards 2 --replicas 1 >/dev/null
[ -f "$W/docs.jsonl" ] || $S data synth --docs 50000 -o "$W/docs.jsonl" >/dev/null
[ -f "$W/q.txt" ] || $S data queries --count 1000 -o "$W/q.txt" "$W/docs.jsonl" >/dev/null
$S index --name $NAME --collection g "$W/docs.jsonl" >/dev/null
run() { # NAME ARGS...
  local out="$W/$1-$r"; shift
  $S bench --name $NAME --collection g --queries "$W/q.txt" --threads 4 --warmup 5s --duration 15s --out "$out" "$@" >/dev/null 2>&1
  python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("%.1f req/s, p99 %.2f ms, driver CPU %.1f %%" % (s["throughput"]["achieved"], s["latency_ms"]["p99"], s["driver"]["cpu_percent"]))
PY
}
for r in $(seq "$ROUNDS"); do
  echo "round $r plain:     $(run plain)"
  echo "round $r attribute: $(run attr --attribute)"
  echo "round $r all:       $(run all --attribute 100%)"
done
