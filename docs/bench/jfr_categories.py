#!/usr/bin/env python3
"""Where a Solr node's CPU went: JFR execution samples (`jfr print --json --events
jdk.ExecutionSample`) sorted into kinds of work by the first matching frame group, top of the
stack first. Usage: jfr_categories.py SAMPLES.json... Prints one line per kind: samples, share.
--between FROM TO keeps the samples taken in that interval (UTC, as `date -u +%Y-%m-%dT%H:%M:%S.%NZ`
prints it): JFR dumps whole chunks, which may reach outside the interval asked for."""
import collections
import json
import sys

KINDS = [  # first match wins; order matters (a tlog write is also inside the update processors)
    ("merging segments", ["SegmentMerger", "ConcurrentMergeScheduler$MergeThread"]),
    ("update log (tlog writes)", ["org.apache.solr.update.TransactionLog", "org.apache.solr.update.UpdateLog"]),
    ("forwarding to other nodes", ["SolrCmdDistributor", "StreamingSolrClients",
                                   "ConcurrentUpdateHttp2SolrClient", "org.apache.solr.client.solrj.impl.Http2SolrClient"]),
    ("Lucene indexing (analysis, postings, doc values, stored fields)", ["org.apache.lucene."]),
    ("Solr document building (schema, copyFields)", ["DocumentBuilder", "org.apache.solr.schema."]),
    ("request parsing: XML", ["XMLLoader", "com.ctc.wstx", "javax.xml", "com.sun.org.apache.xerces"]),
    ("request parsing: javabin", ["JavaBinCodec", "JavaBinUpdateRequestCodec", "JavabinLoader"]),
    ("update processor chain", ["org.apache.solr.update.processor."]),
    ("HTTP (Jetty)", ["org.eclipse.jetty."]),
]


def kind(frames):
    stack = " ".join(frames)
    for name, keys in KINDS:
        if any(k in stack for k in keys):
            return name
    return "other"


def main(args):
    between = None
    if args[:1] == ["--between"]:
        between, args = (args[1], args[2]), args[3:]
    counts = collections.Counter()
    for path in args:
        with open(path) as f:
            events = json.load(f)["recording"]["events"]
        for e in events:
            if between and not between[0] <= e["values"]["startTime"] <= between[1]:
                continue
            frames = [fr["method"]["type"]["name"].replace("/", ".") + "." + fr["method"]["name"]
                      for fr in e["values"]["stackTrace"]["frames"]]
            counts[kind(frames)] += 1
    total = sum(counts.values()) or 1
    for name, n in counts.most_common():
        print(f"  {name:66s} {n:6d} {100 * n / total:5.1f} %")
    print(f"  {'samples':66s} {total:6d}")


if __name__ == "__main__":
    main(sys.argv[1:])
