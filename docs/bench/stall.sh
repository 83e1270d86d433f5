#!/usr/bin/env bash
# Coordinated omission, proved on a real cluster (docs/bench/stall.md): an open loop at RATE/s and a
# closed loop of 4 threads, each against a 2-node, 2-shard cluster in which one Solr node is
# frozen with SIGSTOP for 2 s in the middle of the measured time. Every query fans out to both
# shards, so every request due during the freeze must wait for its end. The script computes the
# latencies the schedule implies (from the freeze's measured start and end) and puts the open
# loop's p99, p99.9 and max beside them; the closed loop shows what a tool without the correction
# reports for the same stall.
# With STALL_NGINX=1 the same is done first against one nginx worker (Debian nginx-light) that answers a
# Solr-like JSON body at 1000/s: nginx recovers from the freeze in microseconds, so there the
# measured percentiles must equal the schedule's; a real Solr node needs some time to work off
# the requests that piled up, which shows as the excess over the schedule in the Solr run.
# Usage: [STALL_NGINX=1] docs/bench/stall.sh [WORKDIR] [RATE]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-stall}; rate=${2:-10}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"; name=bench-stall
home="${SOLRSCALE_HOME:-$HOME/.solrscale}"
mkdir -p "$work"
"$s" down --name "$name" --purge >/dev/null 2>&1 || true
trap '"$s" down --name "$name" --purge >/dev/null 2>&1 || true' EXIT
"$s" up --name "$name" --nodes 2 --heap 1g --collection docs --shards 2 >/dev/null 2>&1
[ -f "$work/synth.jsonl" ] || "$s" data synth --docs 20000 -o "$work/synth.jsonl" >/dev/null
"$s" index --name "$name" --collection docs "$work/synth.jsonl" >/dev/null 2>&1
"$s" data queries "$work/synth.jsonl" --count 500 -o "$work/queries.txt" >/dev/null
"$s" bench --name "$name" --collection docs --queries "$work/queries.txt" --threads 4 --warmup 0s --duration 10s >/dev/null 2>&1
pid=$(python3 -c "import json;print([n['pid'] for n in json.load(open('$home/clusters/$name/cluster.json'))['nodes'] if n['id']=='solr2'][0])")

run() {  # $1 label, $2 pid to freeze, $3.. bench args; freezes it for 2 s, 12 s after the start
  local label=$1 pid=$2; shift 2
  python3 - "$pid" "$work/freeze-$label.json" <<'PY' &
import json, os, signal, sys, time
pid, out = int(sys.argv[1]), sys.argv[2]
time.sleep(12)
t0 = time.time(); os.kill(pid, signal.SIGSTOP)
time.sleep(2)
os.kill(pid, signal.SIGCONT); t1 = time.time()
json.dump({"stop": t0, "cont": t1}, open(out, "w"))
PY
  local freezer=$!
  "$s" bench --collection docs --queries "$work/queries.txt" "$@" --warmup 5s \
    --duration 20s --out "$work/$label" --json > "$work/$label.json" 2>/dev/null
  wait "$freezer"
}
run open "$pid" --name "$name" --rate "$rate"
run closed "$pid" --name "$name" --threads 4


if [ "${STALL_NGINX:-0}" = 1 ]; then
  mkdir -p "$work/nginx/logs"
  cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  server {
    listen 127.0.0.1:18081;
    location / { default_type application/json; return 200 '{"responseHeader":{"status":0},"response":{"numFound":42,"start":0,"docs":[]}}'; }
  }
}
CONF
  nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
  nginx_master=$!
  sleep 1
  worker=$(pgrep -P "$nginx_master" | head -1)   # the one worker process, a child of our master
  run nginx-open "$worker" --url http://127.0.0.1:18081/solr --rate 1000
  run nginx-closed "$worker" --url http://127.0.0.1:18081/solr --threads 4
  kill -QUIT "$nginx_master"; wait "$nginx_master" || true
fi
compare() {  # $1 label prefix, $2 rate
python3 - "$work" "$1" "$2" <<'PY'
import json, math, sys
work, prefix, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
def pct(sorted_values, p):
    return sorted_values[max(0, math.ceil(p / 100 * len(sorted_values)) - 1)]
o = json.load(open(f"{work}/{prefix}open.json")); fo = json.load(open(f"{work}/freeze-{prefix}open.json"))
start = o["started_at_ms"] / 1000 + o["warmup"]["seconds"]
service = o["service_time_ms"]["p50"]
n = o["count"]
expected = []
for k in range(n):
    due = start + k / rate
    wait = max(0.0, fo["cont"] - due) if fo["stop"] <= due < fo["cont"] else 0.0
    expected.append(wait * 1000 + service)
expected.sort()
print(f"{prefix or 'solr-'}run, freeze: {1000 * (fo['cont'] - fo['stop']):.0f} ms; open loop {rate:.0f}/s, {n} requests measured")
print(f"{'':10} {'expected':>10} {'open loop':>10} {'ratio':>6} {'closed loop':>12}")
c = json.load(open(f"{work}/{prefix}closed.json"))
for key, p in (("p99", 99), ("p99.9", 99.9), ("max", 100)):
    e = pct(expected, p) if p < 100 else expected[-1]
    m = o["latency_ms"][key]
    print(f"{key:10} {e:10.1f} {m:10.1f} {m / e:6.3f} {c['latency_ms'][key]:12.1f}")
print(f"closed loop: {c['count']} requests, {c['throughput']['achieved']:.0f}/s; open loop achieved "
      f"{o['throughput']['achieved']:.1f}/s of {o['throughput']['offered']:.0f}/s offered")
PY
}
[ "${STALL_NGINX:-0}" = 1 ] && compare nginx- 1000
compare "" "$rate"
