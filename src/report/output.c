/* src/report/output.c: what every report writer shares (report/output.h). */
#include "report/output.h"

#include <stdio_ext.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ini_text.h"
#include "base/names.h"
#include "base/util.h"

size_t display_width(const char *s)
{
    size_t width = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80)
            width++;
    return width;
}

/* Whether text is plain ASCII with no control byte: shown as it is. */
static int plain_ascii(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p >= 0x7f)
            return 0;
    return 1;
}

char *one_line(const char *text)
{
    if (text && plain_ascii(text))
        return xstrdup(text);
    char *spaced = xstrdup(text ? text : "");
    for (char *p = spaced; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    char *shown = printable_text(spaced);
    free(spaced);
    return shown;
}

/* Whether text is a plain decimal number ("-12", "+1.5e-3"): a number, not
 * a formula, in any spreadsheet. */
static int plain_number(const char *text)
{
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    size_t digits = strspn(p, "0123456789");
    p += digits;
    if (*p == '.') {
        size_t more = strspn(p + 1, "0123456789");
        digits += more;
        p += 1 + more;
    }
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        size_t exp = strspn(p, "0123456789");
        if (exp == 0)
            return 0;
        p += exp;
    }
    return *p == '\0';
}

/* Whether a spreadsheet could read the cell as a formula: it starts, after
 * any spaces (some spreadsheets trim them), with = + - @ or their
 * full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20), or with a tab or a
 * carriage return (OWASP's CSV injection guidance). */
static int formula_like(const char *raw)
{
    if (*raw == '\t' || *raw == '\r')
        return 1;
    const char *p = raw + strspn(raw, " \t\r\n");
    if (*p && strchr("=+-@", *p))
        return !plain_number(raw);
    static const char *const wide[] = {"\xef\xbc\x9d", "\xef\xbc\x8b", "\xef\xbc\x8d",
                                       "\xef\xbc\xa0"};
    for (size_t k = 0; k < RB_ARRAY_LEN(wide); k++)
        if (strncmp(p, wide[k], 3) == 0)
            return 1;
    return 0;
}

