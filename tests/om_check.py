#!/usr/bin/python3
"""Checks uncore's OpenMetrics text (uncore_decode --openmetrics, -o metrics:PATH) three ways.

    om_check.py FILE

1. the strict OpenMetrics parser (prometheus_client.openmetrics.parser: # EOF last, every
   family's metadata before its samples, label values escaped, names with their unit);
2. Prometheus' own exposition-format parser (prometheus_client.parser), which must give
   the same samples, name, labels and value each: the text means the same to both;
3. `promtool check metrics` (the Prometheus server's parser and its linter).

Debian's python3-prometheus-client and prometheus packages (tests/deps.sh). Exits 0 when all
three accept it, else prints why on one line and exits 1.
"""
import subprocess
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as prom_parse


def samples(families):
    return sorted((s.name, tuple(sorted(s.labels.items())), s.value) for f in families for s in f.samples)


text = open(sys.argv[1]).read()
try:
    strict = samples(om_parse(text))
except Exception as e:  # the parser raises ValueError and others
    print("OpenMetrics parser: %s" % e)
    sys.exit(1)
prom = samples(prom_parse(text))
if strict != prom:
    diff = sorted(set(strict) ^ set(prom))
    print("the two parsers differ in %d samples, first %s" % (len(diff), diff[0] if diff else "(order)"))
    sys.exit(1)
if not strict:
    print("no samples at all")
    sys.exit(1)
p = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True)
if p.returncode != 0:
    print("promtool check metrics: %s" % " ".join((p.stdout + p.stderr).split()))
    sys.exit(1)
