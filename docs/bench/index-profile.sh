#!/usr/bin/env bash
# Where the time goes when indexing with `solrscale index` and with PostTool (docs/bench/index.md):
# on the cluster of index.sh, after the same warm-up (WARM loads with each tool, 4 by default),
#  1. fixed cost: a one-document file, each tool twice, alternated (wall and client CPU);
#  2. CPU per document: the corpus once with each tool, the client's and the Solr nodes' CPU;
#  3. during those two loads, JFR's execution samples on each Solr node (one recording with default
#     settings, started before the warm-up: starting JFR recompiles much of a running JVM), sorted
#     into kinds of work by jfr_categories.py.
# Usage: docs/bench/index-profile.sh [WORKDIR] [DOCS] [THREADS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-index}; docs=${2:-250000}; threads=${3:-2}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-index
home="${SOLRSCALE_HOME:-$HOME/.solrscale}"
mkdir -p "$work"; corpus="$work/corpus-$docs.xml"; one="$work/one-document.xml"
"$s" --version >/dev/null
if [ ! -f "$corpus" ]; then
  python3 "$root/docs/bench/corpus.py" "$corpus" "$docs" full
fi
"$s" data sample --first 1 -o "$one" "$corpus" >/dev/null
. "$root/docs/bench/index-lib.sh"
cluster_up
for p in $pids; do jcmd "$p" JFR.start name=prof >/dev/null; done
for ((warm = 0; warm < ${WARM:-4}; warm++)); do ours; empty; post; empty; done   # warm-up, as index.sh
echo "fixed cost (one document):"
for run in 1 2; do
  for tool in post ours; do
    timed $tool "$one"; echo "  run $run $tool: wall $wall s, client CPU $client s"
  done
done
for tool in post ours; do
  from=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ); timed $tool; to=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
  samples=()
  for p in $pids; do
    jcmd "$p" JFR.dump name=prof begin="$(date -d "$from" +%H:%M:%S)" filename="$work/$tool-$p.jfr" >/dev/null
    jfr print --json --events jdk.ExecutionSample "$work/$tool-$p.jfr" > "$work/$tool-$p.json"
    samples+=("$work/$tool-$p.json")
  done
  python3 - "$docs" "$wall" "$client" $solr "$tool" <<'PY'
import sys
docs, wall, client = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
nodes = [float(x) for x in sys.argv[4:-1]]
print(f"{sys.argv[-1]}: {docs / wall:.0f} docs/s, wall {wall:.1f} s; CPU per document: client "
      f"{1e6 * client / docs:.1f} us, Solr {1e6 * sum(nodes) / docs:.1f} us (nodes {nodes} s)")
PY
  python3 "$root/docs/bench/jfr_categories.py" --between "$from" "$to" "${samples[@]}"
done
cluster_down
