#!/bin/bash
# Index distribution on capped links: Solr's own replication (ADDREPLICA) against chain and tree,
# N = 1, 2, 4, 6 new PULL replicas of each shard of a 2-shard collection, on a lab network of 8
# hosts whose links are all capped at RATE, one Solr node per host (ZooKeeper on the first). The
# figure is `distribute`'s own: from the command until every new replica is active with its
# leader's count. The new replicas are deleted after each run; methods alternate for each N.
# With SHARD (e.g. shard1) only that shard gets new replicas: its targets then have hosts of their
# own, the clean comparison with size / bandwidth.
# Environment: HOSTS (lab hosts, default 8), NS (values of N, default "1 2 4 6"), METHODS
# (default "solr chain tree"), CREATES (how the new replicas are handed to Solr: together, each
# or "each together", default together), JVM_ARGS (more --jvm-arg for every Solr node, e.g.
# -Dsolr.distributedClusterStateUpdates=true).
# Needs root (net up). Usage: docs/bench/distribute.sh WORKDIR [DOCS] [RATE] [SHARD]
set -u
hosts=${HOSTS:-8}
ns=${NS:-1 2 4 6}
creates=${CREATES:-together}
methods=${METHODS:-solr chain tree}
jvm=()
for a in ${JVM_ARGS:-}; do jvm+=(--jvm-arg "$a"); done
work=${1:?usage: docs/bench/distribute.sh WORKDIR [DOCS] [RATE] [SHARD]}
docs=${2:-100000}
rate=${3:-50mbit}
only=()
[ -n "${4:-}" ] && only=(--shard "$4")
cd "$(dirname "$0")/../.."
mkdir -p "$work"
work=$(cd "$work" && pwd)
export SOLRSCALE_HOME=$work/home
./solrscale net up --name bds --hosts "$hosts" --bandwidth "$rate" >/dev/null || exit 1
trap './solrscale down --name bds-c --purge >/dev/null 2>&1; ./solrscale net down --name bds >/dev/null' EXIT
# the peer: raw TCP over one capped link, host 1 to host 3 (a Python socket pair in the hosts'
# namespaces), timed by the receiver from its first byte to the sender's end
addr3=$(ip -n solrscale-bds-h3 -4 -o addr show | awk '$2 != "lo" {sub(/\/.*/, "", $4); print $4; exit}')
ip netns exec solrscale-bds-h3 python3 -c '
import socket, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 5099)); s.listen(1); s.settimeout(60); c, _ = s.accept()
n = 0; t = None
while True:
    b = c.recv(1 << 16)
    if not b: break
    t = t or time.time(); n += len(b)
print("raw TCP over one capped link: %.1f MB in %.1f s = %.2f MB/s" % (n / 1e6, time.time() - t, n / 1e6 / (time.time() - t)))
' &
sleep 1
ip netns exec solrscale-bds-h1 python3 -c '
import socket, sys
s = socket.create_connection((sys.argv[1], 5099)); b = bytes(1 << 16); n = 0
while n < 55_000_000: s.sendall(b); n += len(b)
s.close()' "$addr3"
wait
all=$(seq -s, -f 'bds-h%g' 1 "$hosts")
./solrscale up --name bds-c --hosts "$all" "${jvm[@]}" \
  --zookeepers 1 --heap 384m --collection docs --shards 2 >/dev/null || exit 1
./solrscale data synth --docs "$docs" -o "$work/docs.jsonl" >/dev/null
./solrscale index --name bds-c --collection docs "$work/docs.jsonl" >/dev/null || exit 1
url=$(./solrscale status --name bds-c --json | jq -r '[.nodes[] | select(.role == "SOLR" or .role == "solr")][0].url')
delete_new() { # the replicas a result lists
  jq -r '.shards[] | .shard as $s | .targets[] | select(.replica != null) | "\($s) \(.replica)"' "$1" |
    while read -r shard replica; do
      curl -sf "$url/admin/collections?action=DELETEREPLICA&collection=docs&shard=$shard&replica=$replica&wt=json" >/dev/null ||
        echo "could not delete $replica"
    done
}
# once, not measured: puts solrscale's jar (which runs the relays) on every host
./solrscale distribute --name bds-c --collection docs --replicas $((hosts - 2)) --method chain --json >"$work/warm.json" 2>/dev/null
delete_new "$work/warm.json"
echo "method create N seconds index_MB_per_shard solr_MB_downloaded max_data_s first_active_s max_active_s setup_s"
for n in $ns; do
  for m in $methods; do
    for c in $creates; do
      out="$work/$m-$c-$n.json"
      ./solrscale distribute --name bds-c --collection docs "${only[@]}" --replicas "$n" --method "$m" \
        --create "$c" --out "$work/$m-$c-$n" --json >"$out" 2>"$work/$m-$c-$n.err" ||
        { echo "$m $c $n failed: $(tail -1 "$work/$m-$c-$n.err")"; }
      jq -r --arg m "$m" --arg c "$c" --arg n "$n" '"\($m) \($c) \($n) \(.seconds * 10 | round / 10) \([.shards[].index_bytes // 0] | max / 1e6 * 10 | round / 10) \([.shards[].targets[].solr_bytes_downloaded // 0] | add / 1e6 * 10 | round / 10) \([.shards[].targets[].seconds_to_data // 0] | max * 10 | round / 10) \([.shards[].targets[].seconds_to_active // 1e9] | min * 10 | round / 10) \([.shards[].targets[].seconds_to_active // 0] | max * 10 | round / 10) \((.setup_seconds // 0) * 10 | round / 10)"' "$out"
      delete_new "$out"
    done
  done
done
