#!/usr/bin/env bash
# What --profile costs (docs/bench/profile-overhead.md): on one cluster (1 Solr node, 1g heap, a 50,000-document
# synthetic corpus), after one unrecorded round to warm the JVM, the same work with and without
# --profile, ROUNDS times, the order swapped every round (so that drift favours neither):
#  1. bench: closed loop, 4 threads, 5 s warm-up + 20 s measured (the recording spans both);
#  2. index: the corpus again (the same ids, so every run replaces as much), 4 threads.
# Prints achieved requests/s and documents/s per run; the ratio is profiled over unprofiled.
# Usage: docs/bench/profile-overhead.sh [WORKDIR] [ROUNDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-profile}; rounds=${2:-3}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-profile
mkdir -p "$work"; cd "$work"
"$s" --version >/dev/null
"$s" down --name $name --purge >/dev/null 2>&1 || true
trap '"$s" down --name $name --purge >/dev/null 2>&1 || true' EXIT
"$s" up --name $name --nodes 1 --heap 1g --collection docs --shards 1 >/dev/null
"$s" data synth --docs 50000 --seed 5 -o corpus.jsonl >/dev/null
"$s" index --name $name --collection docs --threads 4 corpus.jsonl >/dev/null
"$s" data queries corpus.jsonl --count 2000 --seed 5 -o queries.txt >/dev/null
bench() { # $1: label, $2...: extra options
  local label=$1; shift
  rm -rf "out-$label"
  "$s" bench --name $name --collection docs --queries queries.txt --threads 4 --warmup 5s \
    --duration 20s --json --out "out-$label" "$@" 2>/dev/null \
    | python3 -c 'import json,sys; print("%.1f" % json.load(sys.stdin)["throughput"]["achieved"])'
}
index() {
  local label=$1; shift
  rm -rf "idx-$label"
  "$s" index --name $name --collection docs --threads 4 --json corpus.jsonl "$@" 2>/dev/null \
    | python3 -c 'import json,sys; print("%.0f" % json.load(sys.stdin)["docs_per_sec"])'
}
bench warm >/dev/null; index warm >/dev/null
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then
    b1=$(bench plain); b2=$(bench prof --profile)
    i1=$(index plain); i2=$(index prof --profile --out idx-prof)
  else
    b2=$(bench prof --profile); b1=$(bench plain)
    i2=$(index prof --profile --out idx-prof); i1=$(index plain)
  fi
  echo "round $r bench req/s: plain $b1 profiled $b2; index docs/s: plain $i1 profiled $i2"
done
