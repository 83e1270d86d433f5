#!/usr/bin/env bash
# The Lucene ceiling of the index benchmark (docs/bench/index.md): the corpus of docs/bench/index.sh
# written by an in-process Lucene IndexWriter with the built-in configset's schema and index
# settings (org.solrscale.node.LuceneCeiling), in a JVM with the Solr nodes' heap. One warm-up
# run, then two timed runs, each into a fresh index; no Solr or ZooKeeper process is started.
# Usage: docs/bench/lucene.sh [WORKDIR] [DOCS] [THREADS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-index}; docs=${2:-63000}; threads=${3:-2}
root="$(cd "$(dirname "$0")/../.." && pwd)"
home="${SOLRSCALE_HOME:-$HOME/.solrscale}"
mkdir -p "$work"; corpus="$work/corpus-$docs.xml"
"$root/solrscale" --version >/dev/null
if [ ! -f "$corpus" ]; then
  python3 "$root/docs/bench/corpus.py" "$corpus" "$docs" full
fi
# The node module's own jar: a lab jar built with `mvn -pl lab` embeds whatever node jar is in
# ~/.m2, which may predate LuceneCeiling.
node=$(ls "$root"/node/target/solrscale-node-*.jar 2>/dev/null | head -1)
if [ -z "$node" ]; then
  echo "no node/target/solrscale-node-*.jar; build it with: mvn -B -q -pl node package -DskipTests" >&2
  exit 3
fi
cp="$node:$(ls "$home"/runtimes/9.10.0/lib/*.jar | tr '\n' ':')"
java -Xmx1g -cp "$cp" org.solrscale.node.LuceneCeiling \
  "$root/configsets/default/conf" "$corpus" "$work/lucene-index" "$threads"
