#!/usr/bin/env bash
# Benchmark of `data synth` (docs/bench/synth.md) against docs/bench/corpus.py, the Python generator
# the index and heap benchmarks use: MB of output per second of wall time (each tool's start
# included) and per CPU second (user + system, robust when other work shares the machine), twice.
# Usage: docs/bench/synth.sh [WORKDIR] [DOCS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-synth}; docs=${2:-500000}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
mkdir -p "$work"
"$s" --version >/dev/null
TIMEFORMAT='%R %U %S'   # wall, user and system seconds of the timed command
measure() {  # measure LABEL FILE COMMAND...: runs the command, prints MB, MB/s and MB per CPU-s
  local label=$1 file=$2; shift 2
  local t; t=$( { time "$@" >/dev/null; } 2>&1 | tail -1 )
  python3 - "$label" "$file" $t <<'PY'
import os, sys
label, path, wall, user, sys_ = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:6])
mb = os.path.getsize(path) / 1e6
print(f"{label}: {mb:.0f} MB in {wall:.1f} s wall, {user + sys_:.1f} CPU-s: "
      f"{mb / wall:.1f} MB/s, {mb / (user + sys_):.1f} MB per CPU-s")
PY
}
for run in 1 2; do
  measure "run $run synth jsonl" "$work/synth.jsonl" "$s" data synth --docs "$docs" -o "$work/synth.jsonl"
  measure "run $run synth xml  " "$work/synth.xml" "$s" data synth --docs "$docs" -o "$work/synth.xml"
  measure "run $run corpus.py  " "$work/peer.xml" python3 "$root/docs/bench/corpus.py" "$work/peer.xml" "$docs" full
done
rm -f "$work/synth.jsonl" "$work/synth.xml" "$work/peer.xml"
