#!/usr/bin/env python3
"""The push boot's check: a group the Pushgateway holds (its /api/v1/metrics
answer, API.json) against what the console printed for the same run.
Usage: push_check.py API.json STEP_OUTPUT LABEL=VALUE... ; prints each
difference and exits 1 on any. Compared exactly, at the console's precision:
each MB/s figure (read, write, total, 3 decimals), the elapsed seconds (9
decimals), the read and write line counts, and the exit status 0."""
import json, re, sys

api, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
want = dict(a.split("=", 1) for a in sys.argv[3:])
groups = [g for g in api["data"] if {k: g["labels"].get(k) for k in want} == want]
if len(groups) != 1:
    sys.exit("%d groups with labels %s, want 1" % (len(groups), want))
g, bad = groups[0], []


def values(name, **labels):
    fam = g.get(name) or {"metrics": []}
    return [float(m["value"]) for m in fam["metrics"]
            if all(m["labels"].get(k) == v for k, v in labels.items())]


def same(what, got, printed):
    if got != [printed]:
        bad.append("%s: pushed %s, console printed %s" % (what, got, printed))


for d in ("read", "write", "total"):
    m = re.search(r"^%s +([0-9]+\.[0-9]{3}) MB/s .* ([0-9]+) lines$" % d, out, re.M)
    if not m:
        bad.append("no %s line on the console" % d)
        continue
    v = values("uncore_dram_%s_bytes_per_second" % d)
    same(d + " MB/s", ["%.3f" % (x / 1e6) for x in v], m.group(1))
    if d != "total":
        ev = "DRAM_DATA_READS" if d == "read" else "DRAM_DATA_WRITES"
        same(d + " lines", ["%d" % x for x in values("uncore_event_counted", event=ev)], m.group(2))
m = re.search(r"^elapsed: ([0-9]+\.[0-9]{9}) s measured", out, re.M)
same("elapsed s", ["%.9f" % x for x in values("uncore_elapsed_seconds")], m.group(1) if m else None)
same("exit status", ["%d" % x for x in values("uncore_exit_status")], "0")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
