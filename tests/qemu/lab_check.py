#!/usr/bin/env python3
"""Checks what a lab-mode boot left, on the host (tests/qemu/boot-tests.sh).

  lab_check.py junit FILE CASES FAILURES ERRORS
      FILE follows the rules of Jenkins' JUnit schema (junit-10.xsd: which
      element may hold which, the attributes required and allowed, the time
      format), is one <testsuite> whose <testcase>s have a classname and time
      and whose failures and errors a message and type, its counts agreeing
      with its <testcase>s, and CASES, FAILURES, ERRORS as given.
  lab_check.py agree SERIAL RESULTS_JSON JUNIT
      results.json parses and agrees with the serial log's UNCORE-LAB lines:
      the same cases in order, results, measurements, and END's counts; each
      measured case has the figure in JUNIT's <property name="ID.measurement">
      (with ID.units) and in its <testcase>'s <system-out>.
  lab_check.py files DIR
      Every results.json under DIR parses as one JSON document (strict: no
      NaN or Infinity) and every junit.xml follows the rules of junit-10.xsd.
  lab_check.py lava DOC SERIAL_LOG
      The raw serial log (as the wire carried it: CRs, escape sequences)
      replayed through LAVA's test monitor as lava-dispatcher runs it
      (actions/test/monitor.py): pexpect (maxread 2000, searchwindowsize
      4000) reading it in small chunks, the monitor block of DOC's (drivers/lab/lab.md)
      LAVA example (start, end, pattern, fixupdict), each match made a
      result the way the monitor makes one. Every UNCORE-LAB RESULT line
      gives one result, with its id kept as it is (unique in the run), its
      result, its measurement and units; units is never None.

Prints the first problem found and exits 1; exits 0 when all is well.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def fail(why):
    print(why)
    sys.exit(1)


# The rules of Jenkins' JUnit schema (xunit-plugin, junit-10.xsd), typed
# from it: per element, the child elements allowed (None: text only, no
# child element; () with text=False: nothing at all), whether text may
# stand between children, and the attributes required and allowed. No
# attribute the schema does not declare is allowed.
TEXT_ONLY = None
RULES = {
    "testsuites": (("testsuite",), False, (), ("name", "time", "tests", "failures", "errors")),
    "testsuite": (("testsuite", "properties", "testcase", "system-out", "system-err"), False,
                  ("name", "tests", "failures", "errors"),
                  ("group", "time", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url")),
    "properties": (("property",), False, (), ()),
    "property": ((), False, ("name", "value"), ()),
    "testcase": (("skipped", "error", "failure", "rerunFailure", "rerunError", "flakyFailure", "flakyError",
                  "system-out", "system-err"), False, ("name",), ("time", "classname", "group")),
    "failure": (TEXT_ONLY, True, (), ("type", "message")),
    "error": (TEXT_ONLY, True, (), ("type", "message")),
    "skipped": (TEXT_ONLY, True, (), ("type", "message")),
    "system-out": (TEXT_ONLY, True, (), ()),
    "system-err": (TEXT_ONLY, True, (), ()),
    "stackTrace": (TEXT_ONLY, True, (), ()),
    **{k: (("stackTrace", "system-out", "system-err"), True, ("type",), ("message",))
       for k in ("rerunFailure", "rerunError", "flakyFailure", "flakyError")},
}
SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?")


def schema_check(elem, where):
    """Fails at the first place elem breaks the rules of junit-10.xsd."""
    tag = elem.tag
    if tag not in RULES:
        fail(f"{where}: <{tag}> is not an element of the JUnit schema (junit-10.xsd)")
    children, text, required, allowed = RULES[tag]
    here = f"{where}/{tag}" + (f"[{elem.get('name')}]" if elem.get("name") else "")
    for a in required:
        if elem.get(a) is None:
            fail(f"{here} has no {a} attribute (junit-10.xsd requires it)")
    for a in elem.attrib:
        if a not in required and a not in allowed:
            fail(f"{here} has a {a} attribute (junit-10.xsd does not allow it)")
    if tag in ("testsuite", "testsuites") and elem.get("time") is not None \
            and not SUREFIRE_TIME.fullmatch(elem.get("time")):
        fail(f"{here} time=\"{elem.get('time')}\" is not a SUREFIRE_TIME")
    if not text:
        for t in [elem.text] + [c.tail for c in elem]:
            if t and t.strip():
                fail(f"{here} holds text {t.strip()[:40]!r} (junit-10.xsd allows only elements there)")
    for c in elem:
        if children is TEXT_ONLY or c.tag not in children:
            fail(f"{here} holds a <{c.tag}> (junit-10.xsd does not allow it there)")
        schema_check(c, here)
    if tag.startswith(("rerun", "flaky")):  # a sequence: each at most once, in order
        order = [RULES[tag][0].index(c.tag) for c in elem]
        if order != sorted(set(order)):
            fail(f"{here}: its children are not stackTrace, system-out, system-err in that order, once each")


def need(elem, attrs, what):
    for a in attrs:
        if elem.get(a) is None:
            fail(f"{what} has no {a} attribute (the JUnit schema requires it)")


def junit(path, cases, failures, errors):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        fail(f"{path}: not XML: {e}")
    if root.tag not in ("testsuite", "testsuites"):
        fail(f"root element <{root.tag}>, expected <testsuite>")
    schema_check(root, "")
    suite = root
    if root.tag == "testsuites":
        found = root.findall("testsuite")
        if len(found) != 1:
            fail(f"{len(found)} <testsuite> elements, expected 1")
        suite = found[0]
    need(suite, ("time",), "<testsuite>")
    tcs = suite.findall("testcase")
    nf = ne = 0
    for tc in tcs:
        need(tc, ("classname", "time"), "<testcase>")
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
    doc = strict_json(results)
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
    props = {p.get("name"): p.get("value") for p in ET.parse(junit_path).getroot().iter("property")}
    for tc, (name, _, mb) in zip(tcs, got):
        if tc.get("name") != name:
            fail(f"junit.xml testcase {tc.get('name')}, serial {name}")
        if mb is None:
            continue
        if props.get(f"{name}.measurement") != mb or props.get(f"{name}.units") != "MB/s":
            fail(f"junit.xml: no <property name=\"{name}.measurement\" value=\"{mb}\"> with its units")
        out = tc.find("system-out")
        if out is None or mb not in (out.text or ""):
            fail(f"testcase {tc.get('name')}: {mb} is not in its <system-out>")
    result, passed, failed = ends[0]
    if (doc.get("result"), doc.get("passed"), doc.get("failed")) != (result, int(passed), int(failed)):
        fail(f"results.json says {doc.get('result')} passed={doc.get('passed')} failed={doc.get('failed')}, "
             f"serial END {result} passed={passed} failed={failed}")


def strict_json(path):
    def bad(word):
        raise ValueError(f"{word} is not JSON")
    try:
        return json.load(open(path), parse_constant=bad)
    except (ValueError, OSError) as e:
        fail(f"{path}: not JSON: {e}")


def files(top):
    import os
    n = 0
    for d, _, names in sorted(os.walk(top)):
        for name in names:
            path = os.path.join(d, name)
            if name == "results.json":
                strict_json(path)
                n += 1
            elif name == "junit.xml":
                try:
                    schema_check(ET.parse(path).getroot(), "")
                except ET.ParseError as e:
                    fail(f"{path}: not XML: {e}")
                n += 1
    print(f"{n} results.json and junit.xml files checked")


def readme_monitor(readme):
    """The start, end and pattern strings and the fixupdict of the doc's
    LAVA monitor example (YAML single-quoted: '' is one quote)."""
    text = open(readme).read()
    block = text[text.index("A LAVA test monitor"):]
    block = block[block.index("```yaml"):]
    block = block[:block.index("```", 7)]
    mon = {}
    for key in ("start", "end", "pattern"):
        m = re.search(rf"^ *{key}: '((?:[^']|'')*)'$", block, re.M)
        if not m:
            fail(f"the doc's LAVA monitor has no {key}")
        mon[key] = m.group(1).replace("''", "'")
    fix = re.search(r"^ *fixupdict:\n((?: +\w+: \w+\n)+)", block, re.M)
    mon["fixupdict"] = dict(re.findall(r"(\w+): (\w+)", fix.group(1))) if fix else {}
    return mon


def lava_replay(data, mon, chunks):
    """LAVA's monitor over data read in pieces of the sizes in chunks (in
    turn): the results it would log."""
    import pexpect
    from pexpect.spawnbase import SpawnBase

    class Replay(SpawnBase):
        def __init__(self):
            super().__init__(timeout=5, maxread=2000, searchwindowsize=4000, encoding="utf-8",
                             codec_errors="replace")
            self.at = 0
            self.k = 0
            self.delayafterread = None

        def read_nonblocking(self, size=1, timeout=None):
            if self.at >= len(data):
                self.flag_eof = True
                raise pexpect.EOF("end of the log")
            n = min(size, chunks[self.k % len(chunks)])
            self.k += 1
            piece = data[self.at:self.at + n]
            self.at += n
            return self._decoder.decode(piece, final=False)

    conn = Replay()
    conn.expect(mon["start"])
    results = []
    patterns = [pexpect.EOF, pexpect.TIMEOUT, mon["end"], mon["pattern"]]
    while True:
        i = conn.expect(patterns)
        if i in (0, 1):
            fail(f"LAVA's monitor (chunks {chunks}): {'end of file' if i == 0 else 'timeout'} before the end string")
        if i == 2:
            return results
        match = conn.match.groupdict()
        result = mon["fixupdict"].get(match["result"], match["result"])
        if result not in ("pass", "fail", "skip", "unknown"):
            fail(f"LAVA's monitor: bad test result {result!r}")
        case = re.sub(r"\W+", "_", match["test_case_id"].strip().lower())
        r = {"case": case, "result": result}
        for key in ("measurement", "units"):
            if key in match:
                r[key] = match[key]
        results.append((match["test_case_id"], r))


def lava(readme, serial):
    mon = readme_monitor(readme)
    data = open(serial, "rb").read()
    text = re.sub(r"\x1b\[[0-9;?=]*[A-Za-z]", "", data.decode("utf-8", "replace")).replace("\r", "")
    want = [m.groups() for m in map(RESULT.match, text.splitlines()) if m]
    fix = mon["fixupdict"]
    for chunks in ((1,), (3,), (7,), (5, 1, 13, 2, 64), (2000,)):
        got = lava_replay(data, mon, chunks)
        if len(got) != len(want):
            fail(f"LAVA's monitor (chunks {chunks}) logged {len(got)} results; the log has {len(want)} RESULT lines")
        seen = set()
        for (raw, r), (name, result, mb) in zip(got, want):
            exp = {"case": name, "result": fix.get(result, result), "measurement": mb, "units": "MB/s" if mb else ""}
            if r != exp:
                fail(f"LAVA's monitor (chunks {chunks}) logged {r} for the line of {name}; expected {exp}")
            if raw != r["case"]:
                fail(f"LAVA rewrote the id {raw!r} as {r['case']!r}")
            if r["case"] in seen:
                fail(f"two cases with the id {r['case']}")
            seen.add(r["case"])
    print(f"LAVA's monitor: {len(want)} results, each with its id, result, measurement and units, "
          f"in 5 chunkings")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "junit":
        junit(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "agree":
        agree(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "files":
        files(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "lava":
        lava(*sys.argv[2:])
    else:
        fail(__doc__)
