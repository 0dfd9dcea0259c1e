#!/usr/bin/env python3
# tests/report/html_check.py: whether HTML pages are well-formed and inert,
# for the tests of pages that hold strangers' text:
#   - every element opened is closed, in order (the void elements aside;
#     SVG's self-closed ones too);
#   - nothing live: no script, style sheet link, frame, object, form or
#     base element, no event-handler attribute (on...), no link or source
#     but to a place in the page itself (#...);
#   - every href="#X" names an id of the page.
# Usage: html_check.py PAGE...; prints each problem, exit 1 if any.
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
LIVE = {"script", "iframe", "frame", "object", "embed", "form", "base", "link", "applet"}
URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "data", "poster"}


class Check(HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=True)
        self.path, self.stack, self.problems = path, [], []
        self.ids, self.links = set(), []

    def problem(self, text):
        line, col = self.getpos()
        self.problems.append("%s:%d:%d: %s" % (self.path, line, col + 1, text))

    def attributes(self, tag, attrs):
        if tag in LIVE:
            self.problem("a live element <%s>" % tag)
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.problem("an event handler %s= on <%s>" % (name, tag))
            if name == "id":
                self.ids.add(value)
            if name in URL_ATTRS:
                if not value.startswith("#"):
                    self.problem("a link out of the page %s=%r on <%s>" % (name, value, tag))
                else:
                    self.links.append((value[1:], self.getpos()))

    def handle_starttag(self, tag, attrs):
        self.attributes(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.attributes(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack:
            self.problem("</%s> closes nothing" % tag)
        elif self.stack[-1][0] != tag:
            self.problem("</%s> closes <%s> of line %d" % (tag, self.stack[-1][0],
                                                          self.stack[-1][1][0]))
        else:
            self.stack.pop()


def main():
    bad = 0
    for path in sys.argv[1:]:
        c = Check(path)
        with open(path, encoding="utf-8") as f:
            c.feed(f.read())
        c.close()
        for tag, (line, _) in c.stack:
            c.problems.append("%s:%d: <%s> is never closed" % (path, line, tag))
        for target, (line, _) in c.links:
            if target not in c.ids:
                c.problems.append("%s:%d: #%s names no id of the page" % (path, line, target))
        for p in c.problems[:20]:
            print(p)
        bad |= bool(c.problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
