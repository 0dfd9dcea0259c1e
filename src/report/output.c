/* src/report/output.c: what every report writer shares (report/output.h). */
#include "report/output.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

size_t display_width(const char *s)
{
    size_t width = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            width++;
    return width;
}

char *one_line(const char *text)
{
    char *spaced = xstrdup(text ? text : "");
    for (char *p = spaced; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    char *shown = printable_text(spaced);
    free(spaced);
    return shown;
}

void csv_field(FILE *out, const char *text, int first)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    char *shown = one_line(text);
    int quote = strpbrk(shown, ",\"") != NULL;
    if (quote)
        fputc('"', out);
    for (const char *p = shown; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    if (quote)
        fputc('"', out);
    free(shown);
}

void md_text(FILE *out, const char *text)
{
    char *shown = one_line(text);
    for (const char *p = shown; *p; p++) {
        if (strchr("|\\`*<", *p))
            fputc('\\', out);
        fputc(*p, out);
    }
    free(shown);
}

size_t md_longest_backtick_run(const char *text)
{
    size_t longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

void md_backticks(FILE *out, size_t count)
{
    for (size_t k = 0; k < count; k++)
        fputc('`', out);
}

void md_code_span(FILE *out, const char *text)
{
    char *shown = one_line(text);
    size_t ticks = md_longest_backtick_run(shown) + 1;
    md_backticks(out, ticks);
    fputc(' ', out);
    fputs(shown, out);
    fputc(' ', out);
    md_backticks(out, ticks);
    free(shown);
}

void json_member_string(json_writer *w, const char *key, const char *value)
{
    jw_key(w, key);
    jw_string(w, value);
}

void json_member_number(json_writer *w, const char *key, double value)
{
    jw_key(w, key);
    jw_double(w, value);
}

void json_member_int(json_writer *w, const char *key, int64_t value)
{
    jw_key(w, key);
    jw_int(w, value);
}

void json_member_uint(json_writer *w, const char *key, uint64_t value)
{
    jw_key(w, key);
    jw_uint(w, value);
}

void json_member_bool(json_writer *w, const char *key, int value)
{
    jw_key(w, key);
    jw_bool(w, value);
}
