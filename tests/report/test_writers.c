/* tests/report/test_writers.c: the writers every report shares
 * (report/output.c) on hostile text: CSV cells a spreadsheet would take
 * for a formula, Markdown links, images, raw HTML and autolinks, control
 * characters in a fenced block, a fence that the text's backticks would
 * close, and which experiment settings were asked for. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/output.h"
#include "tap.h"

/* What a writer wrote for text, as a new string. */
static char *written(void (*writer)(FILE *, const char *), const char *text)
{
    char *data = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&data, &len);
    writer(out, text);
    fclose(out);
    return data;
}

static void csv_text(FILE *out, const char *text) { csv_field(out, text, 1); }
static void csv_number(FILE *out, const char *text) { csv_number_field(out, text, 1); }

static void check(void (*writer)(FILE *, const char *), const char *in, const char *want,
                  const char *name)
{
    char *got = written(writer, in);
    is_str(got, want, "%s", name);
    free(got);
}

/* Whether the writer's text for `in` holds `part`. */
static int holds(void (*writer)(FILE *, const char *), const char *in, const char *part)
{
    char *got = written(writer, in);
    int found = strstr(got, part) != NULL;
    if (!found)
        diag("'%s' not in '%s'", part, got);
    free(got);
    return found;
}

static void fence_lines(FILE *out, const char *text) { md_lines(out, text); }

int main(void)
{
    plan(33);

    /* CSV: formulas neutralised, inside the quotes */
    check(csv_text, "=1+1", "\"'=1+1\"", "csv: = starts a formula: a quote inside the quotes");
    check(csv_text, "+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\"", "csv: + neutralised");
    check(csv_text, "-2+3", "\"'-2+3\"", "csv: - followed by a formula neutralised");
    check(csv_text, "@SUM(A1:A9)", "\"'@SUM(A1:A9)\"", "csv: @ neutralised");
    check(csv_text, "\t=1+1", "\"' =1+1\"", "csv: a leading tab neutralised (and a space)");
    check(csv_text, "\r=1+1", "\"' =1+1\"", "csv: a leading CR neutralised");
    check(csv_text, "  =HYPERLINK(\"http://x\")", "\"'  =HYPERLINK(\"\"http://x\"\")\"",
          "csv: = after spaces neutralised, quotes doubled");
    check(csv_text, "\xef\xbc\x9d" "1+1", "\"'\xef\xbc\x9d" "1+1\"", "csv: a full-width = neutralised");
    check(csv_text, "=a,b", "\"'=a,b\"", "csv: with a comma, one pair of quotes");
    check(csv_text, "-12.5", "-12.5", "csv: a negative number as text is a number");
    check(csv_text, "plain text", "plain text", "csv: plain text as it is");
    check(csv_text, "a=1", "a=1", "csv: = inside a cell is no formula");
    check(csv_number, "-3.25e-05", "-3.25e-05", "csv: a number field stays a number");

    /* Markdown: strangers' syntax shown, not live */
    ok(holds(md_text, "[click](http://evil)", "\\[click\\](http\\://evil)"),
       "md: a link's brackets escaped, its :// broken");
    ok(holds(md_text, "![img](http://evil/x.png)", "\\!\\[img\\]"), "md: an image escaped");
    ok(holds(md_text, "<http://evil>", "\\<http\\://evil>"), "md: an <autolink> escaped");
    ok(holds(md_text, "<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)>"),
       "md: raw HTML escaped");
    ok(holds(md_text, "see www.evil.com", "www\\.evil.com"), "md: a bare www. autolink broken");
    ok(holds(md_text, "mail a@evil.com", "a\\@evil.com"), "md: an e-mail autolink broken");
    ok(holds(md_text, "&lt;b&gt;", "\\&lt;b\\&gt;"), "md: an entity shown as written");
    ok(holds(md_text, "a|b", "a\\|b"), "md: a pipe cannot end a table cell");
    ok(holds(md_text, "esc\x1b[2Jbel\x07 csi\x9b" "2J del\x7f",
             "esc\\\\x1b\\[2Jbel\\\\x07 csi\\\\x9b2J del\\\\x7f"),
       "md: ESC, BEL, 8-bit CSI and DEL as escapes");
    char *cell = written(md_text, "x\x1b\x07\x9b\x7f\xc2\x9by");
    ok(!strpbrk(cell, "\x1b\x07\x7f") && !strchr(cell, '\x9b'), "md: no raw control byte left");
    free(cell);

    /* the fenced block */
    check(fence_lines, "[run a]\nname = x\x1b[31m\x07\n", "[run a]\nname = x\\x1b[31m\\x07\n",
          "fence: control bytes of each line as escapes, line breaks kept");
    check(fence_lines, "a\tb\r\nc\x9b\n", "a\tb\nc\\x9b\n", "fence: tab kept, CR LF a line end, CSI escaped");
    check(fence_lines, "x\ry", "x\\ry", "fence: a lone CR escaped");
    is_int((long long)md_fence_length("no ticks"), 3, "fence: at least 3 backticks");
    is_int((long long)md_fence_length("a ````` b\n```\n"), 6, "fence: longer than any run in the text");

    /* settings asked for */
    ok(experiment_asked("[experiment]\ntiming = device\n", NULL, "timing"),
       "asked: the experiment file sets timing");
    ok(!experiment_asked("[experiment]\nname = x\n[run a]\ntiming = device\n", "redbench -c x.ini",
                         "timing"),
       "asked: not in [experiment], not on the command line: not asked");
    ok(experiment_asked("[experiment]\n", "redbench -c x.ini -D timing=launch", "timing"),
       "asked: -D timing=... on the command line");
    ok(!experiment_asked("[experiment]\n", "redbench -c graph_timing=1.ini", "timing"),
       "asked: a file name holding the word is not asking");
    ok(!experiment_asked(NULL, NULL, "timing"), "asked: nothing known, nothing asked");
    return done();
}
