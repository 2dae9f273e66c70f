#!/usr/bin/env python3
"""Checks what a lab-mode boot left, on the host (tests/qemu/boot-tests.sh).

  lab_check.py junit FILE CASES FAILURES ERRORS
      FILE loads as JUnit XML: one <testsuite> with the attributes the JUnit
      schema requires (name tests failures errors time; testcase: name
      classname time; failure/error: message type; property: name value), its
      counts agreeing with its <testcase>s, and CASES, FAILURES, ERRORS as given.
  lab_check.py agree SERIAL RESULTS_JSON JUNIT
      results.json parses and agrees with the serial log's UNCORE-LAB lines:
      the same cases in order, results, measurements, and END's counts; each
      measured case's <testcase> in JUNIT has the figure in a <property>
      and in its <system-out>.

Prints the first problem found and exits 1; exits 0 when all is well.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def fail(why):
    print(why)
    sys.exit(1)


def need(elem, attrs, what):
    for a in attrs:
        if elem.get(a) is None:
            fail(f"{what} has no {a} attribute (the JUnit schema requires it)")


def junit(path, cases, failures, errors):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        fail(f"{path}: not XML: {e}")
    suite = root
    if root.tag == "testsuites":
        found = root.findall("testsuite")
        if len(found) != 1:
            fail(f"{len(found)} <testsuite> elements, expected 1")
        suite = found[0]
    if suite.tag != "testsuite":
        fail(f"root element <{root.tag}>, expected <testsuite>")
    need(suite, ("name", "tests", "failures", "errors", "time"), "<testsuite>")
    for p in suite.iter("property"):
        need(p, ("name", "value"), "<property>")
    tcs = suite.findall("testcase")
    nf = ne = 0
    for tc in tcs:
        need(tc, ("name", "classname", "time"), "<testcase>")
        float(tc.get("time"))
        for kind in ("failure", "error"):
            for e in tc.findall(kind):
                need(e, ("message", "type"), f"<{kind}> of {tc.get('name')}")
        nf += len(tc.findall("failure"))
        ne += len(tc.findall("error"))
    for attr, n in (("tests", len(tcs)), ("failures", nf), ("errors", ne)):
        if int(suite.get(attr)) != n:
            fail(f"<testsuite {attr}=\"{suite.get(attr)}\"> but {n} counted")
    for attr, n in (("tests", cases), ("failures", failures), ("errors", errors)):
        if int(suite.get(attr)) != int(n):
            fail(f"<testsuite {attr}=\"{suite.get(attr)}\">, expected {n}")
    float(suite.get("time"))


RESULT = re.compile(r"^UNCORE-LAB RESULT name=(\S+) result=(pass|fail|error)"
                    r"(?: measurement=([0-9.]+) units=MB/s)?$")
END = re.compile(r"^UNCORE-LAB END result=(pass|fail) passed=([0-9]+) failed=([0-9]+)$")


def agree(serial, results, junit_path):
    lines = open(serial, errors="replace").read().splitlines()
    got = [m.groups() for m in map(RESULT.match, lines) if m]
    ends = [m.groups() for m in map(END.match, lines) if m]
    if len(ends) != 1:
        fail(f"{len(ends)} UNCORE-LAB END lines in the serial log, expected 1")
    try:
        doc = json.load(open(results))
    except (ValueError, OSError) as e:
        fail(f"{results}: not JSON: {e}")
    cases = doc.get("cases")
    if not isinstance(cases, list):
        fail("results.json has no cases list")
    if len(cases) != len(got):
        fail(f"results.json has {len(cases)} cases, the serial log {len(got)} RESULT lines")
    for c, (name, result, mb) in zip(cases, got):
        if c.get("id") != name or c.get("result") != result:
            fail(f"results.json case {c.get('id')} {c.get('result')}, serial {name} {result}")
        want = None if mb is None else float(mb)
        have = c.get("measured_mb_per_s")
        if (want is None) != (have is None) or (want is not None and abs(float(have) - want) > 0.0005):
            fail(f"case {name}: results.json measured {have}, serial {mb}")
    tcs = list(ET.parse(junit_path).getroot().iter("testcase"))
    if len(tcs) != len(got):
        fail(f"junit.xml has {len(tcs)} testcases, the serial log {len(got)} RESULT lines")
    for tc, (name, _, mb) in zip(tcs, got):
        if mb is None:
            continue
        if not any(p.get("value") == mb for p in tc.iter("property")):
            fail(f"testcase {tc.get('name')}: no <property> with value {mb} (the RESULT line's measurement)")
        out = tc.find("system-out")
        if out is None or mb not in (out.text or ""):
            fail(f"testcase {tc.get('name')}: {mb} is not in its <system-out>")
    result, passed, failed = ends[0]
    if (doc.get("result"), doc.get("passed"), doc.get("failed")) != (result, int(passed), int(failed)):
        fail(f"results.json says {doc.get('result')} passed={doc.get('passed')} failed={doc.get('failed')}, "
             f"serial END {result} passed={passed} failed={failed}")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "junit":
        junit(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "agree":
        agree(*sys.argv[2:])
    else:
        fail(__doc__)
