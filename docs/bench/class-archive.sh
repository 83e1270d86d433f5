#!/usr/bin/env bash
# What the class-data archive saves a node's start (docs/bench/class-archive.md): `up` of 3
# ZooKeepers and 4 Solr nodes (256 MB heaps, a collection of 2 shards x 2 replicas made once, so
# each start loads its cores) with the archive (SOLRSCALE_CLASS_ARCHIVE=on) and without it,
# alternating, REPEATS times each, in one run. Per start: up's wall seconds, and each node's CPU
# seconds (utime + stime from /proc) 15 s after up returned, when the nodes idle. Nodes run as
# solrscale runs them (C2), or with NODE_OPTS (e.g. -XX:TieredStopAtLevel=1, as the tests do).
# One line per start, also in WORKDIR/class-archive.tsv, then the medians and their ratio.
# Usage: docs/bench/class-archive.sh [WORKDIR] [REPEATS]   (cluster bench-cds, removed again)
set -euo pipefail
work=${1:-/tmp/solrscale-bench-cds}; repeats=${2:-3}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-cds
home=${SOLRSCALE_HOME:-$HOME/.solrscale}
export SOLRSCALE_NODE_JAVA_OPTS=${NODE_OPTS:-}
export SOLRSCALE_CLASS_ARCHIVE=on
mkdir -p "$work"; cd "$work"
cleanup() { "$s" down --name $name --purge >/dev/null 2>&1 || true; }
trap cleanup EXIT
cleanup
# made once: the cluster and its collection (and the archive, if there is none yet)
"$s" up --name $name --nodes 4 --zookeepers 3 --heap 256m --collection c --shards 2 --replicas 2 \
  >setup.out 2>&1 || { tail -5 setup.out >&2; exit 1; }
grep -h "class-data archive" setup.out || true
"$s" down --name $name >/dev/null 2>&1
printf 'mode\tup_s\tsolr_cpu_s\tzk_cpu_s\n' >class-archive.tsv
cat class-archive.tsv
for i in $(seq 1 "$repeats"); do
  for mode in off on; do
    t0=$(date +%s.%N)
    if [ $mode = off ]; then
      SOLRSCALE_CLASS_ARCHIVE=off "$s" up --name $name >last.out 2>&1 || { tail -5 last.out >&2; exit 1; }
    else
      "$s" up --name $name >last.out 2>&1 || { tail -5 last.out >&2; exit 1; }
    fi
    t1=$(date +%s.%N)
    sleep 15
    python3 - "$home/clusters/$name/cluster.json" "$mode" "$t0" "$t1" <<'PY' | tee -a class-archive.tsv
import json, os, sys
state = json.load(open(sys.argv[1]))
tick = os.sysconf("SC_CLK_TCK")
solr, zk, mapped = [], [], 0
for n in state["nodes"]:
    f = open("/proc/%d/stat" % n["pid"]).read().rsplit(")", 1)[1].split()
    (zk if n["id"].startswith("zk") else solr).append((int(f[11]) + int(f[12])) / tick)
    if any(l.rstrip().endswith((".jsa", ".aot")) and "/archives/" in l
           for l in open("/proc/%d/maps" % n["pid"])):
        mapped += 1
want = len(state["nodes"]) if sys.argv[2] == "on" else 0
if mapped != want:
    sys.exit("%s: %d of %d nodes mapped the archive, expected %d" % (sys.argv[2], mapped, len(state["nodes"]), want))
print("%s\t%.1f\t%.2f\t%.2f" % (sys.argv[2], float(sys.argv[4]) - float(sys.argv[3]),
                                sum(solr) / len(solr), sum(zk) / len(zk)))
PY
    "$s" down --name $name >/dev/null 2>&1
  done
done
python3 - <<'PY'
import statistics as st
rows = [l.split("\t") for l in open("class-archive.tsv").read().split("\n")[1:] if l]
m = {mode: [r for r in rows if r[0] == mode] for mode in ("off", "on")}
med = {k: [st.median(float(r[i]) for r in v) for i in (1, 2, 3)] for k, v in m.items()}
print("median without: up %.1f s, Solr node %.2f CPU-s, ZooKeeper %.2f CPU-s" % tuple(med["off"]))
print("median with:    up %.1f s, Solr node %.2f CPU-s, ZooKeeper %.2f CPU-s" % tuple(med["on"]))
print("ratio with/without: up %.2fx, Solr node %.2fx, ZooKeeper %.2fx"
      % tuple(a / b for a, b in zip(med["on"], med["off"])))
PY
