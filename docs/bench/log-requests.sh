#!/usr/bin/env bash
# data log-requests on a 1 GB solr.log against `grep -c 'path=/'` over the same file, in one run.
# The log is made here: Solr 9.10's own line forms (a top-level request, its two shard
# sub-requests, updates and other INFO lines, as a 2-shard cluster writes them), times one
# millisecond apart. Usage: docs/bench/log-requests.sh [DIR] [MB]
set -euo pipefail
dir=${1:-/tmp/solrscale-logbench}
mb=${2:-1024}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
log=$dir/solr.log
if [[ ! -s $log || $(( $(stat -c %s "$log") / 1000000 )) -lt $(( mb * 1000000 / 1048576 )) ]]; then
  awk -v bytes=$((mb * 1048576)) 'BEGIN {
    srand(7); t = 0; n = 0; size = 0;
    split("kape zivi raba befi gigike febe keka dita soda mama", w, " ");
    while (size < bytes) {
      s = int(t / 1000); ms = t % 1000;
      ts = sprintf("2026-11-29 %02d:%02d:%02d.%03d", int(s / 3600) % 24, int(s / 60) % 60, s % 60, ms);
      q = "body_t:" w[1 + int(rand() * 10)];
      fq = (rand() < 0.3) ? "&fq=category_s:" w[1 + int(rand() * 10)] : "";
      facet = (rand() < 0.2) ? "&facet=true&facet.field=brand_s&facet.field=color_s&facet.limit=25" : "";
      mdc = "[c:docs s:shard1 r:core_node2 x:docs_shard1_replica_n1]";
      line = ts " INFO  (qtp2103763750-" n % 50 ") " mdc " o.a.s.c.S.Request webapp=/solr path=/select params={df=text&distrib=false&fl=id&shards.purpose=4&start=0&fsv=true&rows=10&rid=127.0.0.1-" n "&version=2&q=" q fq "&omitHeader=false&NOW=1795931525474&isShard=true&wt=javabin} hits=" int(rand() * 900) " status=0 QTime=" int(rand() * 9);
      print line; size += length(line) + 1;
      print line; size += length(line) + 1;
      line = ts " INFO  (qtp2103763750-" n % 50 ") " mdc " o.a.s.c.S.Request webapp=/solr path=/select params={q=" q fq facet "&rows=10&wt=json} rid=127.0.0.1-" n " hits=" int(rand() * 1800) " status=0 QTime=" int(rand() * 20);
      print line; size += length(line) + 1;
      if (n % 10 == 0) {
        line = ts " INFO  (qtp2103763750-7) " mdc " o.a.s.u.p.LogUpdateProcessorFactory webapp=/solr path=/update params={wt=javabin&version=2}{add=[doc-" n " (1883170696078557184)]} 0 12";
        print line; size += length(line) + 1;
        line = ts " INFO  (commitScheduler-9-thread-1) " mdc " o.a.s.u.DirectUpdateHandler2 start commit{,optimize=false,openSearcher=false,waitSearcher=true,expungeDeletes=false,softCommit=false,prepareCommit=false}";
        print line; size += length(line) + 1;
      }
      t += 1; n++;
    }
  }' > "$log"
fi
cat "$log" > /dev/null # both read it from the page cache
echo "log: $(du -h "$log" | cut -f1), $(wc -l < "$log") lines"
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
t0=$(date +%s.%N)
grep -c 'path=/' "$log"
t1=$(date +%s.%N)
"$root/solrscale" data log-requests "$log" -o "$dir/requests.jsonl" --zone UTC | head -1
t2=$(date +%s.%N)
g=$(echo "$t1 - $t0" | bc)
s=$(echo "$t2 - $t1" | bc)
printf 'grep -c: %.2f s, data log-requests: %.2f s, ratio %.2f\n' "$g" "$s" "$(echo "$s / $g" | bc -l)"
