/* src/report/output.h: what every report writer shares, a run's (report/)
 * and compare's (compare/report.c): text that fits one line and its width
 * on a terminal, CSV fields, Markdown escapes and code spans, and JSON
 * members. Text from a results file or a plugin may hold anything: each
 * writer here escapes control bytes (printable_text), so that none reaches
 * a terminal or a file raw. */
#ifndef RB_REPORT_OUTPUT_H
#define RB_REPORT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/json_writer.h"
#include "results/rows.h"

/* Characters on screen: UTF-8 continuation bytes take no column. */
size_t display_width(const char *s);

/* A copy on one line: line breaks and tabs as spaces, other control bytes
 * as escapes. The caller frees it. */
char *one_line(const char *text);

/* A CSV text field, with its leading comma unless `first`: on one line,
 * quoted when it holds a comma or a quote, quotes doubled; nothing for
 * NULL. Text a spreadsheet could take for a formula (starting with = + -
 * @, a tab or a carriage return, or = + - @ after spaces; a plain number
 * such as -12 is not one) is neutralised as OWASP's CSV injection guidance
 * says: a single quote before it, inside the quoted field ("'=1+1").
 * Every text cell of every CSV redbench writes goes through here. */
void csv_field(FILE *out, const char *text, int first);
/* A CSV field holding a number redbench formatted itself (a negative
 * number is a number, not a formula): written as it is. */
void csv_number_field(FILE *out, const char *number, int first);

/* Markdown text on one line, shown as it is and never live: control
 * bytes as escapes (one_line), and Markdown's special characters escaped
 * with a backslash (| \ ` * < [ ] ! & @; > needs none once < is
 * escaped), so that a stranger's link
 * or image ([x](y), ![x](y)), raw HTML, <autolink> or entity is text; the
 * ':' of "://" and the '.' of "www." are escaped too, so that no bare
 * autolink is made. */
void md_text(FILE *out, const char *text);
/* Lines of text for a fenced code block: each line made printable
 * (printable_text: ESC, BEL, DEL, C0 and C1 controls, bytes that are not
 * UTF-8 as escapes such as \x1b), line breaks and tabs kept, a CR that
 * ends a line dropped. */
void md_lines(FILE *out, const char *text);
/* The length of a backtick fence that no line of text can close: longer
 * than its longest run of backticks, and at least 3. */
size_t md_fence_length(const char *text);
/* Text as a Markdown code span, with a delimiter longer than any run of
 * backticks in it. */
void md_code_span(FILE *out, const char *text);
/* The longest run of backticks in text, and `count` backticks (for fences
 * that no line of a text can close). */
size_t md_longest_backtick_run(const char *text);
void md_backticks(FILE *out, size_t count);

/* Whether an experiment asked for `key` of its [experiment] section: its
 * text (the file as given) sets it, or the command line defines it
 * (-D key=value). A setting nobody asked for is not reported as asked. */
int experiment_asked(const char *text, const char *command_line, const char *key);

/* The rounds a row measured when the run asked for several and it
 * measured fewer (the run was interrupted after it measured 1 of 3): its
 * count, else 0. Such a row is marked in every report. */
size_t row_rounds_short(const rb_results *res, const rb_row *row);

/* Each plugin the rows used, once, in order of first use (sorted, so
 * O(rows log rows)); the caller frees the array. *count is how many. */
const rb_loaded_plugin **results_plugins(const rb_results *res, size_t *count);

/* The rows that share a status and a reason, among those `member` takes
 * (the rows not ok, the rows not run): groups in the order of their first
 * row, each listing its rows in order. Found by sorting, so O(rows log
 * rows) however many rows and reasons there are. */
typedef struct rb_outcome_group {
    size_t first;    /* into rows[] of rb_outcome_groups */
    size_t count;
} rb_outcome_group;
typedef struct rb_outcome_groups {
    rb_outcome_group *groups;
    size_t n_groups;
    size_t *rows;    /* positions in res->rows, group after group */
} rb_outcome_groups;
void outcome_groups(const rb_results *res, int (*member)(const rb_row *row),
                    rb_outcome_groups *g);
void outcome_groups_free(rb_outcome_groups *g);

/* A stream written by one thread only, while a report is written: stdio
 * takes no lock per character (__fsetlocking). Returns the state that
 * stream_relock puts back. */
int stream_unlocked(FILE *out);
void stream_relock(FILE *out, int state);

/* A JSON object's member: a string (null for NULL), a number (null when
 * not finite), an integer, a whole number or a boolean. */
void json_member_string(json_writer *w, const char *key, const char *value);
void json_member_number(json_writer *w, const char *key, double value);
void json_member_int(json_writer *w, const char *key, int64_t value);
void json_member_uint(json_writer *w, const char *key, uint64_t value);
void json_member_bool(json_writer *w, const char *key, int value);

#endif
