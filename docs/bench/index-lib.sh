# Shared by index.sh and index-profile.sh (sourced, not run): a 2-node, 2-shard cluster named
# $name with a collection `docs`, the two indexing tools, and CPU accounting from /proc.
# Needs: $s (the solrscale launcher), $name, $home, $corpus, $threads.
cluster_up() {
  "$s" down --name "$name" --purge >/dev/null 2>&1 || true
  "$s" up --name "$name" --nodes 2 --heap 1g --collection docs --shards 2 >/dev/null 2>&1
  port=$(python3 -c "import json;print([n['port'] for n in json.load(open('$home/clusters/$name/cluster.json'))['nodes'] if n['role']=='solr'][0])")
  pids=$(python3 -c "import json;print(' '.join(str(n['pid']) for n in json.load(open('$home/clusters/$name/cluster.json'))['nodes'] if n['role']=='solr'))")
  cp=$(ls "$home"/runtimes/9.10.0/lib/*.jar | tr '\n' ':')
}
cluster_down() { "$s" down --name "$name" --purge >/dev/null 2>&1; }
now() { date +%s.%N; }
solr_cpu() {  # CPU seconds (user+system) of each Solr JVM so far
  for p in $pids; do awk -v t="$(getconf CLK_TCK)" '{sub(/.*\) /,""); print ($12+$13)/t}' "/proc/$p/stat"; done | tr '\n' ' '
}
cpu_delta() { python3 -c "a='$1'.split(); b='$2'.split(); print(' '.join(f'{float(y)-float(x):.1f}' for x,y in zip(a,b)))"; }
TIMEFORMAT='%U %S'   # client CPU: user and system seconds of the timed command
empty() {
  curl -s -m 120 "http://127.0.0.1:$port/solr/docs/update?commit=true" -H 'Content-Type: text/xml' \
    --data-binary '<delete><query>*:*</query></delete>' >/dev/null
}
count() { curl -s "http://127.0.0.1:$port/solr/docs/select?q=*:*&rows=0&wt=json" | python3 -c 'import json,sys;print(json.load(sys.stdin)["response"]["numFound"])'; }
# PostTool (`SolrCLI post`, the tool behind `bin/solr post`) and `solrscale index`, on FILE (default $corpus)
post() { java -cp "$cp" org.apache.solr.cli.SolrCLI post -s "http://127.0.0.1:$port" -c docs "${1:-$corpus}" >/dev/null 2>&1; }
ours() { "$s" index --name "$name" --collection docs --threads "$threads" --batch 1000 "${1:-$corpus}" >/dev/null 2>&1; }
# Runs TOOL [FILE] on an emptied collection; sets: wall (s), client (CPU s), solr (CPU s per node)
timed() {
  local tool=$1; shift
  empty; local c0; c0=$(solr_cpu); local t0; t0=$(now)
  local times; times=$( { time $tool "$@"; } 2>&1 | tail -1 )
  local t1; t1=$(now); local c1; c1=$(solr_cpu)
  wall=$(python3 -c "print(f'{$t1-$t0:.2f}')")
  client=$(python3 -c "print(f'{sum(map(float, \"$times\".split())):.1f}')")
  solr=$(cpu_delta "$c0" "$c1")
}
