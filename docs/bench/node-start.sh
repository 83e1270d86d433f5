#!/usr/bin/env bash
# CPU a node's start costs, with the JIT compilers solrscale gives nodes (C2) and with C1 only
# (what the integration tests use): `up` of 1 ZooKeeper and 2 Solr nodes, then each process's
# utime+stime from /proc 20 s after `up` returned; the cluster is removed again by name.
# Usage: docs/bench/node-start.sh   (from the project root; clusters bench-c2 and bench-c1)
set -euo pipefail
home=${SOLRSCALE_HOME:-$HOME/.solrscale}
for mode in c2 c1; do
  name=bench-$mode
  args=()
  [ $mode = c1 ] && args=(--jvm-arg=-XX:TieredStopAtLevel=1)
  s=$(date +%s.%N)
  ./solrscale up --name "$name" --nodes 2 --collection c1 --shards 2 --replicas 2 "${args[@]}" >/dev/null 2>&1 || { echo "up failed: see ./solrscale logs --name $name" >&2; exit 1; }
  e=$(date +%s.%N)
  sleep 20
  python3 - "$home/clusters/$name/cluster.json" "$mode" "$(echo "$e - $s" | bc)" <<'PY'
import json, os, sys
state = json.load(open(sys.argv[1]))
tick = os.sysconf("SC_CLK_TCK")
cpu = {}
for n in state["nodes"]:
    f = open(f"/proc/{n['pid']}/stat").read()
    fields = f[f.rindex(")") + 2:].split()
    cpu[n["id"]] = (int(fields[11]) + int(fields[12])) / tick
solr = [v for k, v in cpu.items() if k.startswith("solr")]
print(f"{sys.argv[2]}: up {float(sys.argv[3]):.1f} s, Solr node start {sum(solr)/len(solr):.1f} CPU-s,"
      f" all nodes {sum(cpu.values()):.1f} CPU-s")
PY
  ./solrscale down --name "$name" --purge >/dev/null 2>&1
done
