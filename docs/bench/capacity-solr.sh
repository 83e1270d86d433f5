#!/usr/bin/env bash
# The capacity of one Solr topology, searched ROUNDS times (docs/bench/capacity-solr.md): its spread. One
# Solr node (512m heap), 1 ZooKeeper, a 1-shard collection of a 50,000-document synthetic corpus,
# 2,000 derived queries; after a 30 s warm-up load, `capacity --slo 'p99<100ms,errors<0.1%'`
# ROUNDS times, each round followed by the peer: a closed loop of 16 threads for 20 s, the
# saturation throughput a "redline" ramp reports (no latency objective). Prints each round's
# capacity, interval, probes and seconds, and the closed loop's achieved rate and p99.
# Usage: docs/bench/capacity-solr.sh [WORKDIR] [ROUNDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-capacity}; rounds=${2:-5}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-capacity
mkdir -p "$work"; cd "$work"
"$s" --version >/dev/null
"$s" down --name $name --purge >/dev/null 2>&1 || true
trap '"$s" down --name $name --purge >/dev/null 2>&1 || true' EXIT
"$s" up --name $name --nodes 1 --heap 512m --collection docs --shards 1 >/dev/null
"$s" data synth --docs 50000 --seed 9 -o corpus.jsonl >/dev/null
"$s" index --name $name --collection docs corpus.jsonl >/dev/null
"$s" data queries corpus.jsonl --count 2000 --seed 9 -o queries.txt >/dev/null
"$s" bench --name $name --collection docs --queries queries.txt --rate 200 --warmup 0s \
  --duration 30s >/dev/null 2>&1
for ((r = 1; r <= rounds; r++)); do
  start=$(date +%s.%N)
  "$s" capacity --name $name --collection docs --queries queries.txt \
    --slo 'p99<100ms,errors<0.1%' --start-rate 200 --warmup 3s --json >"cap-$r.json" 2>/dev/null \
    || true
  end=$(date +%s.%N)
  python3 - "cap-$r.json" "$start" "$end" "$r" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print("round %s capacity: %s req/s (interval %s-%s), %d probes, %.0f s; %s" % (
    sys.argv[4], c.get("capacity"), c.get("low"), c.get("high"), len(c["probes"]),
    float(sys.argv[3]) - float(sys.argv[2]), c["ended"]))
PY
  "$s" bench --name $name --collection docs --queries queries.txt --threads 16 --warmup 5s \
    --duration 20s --json 2>/dev/null | python3 -c 'import json,sys; j=json.load(sys.stdin);
print("round %s closed loop, 16 threads: %.1f req/s, p99 %.1f ms" % (sys.argv[1],
    j["throughput"]["achieved"], j["latency_ms"]["p99"]))' "$r"
done
