#!/usr/bin/env python3
# Where a distributed faceted search spends its time in refinement: sends a sample of the requests
# of a queries file (from `solrscale data queries`) to a collection with debug=track and prints,
# per request, its hits, QTime, the slowest shard's time in each stage, how many terms the
# coordinator asked the shards to refine (the `FIELD__terms=a,b,c` lists of the REFINE_FACETS
# shard requests, summed over shards) and the slowest refinement request's QTime.
# Usage: docs/bench/facet-refinement.py BASE_URL QUERIES_FILE N > track.jsonl
# (BASE_URL such as http://10.201.0.2:8983/solr; the collection is `docs`.)
import json, sys, urllib.request, re, time
base = sys.argv[1]; qfile = sys.argv[2]; n = int(sys.argv[3]); extra = sys.argv[4] if len(sys.argv) > 4 else ''
lines = [l.strip() for l in open(qfile) if l.strip() and not l.startswith('#')]
step = max(1, len(lines) // n)
for l in lines[::step][:n]:
    t0 = time.time()
    r = json.load(urllib.request.urlopen(base + '/docs/select?' + l + '&debug=track&wt=json' + extra))
    wall = (time.time() - t0) * 1000
    tr = r['debug']['track']
    hits = r['response']['numFound']
    stages = {}
    refined = 0
    refine_ms = []
    for st, v in tr.items():
        if not isinstance(v, dict): continue
        for shard, info in v.items():
            purpose = info.get('RequestPurpose', '')
            if 'REFINE' in purpose:
                resp = info.get('Response', '')
                # refinement asks for terms: facet.field={!terms=$author_s__terms}author_s, author_s__terms=a,b,c
                cnt = 0
                for mm in re.finditer(r'_terms=\[?([^\]=]*?)\]?, (?=[a-zA-Z._]+=)', resp):
                    cnt += len(mm.group(1).split(','))
                refined += cnt
                refine_ms.append(int(info.get('QTime', 0)))
            stages.setdefault(st, []).append(int(info.get('QTime', 0)))
    print(json.dumps({'hits': hits, 'wall_ms': round(wall), 'qtime': r['responseHeader']['QTime'],
                      'stages': {k: max(v) for k, v in stages.items()}, 'refined_terms': refined,
                      'refine_qtime_max': max(refine_ms) if refine_ms else None}))
