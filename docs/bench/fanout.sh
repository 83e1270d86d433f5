#!/usr/bin/env bash
# How solrscale's operations on all hosts grow with the number of hosts (docs/bench/fanout.md).
# For each N of COUNTS: a lab network of N hosts and a cluster on all of them (1 ZooKeeper, one
# Solr node of 128 MB heap on each host, a collection of 1 shard x 2 replicas). Wall seconds of:
# net up; the first up (which copies the Solr runtime to every host); status cold (the median of
# 3, each after the cluster's SSH connections were closed, so that every host's is set up again)
# and warm (the median of 3 on the connections kept); logs (every node's last lines); down; up
# again (the runtime there: only the starts); a partition of the last host (chaos, 3 s, light load:
# the seconds putting its routes in and taking them out took on every host, from faults.json);
# down --purge; net down. For status and down also the CPU seconds the whole machine was busy
# meanwhile (/proc/stat: solrscale, ssh, the hosts' sshd and the nodes). Also the CPU seconds each
# Solr node took to start (utime + stime from /proc after the second up, idle since it served)
# and the memory of an idle Solr node and of an idle lab host's sshd (RSS). One line per N, also
# in WORKDIR/fanout.tsv; down's progress lines in WORKDIR/down-N.err.
# Usage: docs/bench/fanout.sh [WORKDIR] [COUNTS] [SSH_PARALLEL]  (COUNTS default "4 8 16 32";
# SSH_PARALLEL: --ssh-parallel for every command, default solrscale's)
set -euo pipefail
work=${1:-/tmp/solrscale-bench-fanout}; counts=${2:-"4 8 16 32"}; par=${3:-}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; net=fo; name=bench-fanout
home=${SOLRSCALE_HOME:-$HOME/.solrscale}
opts=(); [ -n "$par" ] && opts=(--ssh-parallel "$par")
mkdir -p "$work"; cd "$work"
"$s" --version >/dev/null
cleanup() {
  "$s" down --name $name --purge >/dev/null 2>&1 || true
  "$s" net down --name $net --if-exists >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup
tck=$(getconf CLK_TCK)
took=0; busy=0
ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
timed() { # COMMAND...: runs it (output in last.out, last.err); its wall seconds in $took, and the
  # CPU seconds this whole machine was busy meanwhile (every process: solrscale, ssh, sshd, nodes)
  local t0 t1 c0 c1; t0=$(date +%s.%N); c0=$(ticks)
  if ! "$@" >last.out 2>last.err; then
    echo "failed: $*" >&2; tail -5 last.err >&2; exit 1
  fi
  t1=$(date +%s.%N); c1=$(ticks)
  took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  busy=$(awk -v a="$c0" -v b="$c1" -v t="$tck" 'BEGIN { printf "%.1f", (b - a) / t }')
}
disconnect() { # ends the cluster's shared SSH connections, each by its control socket
  local d="$home/clusters/$name/ssh" sock
  [ -d "$d" ] || return 0
  for sock in "$d"/*; do
    if [ -S "$sock" ]; then ssh -o ControlPath="$sock" -O exit master >/dev/null 2>&1 || true; fi
  done
}
printf 'hosts\tnet_up_s\tup_first_s\tstatus_s\tstatus_cpu_s\tstatus_warm_s\tlogs_s\tdown_s\tdown_cpu_s' >fanout.tsv
printf '\tup_again_s\tnet_down_s' >>fanout.tsv
printf '\tpartition_in_s\tpartition_out_s\tsolr_start_cpu_s\tsolr_rss_mb\tsshd_rss_mb\n' >>fanout.tsv
cat fanout.tsv
for n in $counts; do
  hosts=$(seq -s, -f "$net-h%g" 1 "$n")
  timed "$s" "${opts[@]}" net up --name $net --hosts "$n"; t_net=$took
  timed "$s" "${opts[@]}" up --name $name --hosts "$hosts" --zookeepers 1 --heap 128m \
    --collection fo --shards 1 --replicas 2; t_up1=$took
  st=()
  for i in 1 2 3; do
    disconnect
    timed "$s" "${opts[@]}" status --name $name; st+=("$took $busy")
  done
  read -r t_status c_status < <(printf '%s\n' "${st[@]}" | sort -n | sed -n 2p)
  sw=()
  for i in 1 2 3; do # the connections kept from the one before: what a user's next status takes
    timed "$s" "${opts[@]}" status --name $name; sw+=("$took")
  done
  t_warm=$(printf '%s\n' "${sw[@]}" | sort -n | sed -n 2p)
  disconnect
  timed "$s" "${opts[@]}" logs --name $name; t_logs=$took
  disconnect
  timed "$s" "${opts[@]}" down --name $name; t_down=$took; c_down=$busy
  cp last.err "down-$n.err"
  timed "$s" "${opts[@]}" up --name $name; t_up2=$took
  sleep 5 # the nodes idle: what they used is their start
  "$s" status --name $name --json >status.json
  # each Solr node's CPU seconds and memory since its start
  read -r cpu rss < <(python3 - "$tck" <<'PY'
import json, sys
tck = int(sys.argv[1])
cpus, rss = [], []
for n in json.load(open("status.json"))["nodes"]:
    if n["role"] != "solr":
        continue
    f = open("/proc/%d/stat" % n["pid"]).read().rsplit(")", 1)[1].split()
    cpus.append((int(f[11]) + int(f[12])) / tck)
    for line in open("/proc/%d/status" % n["pid"]):
        if line.startswith("VmRSS:"):
            rss.append(int(line.split()[1]) / 1024)
print("%.1f %.0f" % (sum(cpus) / len(cpus), sum(rss) / len(rss)))
PY
)
  sshd=$(python3 - "$home/nets/$net/net.json" <<'PY'
import json, sys
rss = []
for h in json.load(open(sys.argv[1]))["hosts"]:
    for line in open("/proc/%d/status" % h["sshd_pid"]):
        if line.startswith("VmRSS:"):
            rss.append(int(line.split()[1]) / 1024)
print("%.1f" % (sum(rss) / len(rss)))
PY
)
  rm -rf part
  # its verdict is not what is measured here: a failed check is shown, the timing still read
  "$s" "${opts[@]}" chaos --name $name --collection fo --fault partition --target "$net-h$n" \
    --at 2s --duration 3s --after 3s --write-rate 50 --query-rate 20 --out part >part.out 2>&1 \
    || { echo "chaos at $n hosts: exit $?" >&2; tail -3 part.out >&2; }
  read -r p_in p_out < <(python3 -c '
import json
f = json.load(open("part/faults.json"))[0]
print("%.2f %.2f" % (f["inject_seconds"], f["heal_seconds"]))')
  timed "$s" "${opts[@]}" down --name $name --purge
  timed "$s" net down --name $net; t_netdown=$took
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$t_net" \
    "$t_up1" "$t_status" "$c_status" "$t_warm" "$t_logs" "$t_down" "$c_down" "$t_up2" "$t_netdown" \
    "$p_in" "$p_out" "$cpu" "$rss" "$sshd" | tee -a fanout.tsv
done
