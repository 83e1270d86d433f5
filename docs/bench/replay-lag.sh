#!/usr/bin/env bash
# Replay against --rate at the same rate (docs/bench/replay.md): the schedule lag p99 of
# `bench --replay` of a log at RATE requests/s against `bench --rate RATE`, in one run, both
# against the cheap endpoint of docs/bench/driver.sh (one nginx worker pinned to core 0 answering a
# small Solr-like JSON body), the driver pinned to core 1, alternated twice.
# The log has Solr's millisecond resolution: at 2,000/s two requests share each millisecond.
# Needs the Debian package nginx-light (or nginx).
# Usage: docs/bench/replay-lag.sh [WORKDIR] [RATE] [SECONDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-replay}; rate=${2:-2000}; secs=${3:-20}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
command -v nginx >/dev/null || { echo "install nginx-light first" >&2; exit 3; }
. "$(dirname "$0")/nginx-lib.sh"
nginx_endpoint "$work"
# (secs + 3) s of requests at the rate, start times in ms, hits as the endpoint answers
python3 - "$work/requests.jsonl" "$rate" "$((secs + 3))" <<'PY'
import json, sys
out, rate, secs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
with open(out, "w") as f:
    for i in range(int(rate * secs)):
        t = 1795900000000 + int(i * 1000 / rate)
        q = "*:*" if i % 2 == 0 else "body_t:solr"
        f.write(json.dumps({"start_ms": t, "collection": "c", "handler": "/select",
                            "params": {"q": [q], "rows": ["10"]}, "hits": 42, "status": 0,
                            "qtime": 0, "source": "gen:%d" % (i + 1)}) + "\n")
PY
"$s" --version >/dev/null
taskset -c 0 nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true' EXIT
sleep 1
url=http://127.0.0.1:18080/solr
summarize='import json, sys
d = json.load(sys.stdin)
r = d.get("replay") or {}
print("lag p99 %.3f ms, p50 %.3f ms; achieved %.0f/s, driver CPU %.0f%%, errors %d%s" % (
      d["driver"]["schedule_lag_ms"]["p99"], d["driver"]["schedule_lag_ms"]["p50"],
      d["throughput"]["achieved"], d["driver"]["cpu_percent"], d["errors"]["total"],
      ", equal hits %d of %d" % (r["equal"], r["checked"]) if r else ""))'
for run in 1 2; do
  echo "run $run --rate:   $(taskset -c 1 "$s" bench --url "$url" --collection c --queries "$work/queries.txt" \
    --rate "$rate" --warmup 3s --duration "${secs}s" --json 2>/dev/null | python3 -c "$summarize")"
  echo "run $run --replay: $(taskset -c 1 "$s" bench --url "$url" --replay "$work/requests.jsonl" \
    --warmup 3s --json 2>/dev/null | python3 -c "$summarize")"
done
