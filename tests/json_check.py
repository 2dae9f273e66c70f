#!/usr/bin/env python3
"""Parses uncore's -j output with Python's json module.

    json_check.py doc   < TEXT   the text is exactly one JSON document
    json_check.py lines < TEXT   JSON Lines (-I runs, records with intervals): every non-empty
                                 line is one object; all but the last are intervals (they have
                                 "interval"), the last is the run's one final object (it has not)

Exits 0 when it parses, else prints why on one line and exits 1.
"""
import json
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "doc"
text = sys.stdin.read()
try:
    if mode == "lines":
        lines = [l for l in text.splitlines() if l.strip()]
        if not lines:
            raise ValueError("no JSON lines at all")
        for n, line in enumerate(lines, 1):
            try:
                obj = json.loads(line)
            except ValueError as e:
                raise ValueError("line %d: %s" % (n, e))
            if not isinstance(obj, dict):
                raise ValueError("line %d is not an object" % n)
            if ("interval" in obj) != (n < len(lines)):
                raise ValueError("line %d: %s" % (n, "an interval object after the final one" if n == len(lines)
                                                   else "a second final object before the last line"))
    else:
        json.loads(text)
except ValueError as e:
    print("not valid JSON (%s): %s" % (mode, e))
    sys.exit(1)
