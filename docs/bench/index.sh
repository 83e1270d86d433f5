#!/usr/bin/env bash
# Benchmark of `solrscale index` against Solr's own PostTool (docs/benchmarks.md), as the issue
# asks: same corpus, same warm cluster (2 nodes, 2 shards, 1 GB heap), one warm-up load with each tool
# then the two tools alternated, twice each, the collection emptied before every run; best of two.
# Usage: docs/bench/index.sh [WORKDIR] [DOCS] [THREADS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-index}; docs=${2:-63000}; threads=${3:-2}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-index
home="${SOLRSCALE_HOME:-$HOME/.solrscale}"
mkdir -p "$work"; corpus="$work/corpus-$docs.xml"
"$s" --version >/dev/null
if [ ! -f "$corpus" ]; then
  python3 "$root/docs/bench/corpus.py" "$corpus" "$docs" full
fi
"$s" down --name "$name" --purge >/dev/null 2>&1 || true
"$s" up --name "$name" --nodes 2 --heap 1g --collection docs --shards 2 >/dev/null 2>&1
port=$(python3 -c "import json;print([n['port'] for n in json.load(open('$home/clusters/$name/cluster.json'))['nodes'] if n['role']=='solr'][0])")
cp=$(ls "$home"/runtimes/9.10.0/lib/*.jar | tr '\n' ':')
now() { date +%s.%N; }
pids=$(python3 -c "import json;print(' '.join(str(n['pid']) for n in json.load(open('$home/clusters/$name/cluster.json'))['nodes'] if n['role']=='solr'))")
solr_cpu() {  # CPU seconds (user+system) of each Solr JVM so far
  for p in $pids; do awk -v t="$(getconf CLK_TCK)" '{sub(/.*\) /,""); print ($12+$13)/t}' "/proc/$p/stat"; done | tr '\n' ' '
}
cpu_delta() { python3 -c "a='$1'.split(); b='$2'.split(); print(' '.join(f'{float(y)-float(x):.1f}' for x,y in zip(a,b)))"; }
TIMEFORMAT='%U %S'   # client CPU: user and system seconds of the timed command
empty() {
  curl -s -m 120 "http://127.0.0.1:$port/solr/docs/update?commit=true" -H 'Content-Type: text/xml' \
    --data-binary '<delete><query>*:*</query></delete>' >/dev/null
}
count() { curl -s "http://127.0.0.1:$port/solr/docs/select?q=*:*&rows=0&wt=json" | python3 -c 'import json,sys;print(json.load(sys.stdin)["response"]["numFound"])'; }
post() { java -cp "$cp" org.apache.solr.cli.SolrCLI post -s "http://127.0.0.1:$port" -c docs "$corpus" >/dev/null 2>&1; }
ours() { "$s" index --name "$name" --collection docs --threads "$threads" --batch 1000 "$corpus" >/dev/null 2>&1; }
ours; empty; post; empty   # warm-up: both tools, so both of Solr's update paths (javabin, XML) are compiled
for run in 1 2; do
  for tool in post ours; do
    empty; c0=$(solr_cpu); t0=$(now)
    client=$( { time $tool; } 2>&1 | tail -1 )
    t1=$(now); c1=$(solr_cpu)
    echo "run $run $tool: $(python3 -c "print(f'{$docs/($t1-$t0):.0f}')") docs/s, wall $(python3 -c "print(f'{$t1-$t0:.1f}')") s," \
      "client CPU $(python3 -c "print(f'{sum(map(float, \"$client\".split())):.1f}')") s," \
      "Solr nodes CPU $(cpu_delta "$c0" "$c1") s ($(count) searchable)"
  done
done
"$s" down --name "$name" --purge >/dev/null 2>&1