static void csv_put(FILE *out, const char *text, int first, int neutralise)
{
    if (!first)
        fputc(',', out);
    if (!text)
        return;
    char *copy = plain_ascii(text) ? NULL : one_line(text);
    const char *shown = copy ? copy : text;
    int quote = neutralise || strpbrk(shown, ",\"") != NULL;
    if (!quote) {
        fputs(shown, out);
        free(copy);
        return;
    }
    fputc('"', out);
    if (neutralise)
        fputc('\'', out);
    for (const char *p = shown; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
    free(copy);
}

int stream_unlocked(FILE *out) { return __fsetlocking(out, FSETLOCKING_BYCALLER); }

void stream_relock(FILE *out, int state) { __fsetlocking(out, state); }

void csv_field(FILE *out, const char *text, int first)
{
    csv_put(out, text, first, text && formula_like(text));
}

void csv_number_field(FILE *out, const char *number, int first)
{
    csv_put(out, number, first, 0);
}

/* Whether p starts a scheme's "://" (http://, ftp://, any scheme):
 * Markdown with autolinks makes a link of it. */
static int url_colon(const char *p) { return p[0] == ':' && p[1] == '/' && p[2] == '/'; }

/* Whether p is the '.' of "www." (an extended autolink), case aside. */
static int www_dot(const char *start, const char *p)
{
    return *p == '.' && p - start >= 3 && (p[-1] | 0x20) == 'w' && (p[-2] | 0x20) == 'w' &&
           (p[-3] | 0x20) == 'w';
}

void md_text(FILE *out, const char *text)
{
    char *shown = one_line(text);
    for (const char *p = shown; *p; p++) {
        /* Markdown's own characters, links and images ([x](y), ![x](y)),
         * raw HTML and <autolinks>, entities; and bare autolinks (a
         * scheme's ://, www., an e-mail address's @) broken by an escape,
         * so that a stranger's text is shown as it is, never live */
        if (strchr("|\\`*<[]!&@", *p) || url_colon(p) || www_dot(shown, p))
            fputc('\\', out);
        fputc(*p, out);
    }
    free(shown);
}

void md_lines(FILE *out, const char *text)
{
    const char *s = text ? text : "";
    while (*s) {
        size_t len = strcspn(s, "\n\t");
        /* a carriage return ending a line is the line's end */
        size_t keep = len > 0 && s[len] == '\n' && s[len - 1] == '\r' ? len - 1 : len;
        char *part = xstrndup(s, keep), *shown = printable_text(part);
        fputs(shown, out);
        free(shown);
        free(part);
        s += len;
        if (*s)
            fputc(*s++, out);
    }
}

size_t md_fence_length(const char *text)
{
    size_t ticks = md_longest_backtick_run(text ? text : "") + 1;
    return ticks < 3 ? 3 : ticks;
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

typedef struct asked_search {
    const char *key;
    int in_experiment, found;
} asked_search;

static void asked_section(void *user, int line, const char *name)
{
    (void)line;
    asked_search *a = user;
    a->in_experiment = strcmp(name, "experiment") == 0;
}

static void asked_key(void *user, int line, const char *key, const char *value)
{
    (void)line;
    (void)value;
    asked_search *a = user;
    if (a->in_experiment && strcmp(key, a->key) == 0)
        a->found = 1;
}

int experiment_asked(const char *text, const char *command_line, const char *key)
{
    asked_search a = {key, 0, 0};
    if (text) {
        rb_ini_text r;
        memset(&r, 0, sizeof r);
        r.user = &a;
        r.section = asked_section;
        r.key = asked_key;
        ini_text_read(&r, text, strlen(text));
    }
    if (!a.found && command_line) {
        /* "-D key=value", "-Dkey=value", "--define key=value" */
        size_t len = strlen(key);
        for (const char *p = strstr(command_line, key); p && !a.found;
             p = strstr(p + 1, key))
            a.found = (p == command_line || p[-1] == ' ' || p[-1] == 'D') && p[len] == '=';
    }
    return a.found;
}

size_t row_rounds_short(const rb_results *res, const rb_row *row)
{
    int asked = res->info.rounds;
    if (asked < 2 || row->status != RB_ROW_OK || row->n_rounds == 0 ||
        row->n_rounds >= (size_t)asked)
        return 0;
    return row->n_rounds;
}

typedef struct plugin_use {
    const rb_loaded_plugin *plugin;
    size_t first; /* the row */
} plugin_use;

static int by_plugin(const void *a, const void *b)
{
    const plugin_use *x = a, *y = b;
    if (x->plugin != y->plugin)
        return (uintptr_t)x->plugin < (uintptr_t)y->plugin ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int by_first(const void *a, const void *b)
{
    const plugin_use *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

const rb_loaded_plugin **results_plugins(const rb_results *res, size_t *count)
{
    plugin_use *uses = xcalloc(res->n_rows + 1, sizeof *uses);
    size_t n = 0;
    for (size_t k = 0; k < res->n_rows; k++)
        if (res->rows[k].config && res->rows[k].config->plugin)
            uses[n++] = (plugin_use){res->rows[k].config->plugin, k};
    qsort(uses, n, sizeof *uses, by_plugin);
    size_t distinct = 0;
    for (size_t k = 0; k < n; k++)
        if (k == 0 || uses[k].plugin != uses[k - 1].plugin)
            uses[distinct++] = uses[k];
    qsort(uses, distinct, sizeof *uses, by_first);
    const rb_loaded_plugin **plugins = xcalloc(distinct + 1, sizeof *plugins);
    for (size_t k = 0; k < distinct; k++)
        plugins[k] = uses[k].plugin;
    free(uses);
    *count = distinct;
    return plugins;
}

/* The rows being sorted (qsort has no argument for them). */
static const rb_row *sorted_rows;

static int by_outcome(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    const rb_row *p = &sorted_rows[x], *q = &sorted_rows[y];
    if (p->status != q->status)
        return p->status < q->status ? -1 : 1;
    int c = strcmp(row_reason(p), row_reason(q));
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

static const size_t *group_rows;

static int by_first_row(const void *a, const void *b)
{
    const rb_outcome_group *x = a, *y = b;
    size_t p = group_rows[x->first], q = group_rows[y->first];
    return p < q ? -1 : p > q;
}

void outcome_groups(const rb_results *res, int (*member)(const rb_row *row),
                    rb_outcome_groups *g)
{
    memset(g, 0, sizeof *g);
    size_t *rows = xcalloc(res->n_rows + 1, sizeof *rows), n = 0;
    for (size_t k = 0; k < res->n_rows; k++)
        if (member(&res->rows[k]))
            rows[n++] = k;
    sorted_rows = res->rows;
    qsort(rows, n, sizeof *rows, by_outcome);
    rb_outcome_group *groups = xcalloc(n + 1, sizeof *groups);
    size_t n_groups = 0;
    for (size_t k = 0; k < n; k++) {
        const rb_row *row = &res->rows[rows[k]];
        if (k == 0 || row->status != res->rows[rows[k - 1]].status ||
            strcmp(row_reason(row), row_reason(&res->rows[rows[k - 1]])) != 0)
            groups[n_groups++] = (rb_outcome_group){k, 0};
        groups[n_groups - 1].count++;
    }
    /* the groups in the order of their first rows, their rows moved along */
    group_rows = rows;
    qsort(groups, n_groups, sizeof *groups, by_first_row);
    size_t *ordered = xcalloc(n + 1, sizeof *ordered), at = 0;
    for (size_t k = 0; k < n_groups; k++) {
        memcpy(ordered + at, rows + groups[k].first, groups[k].count * sizeof *rows);
        groups[k].first = at;
        at += groups[k].count;
    }
    free(rows);
    g->groups = groups;
    g->n_groups = n_groups;
    g->rows = ordered;
}

void outcome_groups_free(rb_outcome_groups *g)
{
    free(g->groups);
    free(g->rows);
    memset(g, 0, sizeof *g);
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
