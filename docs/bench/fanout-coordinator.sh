#!/usr/bin/env bash
# The coordinator's share of status (connections set up anew, then kept), logs and down on N lab
# hosts (docs/bench/fanout.md): the CPU seconds of solrscale and every process it starts here (ssh
# clients and their shared master connections), counted by a cpuacct cgroup of its own (cgroup v1,
# root; removed again by its name). Usage: docs/bench/fanout-coordinator.sh [N]  (net co, cluster
# bench-coord, both removed again)
set -euo pipefail
n=${1:-16}; root="$(cd "$(dirname "$0")/../.." && pwd)"; s="$root/solrscale"; net=co; name=bench-coord
home=${SOLRSCALE_HOME:-$HOME/.solrscale}
cg=/sys/fs/cgroup/cpuacct/solrscale-bench-coord
disconnect() { for d in $home/clusters/$name/ssh/*; do [ -S "$d" ] && ssh -o ControlPath="$d" -O exit master >/dev/null 2>&1 || true; done; }
cleanup() { disconnect; sleep 1; [ -d $cg ] && rmdir $cg || true; $s down --name $name --purge >/dev/null 2>&1 || true; $s net down --name $net --if-exists >/dev/null 2>&1 || true; }
trap cleanup EXIT
mkdir -p $cg
measure() { # LABEL COMMAND...
  local label=$1; shift
  local c0 t0 t1 c1
  c0=$(cat $cg/cpuacct.usage); t0=$(date +%s.%N)
  (echo $BASHPID > $cg/tasks; exec "$@") >/dev/null 2>&1
  t1=$(date +%s.%N); c1=$(cat $cg/cpuacct.usage)
  awk -v l="$label" -v n=$n -v a=$t0 -v b=$t1 -v x=$c0 -v y=$c1 'BEGIN { printf "%s at %d hosts: %.2f s wall, %.2f CPU-s on the coordinator\n", l, n, b - a, (y - x) / 1e9 }'
}
$s net up --name $net --hosts $n >/dev/null 2>&1
$s up --name $name --hosts $(seq -s, -f "$net-h%g" 1 $n) --zookeepers 1 --heap 128m >/dev/null 2>&1
for i in 1 2 3; do
  disconnect; sleep 1
  measure "status cold" $s status --name $name
  measure "status warm" $s status --name $name
done
measure logs $s logs --name $name
measure down $s down --name $name
