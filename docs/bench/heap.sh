#!/usr/bin/env bash
# `solrscale index` with a small client heap (HEAP, default 32m) on a corpus of about 350 MB of Solr XML:
# completes (so the heap never needed more than HEAP), verifies, and reports the largest live heap
# after a GC from the client's GC log (docs/bench/heap.md).
# Usage: docs/bench/heap.sh [WORKDIR] [DOCS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-heap}; docs=${2:-1200000}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-heap
mkdir -p "$work"; corpus="$work/corpus-$docs.xml"
"$s" --version >/dev/null
if [ ! -f "$corpus" ]; then
  python3 "$root/docs/bench/corpus.py" "$corpus" "$docs" lean
fi
ls -la "$corpus"
"$s" down --name "$name" --purge >/dev/null 2>&1 || true
"$s" up --name "$name" --nodes 2 --heap 1g --collection docs --shards 2 >/dev/null 2>&1
SOLRSCALE_JAVA_OPTS="-Xmx${HEAP:-32m} -Xlog:gc:file=$work/client-gc.log" \
  "$s" index --name "$name" --collection docs --json "$corpus" 2>/dev/null | tr -d '\n '; echo
echo "client GCs: $(grep -c 'Pause' "$work/client-gc.log")," \
  "largest heap after a GC: $(grep -o '[0-9]*M->[0-9]*M' "$work/client-gc.log" | cut -d'>' -f2 | tr -d M | sort -n | tail -1) MB"
"$s" down --name "$name" --purge >/dev/null 2>&1
