/* tests/base/test_printable.c: printable_text (src/base/util.c), which every text
 * read from a results file or given by a plugin passes through before a
 * terminal or a report: control bytes, DEL, C1 controls raw and in UTF-8,
 * Unicode's direction controls (each of the twelve, and their neighbours
 * kept) and bytes that are not UTF-8 become escapes; UTF-8 text stays. */
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
    plan(16);
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
    /* "Trojan Source": U+202E shows "txt.exe" as "exe.txt" */
    check("evil\xe2\x80\xaetxt.exe", "evil\\xe2\\x80\\xaetxt.exe",
          "U+202E (right-to-left override) escaped byte by byte");
    check("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
          "\\xe2\\x80\\xaa\\xe2\\x80\\xab\\xe2\\x80\\xac\\xe2\\x80\\xad",
          "U+202A-U+202D (embeddings, pop, left-to-right override) escaped");
    check("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9",
          "\\xe2\\x81\\xa6\\xe2\\x81\\xa7\\xe2\\x81\\xa8\\xe2\\x81\\xa9",
          "U+2066-U+2069 (isolates) escaped");
    check("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\xe2\\x80\\x8e\\xe2\\x80\\x8f\\xd8\\x9c",
          "U+200E, U+200F (marks) and U+061C (Arabic letter mark) escaped");
    check("\xe2\x80\xa9 \xe2\x80\xaf \xe2\x81\xa5 \xe2\x81\xaa \xe2\x80\x8d \xd8\x9b",
          "\xe2\x80\xa9 \xe2\x80\xaf \xe2\x81\xa5 \xe2\x81\xaa \xe2\x80\x8d \xd8\x9b",
          "their neighbours (U+2029, U+202F, U+2065, U+206A, U+200D, U+061B) are kept");
    check("\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d",
          "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7 \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d",
          "right-to-left text itself (Arabic, Hebrew) is kept");
    return done();
}
