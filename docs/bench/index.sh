#!/usr/bin/env bash
# Benchmark of `solrscale index` against Solr's own PostTool (docs/bench/index.md), as the issue
# asks: same corpus, same warm cluster (2 nodes, 2 shards, 1 GB heap), four warm-up loads with each tool
# then the two tools alternated, twice each, the collection emptied before every run; best of two.
# Usage: [WARM=4] docs/bench/index.sh [WORKDIR] [DOCS] [THREADS]
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
. "$root/docs/bench/index-lib.sh"
cluster_up
# warm-up: WARM (default 4) loads with each tool, alternated, so both of Solr's update paths
# (javabin, XML) are compiled. After only one, Solr's JIT was still at work: its CPU per document
# fell between the first and the second timed load by a fifth for solrscale index and by half
# for PostTool; after two, Solr still got faster for another dozen loads (docs/bench/index.md).
for ((warm = 0; warm < ${WARM:-4}; warm++)); do ours; empty; post; empty; done
for run in 1 2; do
  for tool in post ours; do
    timed $tool
    echo "run $run $tool: $(python3 -c "print(f'{$docs/$wall:.0f}')") docs/s, wall $wall s," \
      "client CPU $client s, Solr nodes CPU $solr s ($(count) searchable)"
  done
done
cluster_down
