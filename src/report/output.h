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

/* Characters on screen: UTF-8 continuation bytes take no column. */
size_t display_width(const char *s);

/* A copy on one line: line breaks and tabs as spaces, other control bytes
 * as escapes. The caller frees it. */
char *one_line(const char *text);

/* A CSV field, with its leading comma unless `first`: on one line, quoted
 * when it holds a comma or a quote, quotes doubled; nothing for NULL. */
void csv_field(FILE *out, const char *text, int first);

/* Markdown text on one line, its special characters escaped. */
void md_text(FILE *out, const char *text);
/* Text as a Markdown code span, with a delimiter longer than any run of
 * backticks in it. */
void md_code_span(FILE *out, const char *text);
/* The longest run of backticks in text, and `count` backticks (for fences
 * that no line of a text can close). */
size_t md_longest_backtick_run(const char *text);
void md_backticks(FILE *out, size_t count);

/* A JSON object's member: a string (null for NULL), a number (null when
 * not finite), an integer, a whole number or a boolean. */
void json_member_string(json_writer *w, const char *key, const char *value);
void json_member_number(json_writer *w, const char *key, double value);
void json_member_int(json_writer *w, const char *key, int64_t value);
void json_member_uint(json_writer *w, const char *key, uint64_t value);
void json_member_bool(json_writer *w, const char *key, int value);

#endif
