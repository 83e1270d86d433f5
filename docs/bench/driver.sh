#!/usr/bin/env bash
# Driver cost (docs/bench/driver.md): `solrscale bench` at its maximum rate against wrk, in one run,
# both against one nginx worker pinned to core 0 that answers every request with a small Solr-like
# JSON body; each client pinned to core 1, 16 connections, SECONDS each, alternated twice; best of
# two, as requests per second. Needs the Debian packages nginx-light (or nginx) and wrk.
# Usage: docs/bench/driver.sh [WORKDIR] [SECONDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-driver}; secs=${2:-10}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
command -v nginx >/dev/null && command -v wrk >/dev/null || { echo "install nginx-light and wrk first" >&2; exit 3; }
. "$(dirname "$0")/nginx-lib.sh"
nginx_endpoint "$work"
"$s" --version >/dev/null
taskset -c 0 nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true' EXIT
sleep 1
url=http://127.0.0.1:18080/solr
wrk_run() { taskset -c 1 wrk -t1 -c16 -d"${secs}s" "$url/c/select?q=*:*&rows=10" | awk '/Requests\/sec/ {print $2}'; }
ours_run() {
  taskset -c 1 "$s" bench --url "$url" --collection c --queries "$work/queries.txt" --threads 16 \
    --connections 16 --warmup 3s --duration "${secs}s" --json 2>/dev/null \
    | python3 -c "$summarize"
}
summarize='import json, sys
d = json.load(sys.stdin)
print("%.0f (driver CPU %.0f%%, errors %d; %s)" % (d["throughput"]["achieved"],
      d["driver"]["cpu_percent"], d["errors"]["total"], d["driver"]["bottleneck"]))'

for run in 1 2; do
  echo "run $run wrk:       $(wrk_run) req/s"
  echo "run $run solrscale: $(ours_run) req/s"
done
