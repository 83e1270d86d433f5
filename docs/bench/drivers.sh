#!/bin/bash
# Two drivers against one at the same total open-loop rate, on the same cluster in the same run:
# the merged percentiles judged by `compare`, and what each driver process cost (its own CPU).
# A cluster of 1 ZooKeeper and 2 Solr nodes on lab hosts 1-2, drivers on lab hosts 3-4; the
# scenario's matrix runs one driver (bdr-h3) then two (bdr-h3, bdr-h4), REPEATS times each, every
# repeat after a 30 s warm-up load from this machine (without it the first repeat measures a cold
# Solr: p99 3.6 s in a first run, against 10-40 ms in the next two).
# Needs root (net up). Usage: docs/bench/drivers.sh WORKDIR [RATE] [REPEATS]
set -u
work=${1:?usage: docs/bench/drivers.sh WORKDIR [RATE] [REPEATS]}
rate=${2:-100}
repeats=${3:-3}
cd "$(dirname "$0")/../.."
mkdir -p "$work"
work=$(cd "$work" && pwd)
export SOLRSCALE_HOME=$work/home
./solrscale net up --name bdr --hosts 4 >/dev/null || exit 1
trap './solrscale down --name bdr-c --purge >/dev/null 2>&1; ./solrscale net down --name bdr >/dev/null' EXIT
./solrscale up --name bdr-c --hosts bdr-h1,bdr-h2 --zookeepers 1 --collection docs --shards 2 \
  >/dev/null || exit 1
./solrscale data synth --docs 20000 -o "$work/docs.jsonl" >/dev/null
./solrscale data queries --count 2000 -o "$work/q.txt" "$work/docs.jsonl" >/dev/null
./solrscale index --name bdr-c --collection docs "$work/docs.jsonl" >/dev/null || exit 1
zk=$(./solrscale status --name bdr-c --json | jq -r .zk_host)
cat >"$work/drivers.yaml" <<YAML
name: drivers
cluster: {collections: [{name: docs}]}
repeat: $repeats
steps:
  - bench: {name: warm, collection: docs, queries: $work/q.txt, rate: $rate, warmup: 0s, duration: 30s}
  - bench: {name: q, collection: docs, queries: $work/q.txt, rate: $rate, warmup: 5s, duration: 30s,
            drivers: [bdr-h3]}
matrix:
  bench.drivers: [[bdr-h3], [bdr-h3, bdr-h4]]
YAML
rm -rf "$work/run"
./solrscale run "$work/drivers.yaml" --zk "$zk" --out "$work/run" >/dev/null || exit 1
./solrscale compare "$work/run#c001" "$work/run#c002"
echo "each driver's own CPU (percent of one core), by combination and repeat:"
jq -r '.combinations[] | "\(.id) r\(.repeat): " + ([.steps[1].summary.drivers[]
  | "\(.host) \(.cpu_percent | floor)% p99 \(.latency_ms.p99) ms"] | join(", "))' \
  "$work/run/results.json"
