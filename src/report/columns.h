/* src/report/columns.h: the tables people read, laid out once for every
 * report that has one, a run's (report/table.c, md.c) and compare's
 * (compare/report.c): columns with a title and an alignment, and their
 * cells written as an aligned table for a terminal or as a Markdown table.
 * Each report fills the cells (one line each, control bytes escaped); the
 * layout is here. */
#ifndef RB_REPORT_COLUMNS_H
#define RB_REPORT_COLUMNS_H

#include <stddef.h>
#include <stdio.h>

/* A column of a table for people. */
typedef struct rb_column {
    const char *title;
    int right;            /* right-aligned (numbers) */
} rb_column;

/* An aligned table: the titles, a rule of dashes under each, then one line
 * per row (cells[row * n_columns + column]). Only the columns whose
 * shown[c] is set appear (shown NULL: all), each as wide as its title and
 * widest cell, two spaces apart; a line stops at its last cell that is not
 * empty, which is not padded, so that no line ends in spaces. */
void text_table(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                char *const *cells, size_t n_rows);

/* The same with each row's cells made when they are needed, so that a
 * table of a million rows is never held whole: fill(user, row, cells)
 * sets the n_columns cells of `row`, each a new string, which the table
 * frees. Every row is made twice: once to measure the columns, once to
 * write it. `shown` is read once every row was made the first time (so
 * fill may set it). */
typedef void rb_row_cells_fn(void *user, size_t row, char **cells);
void text_table_rows(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                     size_t n_rows, rb_row_cells_fn *fill, void *user);

/* A Markdown table's header and rule (a number column's rule is
 * `number_rule`, "--:" or "---:"), then each row's cells escaped
 * (md_text); the columns whose shown[c] is set (NULL: all). */
void md_table_head(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                   const char *number_rule);
void md_table_row(FILE *out, char *const *cells, const int *shown, size_t n_columns);

#endif
