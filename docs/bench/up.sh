#!/usr/bin/env bash
# Benchmark of `solrscale up` (docs/bench/up.md). Usage: docs/bench/up.sh NODES ZK
# 1. cold: a new cluster with a 2x2 collection (runtime already cached), until every replica is active
# 2. warm: the same cluster stopped and brought up again by `solrscale up` (nodes start in parallel)
# 3. peer: the same cluster stopped and started by a plain serial shell script, the way people do it
#    by hand: the very same java command lines (command.txt), one node after another, each waited for,
#    then waiting until every replica is active. Its processes are stopped again by their pids.
# Also prints the resident memory (VmRSS) of every node after the cold start.
set -euo pipefail
nodes=${1:-2}; zk=${2:-1}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
name="bench-${nodes}n${zk}z"
home="${SOLRSCALE_HOME:-$HOME/.solrscale}"
dir="$home/clusters/$name"
replicas=$(( nodes >= 2 ? 2 : 1 ))

now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.1f}')"; }
active_replicas() {  # number of active replicas of collection docs, asked of one node
  curl -s -m 5 "http://127.0.0.1:$1/solr/admin/collections?action=CLUSTERSTATUS&collection=docs" |
    python3 -c 'import json,sys
try:
  c=json.load(sys.stdin)["cluster"]["collections"]["docs"]
  print(sum(1 for s in c["shards"].values() for r in s["replicas"].values() if r["state"]=="active"))
except Exception: print(0)'
}

"$s" --version >/dev/null  # builds solrscale first if needed, outside the timings
"$s" down --name "$name" --purge >/dev/null 2>&1 || true
t0=$(now)
"$s" up --name "$name" --nodes "$nodes" --zookeepers "$zk" --collection docs --shards 2 --replicas "$replicas" >/dev/null 2>&1
t1=$(now)
echo "cold up: $(secs "$t0" "$t1") s"
"$s" status --name "$name" --json | python3 -c 'import json,sys
for n in json.load(sys.stdin)["nodes"]:
  pid, nid = n["pid"], n["id"]
  rss=[l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS")][0].split()[1]
  print(f"rss {nid}: {int(rss)//1024} MiB")'

"$s" down --name "$name" >/dev/null 2>&1
t0=$(now)
"$s" up --name "$name" >/dev/null 2>&1
t1=$(now)
echo "warm up (solrscale, parallel): $(secs "$t0" "$t1") s"
"$s" down --name "$name" >/dev/null 2>&1

# the peer: a serial start script
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${pids[@]}"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done; }
trap cleanup EXIT
t0=$(now)
for d in "$dir"/zk*; do
  mapfile -t cmd < "$d/command.txt"
  (cd "$d" && exec setsid "${cmd[@]}" >>"$d/logs/console.log" 2>&1) & pids+=($!)
done
for d in "$dir"/zk*; do  # a quorum needs a majority up, so the servers cannot be waited for one by one
  port=$(grep '^clientPort=' "$d/zoo.cfg" | cut -d= -f2)
  until echo srvr | timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat >&3; cat <&3" 2>/dev/null | grep -q Mode; do sleep 0.25; done
done
last=""
for d in "$dir"/solr*; do
  mapfile -t cmd < "$d/command.txt"
  port=$(printf '%s\n' "${cmd[@]}" | grep '^-Djetty.port=' | cut -d= -f2)
  (cd "$d" && exec setsid "${cmd[@]}" >>"$d/logs/console.log" 2>&1) & pids+=($!)
  until curl -s -m 2 "http://127.0.0.1:$port/solr/admin/info/health" | grep -q '"OK"'; do sleep 0.25; done
  last=$port
done
until [ "$(active_replicas "$last")" -ge $(( 2 * replicas )) ]; do sleep 0.25; done
t1=$(now)
echo "warm up (serial shell script, peer): $(secs "$t0" "$t1") s"
cleanup; trap - EXIT
"$s" down --name "$name" --purge >/dev/null
