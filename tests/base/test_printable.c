/* tests/base/test_printable.c: printable_text (src/base/util.c), which every text
 * read from a results file or given by a plugin passes through before a
 * terminal or a report: control bytes, DEL, C1 controls raw and in UTF-8,
 * and bytes that are not UTF-8 become escapes; UTF-8 text stays. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "base/util.h"

static void check(const char *in, const char *want, const char *name)
{
    char *got = printable_text(in);
    is_str(got, want, "%s", name);
    free(got);
}

int main(void)
{
    plan(10);
    check("plain text, 1.5 GB/s", "plain text, 1.5 GB/s", "ASCII text is kept");
    check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
          "UTF-8 text is kept");
    check("a\x1b[31mred\x1b[0m", "a\\x1b[31mred\\x1b[0m", "ESC sequences are escaped");
    check("a\nb\tc\rd", "a\\nb\\tc\\rd", "line breaks and tabs as \\n \\t \\r");
    check("del\x7f bel\x07", "del\\x7f bel\\x07", "DEL and BEL escaped");
    check("csi\x9b" "2J", "csi\\x9b2J", "a raw C1 control (0x9b, CSI) escaped");
    check("csi\xc2\x9b" "2J", "csi\\xc2\\x9b2J", "U+009B in UTF-8 escaped");
    check("\xc0\xaf \xed\xa0\x80 \xe2\x82", "\\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82",
          "overlong, surrogate and cut sequences escaped byte by byte");
    check(NULL, "", "NULL is the empty text");
    check("\xc2\xa0nbsp", "\xc2\xa0nbsp", "U+00A0 (not a control) is kept");
    return done();
}
