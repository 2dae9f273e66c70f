#!/usr/bin/env python3
"""Checks an HTML page of uncore_decode --html (drivers/output/report_html.c) with Python's html.parser.

    html_check.py [--points N] [--outline] [--values] FILE

- every tag is closed in order (void elements and <x/> excepted), nothing is left open;
- self-contained: no script, link, img, iframe, object or embed; no src attribute;
  every href is "#ID" naming an id on the page;
- every chart (an svg with data-ymax and data-plot): each polyline has as many points as
  data-values has figures (a "-" is an interval the event did not count in: no point), the
  points go left to right, and each point's height is its figure on the axis (within 0.1 px);
- --points N: there is a polyline and each has exactly N points;
- --outline: prints the headings and SVG elements, indented by level;
- --values: prints "SERIES: FIGURE FIGURE ..." per polyline (data-values as written).

Exits 0 when all holds, else prints why on one line and exits 1.
"""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "wbr", "area", "base", "col", "embed", "img", "input", "link", "source", "track"}
FORBIDDEN = {"script", "link", "img", "iframe", "object", "embed", "audio", "video"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.hrefs = [], [], set(), []
        self.polylines, self.outline, self.svg, self.heading = [], [], None, None

    def fail(self, why):
        self.errors.append("line %d: %s" % (self.getpos()[0], why))

    def element(self, tag, attrs, closes):
        a = dict(attrs)
        if tag in FORBIDDEN:
            self.fail("<%s> on a self-contained page" % tag)
        if "src" in a:
            self.fail("src= on <%s>" % tag)
        if "id" in a:
            self.ids.add(a["id"])
        if "href" in a:
            self.hrefs.append((self.getpos()[0], a["href"]))
        if tag == "svg":
            self.svg = a
            self.outline.append("  " * len(self.stack) + "svg data-ymax=%s" % a.get("data-ymax"))
        elif tag == "polyline":
            pts = a.get("points", "").split()
            self.polylines.append((a, self.svg, self.getpos()[0]))
            self.outline.append("  " * len(self.stack) + "polyline %s: %d points" % (a.get("data-series"), len(pts)))
        elif tag == "line" and self.svg is not None and a.get("class") in ("required", "peak"):
            self.outline.append("  " * len(self.stack) + "line %s at %s" % (a["class"], a.get("data-value")))
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heading = [tag, ""]
        if not closes and tag not in VOID:
            self.stack.append(tag)

    def handle_starttag(self, tag, attrs):
        self.element(tag, attrs, False)

    def handle_startendtag(self, tag, attrs):
        self.element(tag, attrs, True)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.fail("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()
        if tag == "svg":
            self.svg = None
        if self.heading and tag == self.heading[0]:
            self.outline.append("%s%s %s" % ("  " * (int(tag[1]) - 1), tag, self.heading[1].strip()))
            self.heading = None

    def handle_data(self, data):
        if self.heading:
            self.heading[1] += data


def check_chart(poly, svg, line):
    why = []
    if not svg or "data-ymax" not in svg or "data-plot" not in svg:
        return ["line %d: a polyline outside a chart" % line]
    ymax = float(svg["data-ymax"])
    left, top, right, bottom = (float(v) for v in svg["data-plot"].split())
    values = poly.get("data-values", "").split()
    figures = [float(v) for v in values if v != "-"]
    points = [tuple(float(c) for c in p.split(",")) for p in poly.get("points", "").split()]
    name = poly.get("data-series")
    if len(figures) != len(points):
        why.append("line %d: %s has %d figures but %d points" % (line, name, len(figures), len(points)))
    for (x, y), v in zip(points, figures):
        want = bottom - min(v, ymax) / ymax * (bottom - top)
        if abs(y - want) > 0.1 + 1e-9:
            why.append("line %d: %s: %s plotted at y %s, the axis puts it at %.2f" % (line, name, v, y, want))
            break
        if not left <= x <= right:
            why.append("line %d: %s: x %s outside the plot" % (line, name, x))
            break
    if any(b[0] < a[0] for a, b in zip(points, points[1:])):
        why.append("line %d: %s goes back in time" % (line, name))
    return why


def main(argv):
    points, outline, values, path = None, False, False, None
    args = iter(argv)
    for a in args:
        if a == "--points":
            points = int(next(args))
        elif a == "--outline":
            outline = True
        elif a == "--values":
            values = True
        else:
            path = a
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    p.close()
    errors = p.errors
    if p.stack:
        errors.append("left open at the end: %s" % " ".join("<%s>" % t for t in p.stack))
    if not text.startswith("<!DOCTYPE html>"):
        errors.append("no <!DOCTYPE html> first")
    for line, href in p.hrefs:
        if not href.startswith("#") or href[1:] not in p.ids:
            errors.append("line %d: href %s is not an id on the page" % (line, href))
    for poly, svg, line in p.polylines:
        errors += check_chart(poly, svg, line)
        n = len(poly.get("points", "").split())
        if points is not None and n != points:
            errors.append("line %d: %s has %d points, expected %d" % (line, poly.get("data-series"), n, points))
    if points is not None and not p.polylines:
        errors.append("no polyline at all, expected %d points each" % points)
    if errors:
        print("; ".join(errors[:5]))
        return 1
    if outline:
        print("\n".join(p.outline))
    if values:
        for poly, _, _ in p.polylines:
            print("%s: %s" % (poly.get("data-series"), poly.get("data-values")))
    return 0


sys.exit(main(sys.argv[1:]))
