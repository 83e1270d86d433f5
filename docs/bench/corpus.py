"""Writes the benchmark corpus: DOCS Solr XML documents, a Pareto-distributed vocabulary of 5,000
words, 60-word bodies, deterministic (seed 11). 'full' adds title, category and price fields
(docs/bench/index.sh); 'lean' keeps id, body and a number (docs/bench/heap.sh).
Usage: python3 docs/bench/corpus.py PATH DOCS full|lean"""
import random
import sys

path, n, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3]
words = [f"w{i}" for i in range(5000)]
r = random.Random(11)
with open(path, "w", encoding="utf-8") as f:
    f.write("<add>\n")
    for i in range(n):
        body = " ".join(words[int(r.paretovariate(1.1)) % 5000] for _ in range(60))
        if variant == "full":
            f.write(f'<doc><field name="id">d{i}</field><field name="title_t">document {i}</field>'
                    f'<field name="body_t">{body}</field><field name="cat_s">c{i % 50}</field>'
                    f'<field name="price_d">{r.random() * 100:.2f}</field><field name="n_i">{i}</field></doc>\n')
        else:
            f.write(f'<doc><field name="id">d{i}</field><field name="body_t">{body}</field>'
                    f'<field name="n_i">{i}</field></doc>\n')
    f.write("</add>\n")
