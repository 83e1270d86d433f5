#!/bin/bash
# `up` of 3 ZooKeepers + 4 Solr nodes on this machine against the same shape on 4 lab-network
# hosts, interleaved, ROUNDS times; the first hosts round copies the runtime to fresh hosts.
# Needs root (net up). Usage: docs/bench/hosts-up.sh WORKDIR [ROUNDS]
set -u
work=${1:?usage: docs/bench/hosts-up.sh WORKDIR [ROUNDS]}
rounds=${2:-5}
cd "$(dirname "$0")/../.."
export SOLRSCALE_HOME=$work/home
rm -rf "$SOLRSCALE_HOME" && mkdir -p "$SOLRSCALE_HOME/runtimes"
# the runtime resolved once (by the first up, or copied from ~/.solrscale): not what is timed
[ -d ~/.solrscale/runtimes/9.10.0 ] && cp -a ~/.solrscale/runtimes/9.10.0 "$SOLRSCALE_HOME/runtimes/"
./solrscale net up --name bup --hosts 4 >/dev/null || exit 1
trap './solrscale net down --name bup >/dev/null' EXIT
hosts=bup-h1,bup-h2,bup-h3,bup-h4
secs() { grep -o 'is up in [0-9.]* s' | grep -o '[0-9.]*'; }
for round in $(seq "$rounds"); do
  l=$(./solrscale up --name b-local --nodes 4 --zookeepers 3 2>/dev/null | secs)
  ./solrscale down --name b-local --purge >/dev/null 2>&1
  out=$(./solrscale up --name b-hosts --hosts $hosts --zookeepers 3 2>&1)
  h=$(echo "$out" | secs)
  copied=$(echo "$out" | grep -o 'copied [0-9,]* bytes' | head -1)
  ./solrscale down --name b-hosts --purge >/dev/null 2>&1
  echo "round $round: local ${l}s hosts ${h}s ${copied:-nothing copied}"
done
