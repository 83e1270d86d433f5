#!/usr/bin/env bash
# Benchmark of `data clean`, `data split` and `data convert` of JSON Lines (docs/bench/data.md)
# against `cat FILE > /dev/null`,
# the practical limit, on a generated Solr XML file of about SIZE_MB (default 1000) in WORKDIR.
# Usage: docs/bench/data.sh [WORKDIR] [SIZE_MB]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-data}; size=${2:-1000}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
mkdir -p "$work"; big="$work/big.xml"
"$s" --version >/dev/null
if [ ! -f "$big" ]; then
  python3 - "$big" "$size" <<'PY'
import random, sys
path, size = sys.argv[1], int(sys.argv[2]) * 1_000_000
words = "solr lucene shard replica leader zookeeper index query facet cache commit merge".split()
r = random.Random(7)
with open(path, "w", encoding="utf-8") as f:
    f.write("<add>\n"); i = 0
    while f.tell() < size:
        body = " ".join(r.choice(words) for _ in range(60))
        f.write(f'<doc>\n  <field name="id">d{i}</field>\n  <field name="title_t">doc {i} ünï</field>\n'
                f'  <field name="body_t">{body}</field>\n  <field name="n_i">{i}</field>\n</doc>\n'); i += 1
    f.write("</add>\n")
PY
fi
now() { date +%s.%N; }
rate() { python3 -c "import os;print(f'{os.path.getsize(\"$big\")/1e6/($2-$1):.0f}')"; }
cat "$big" > /dev/null   # warm the page cache for everyone
for run in 1 2; do
  t0=$(now); cat "$big" > /dev/null; t1=$(now); echo "run $run cat:   $(rate "$t0" "$t1") MB/s"
  rm -f "$work/clean.xml"   # as for split's parts: no run pays for writing back the last one's output
  t0=$(now); "$s" data clean "$big" -o "$work/clean.xml" >/dev/null; t1=$(now); echo "run $run clean: $(rate "$t0" "$t1") MB/s"
  rm -rf "$work/parts"
  t0=$(now); "$s" data split "$big" --max-mb 100 -o "$work/parts" >/dev/null; t1=$(now); echo "run $run split: $(rate "$t0" "$t1") MB/s"
done
rm -rf "$work/parts" "$work/clean.xml"

# JSON Lines through the document path (Utf8Guard, Jackson, the writer): convert the same corpus,
# made once from the XML above, to JSON Lines again, against cat on it
jsonl="$work/from-xml.jsonl"
[ -f "$jsonl" ] || "$s" data convert "$big" -o "$jsonl" >/dev/null
jrate() { python3 -c "import os;print(f'{os.path.getsize(\"$jsonl\")/1e6/($2-$1):.0f}')"; }
cat "$jsonl" > /dev/null
for run in 1 2; do
  t0=$(now); cat "$jsonl" > /dev/null; t1=$(now); echo "run $run cat jsonl:     $(jrate "$t0" "$t1") MB/s"
  rm -f "$work/again.jsonl"
  t0=$(now); "$s" data convert "$jsonl" -o "$work/again.jsonl" >/dev/null; t1=$(now)
  echo "run $run convert jsonl: $(jrate "$t0" "$t1") MB/s"
done
rm -f "$work/again.jsonl"
