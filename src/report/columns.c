/* src/report/columns.c: the tables people read, laid out (report/columns.h). */
#include "report/columns.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/output.h"

#define COLUMN_GAP "  "

static int is_shown(const int *shown, size_t c) { return !shown || shown[c]; }

/* One line: the shown cells up to the last that is not empty. */
static void text_line(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                      char *const *cells, const size_t *width)
{
    size_t end = n_columns;
    while (end > 1 && (!is_shown(shown, end - 1) || !*cells[end - 1]))
        end--;
    int first = 1;
    for (size_t c = 0; c < end; c++) {
        if (!is_shown(shown, c))
            continue;
        if (!first)
            fputs(COLUMN_GAP, out);
        first = 0;
        size_t pad = width[c] - display_width(cells[c]);
        if (columns[c].right)
            fprintf(out, "%*s", (int)pad, "");
        fputs(cells[c], out);
        if (!columns[c].right && c + 1 != end)
            fprintf(out, "%*s", (int)pad, "");
    }
    fputc('\n', out);
}

static void free_row(char **cells, size_t n_columns)
{
    for (size_t c = 0; c < n_columns; c++) {
        free(cells[c]);
        cells[c] = NULL;
    }
}

void text_table_rows(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                     size_t n_rows, rb_row_cells_fn *fill, void *user)
{
    size_t *width = xcalloc(n_columns, sizeof *width);
    char **cells = xcalloc(n_columns, sizeof *cells);
    char **titles = xcalloc(n_columns, sizeof *titles);
    char **rules = xcalloc(n_columns, sizeof *rules);
    for (size_t c = 0; c < n_columns; c++)
        width[c] = display_width(columns[c].title);
    for (size_t k = 0; k < n_rows; k++) {
        fill(user, k, cells);
        for (size_t c = 0; c < n_columns; c++) {
            size_t w = display_width(cells[c]);
            if (w > width[c])
                width[c] = w;
        }
        free_row(cells, n_columns);
    }
    for (size_t c = 0; c < n_columns; c++) {
        titles[c] = (char *)columns[c].title;
        rules[c] = xmalloc(width[c] + 1);
        memset(rules[c], '-', width[c]);
        rules[c][width[c]] = '\0';
    }
    text_line(out, columns, shown, n_columns, titles, width);
    text_line(out, columns, shown, n_columns, rules, width);
    for (size_t k = 0; k < n_rows; k++) {
        fill(user, k, cells);
        text_line(out, columns, shown, n_columns, cells, width);
        free_row(cells, n_columns);
    }
    free_row(rules, n_columns);
    free(rules);
    free(titles);
    free(cells);
    free(width);
}

/* A table's cells given whole (text_table): copies of one row's. */
typedef struct given_cells {
    char *const *cells;
    size_t n_columns;
} given_cells;

static void copy_row(void *user, size_t row, char **cells)
{
    const given_cells *given = user;
    for (size_t c = 0; c < given->n_columns; c++)
        cells[c] = xstrdup(given->cells[row * given->n_columns + c]);
}

void text_table(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                char *const *cells, size_t n_rows)
{
    given_cells given = {cells, n_columns};
    text_table_rows(out, columns, shown, n_columns, n_rows, copy_row, &given);
}

void md_table_head(FILE *out, const rb_column *columns, const int *shown, size_t n_columns,
                   const char *number_rule)
{
    fputc('|', out);
    for (size_t c = 0; c < n_columns; c++)
        if (is_shown(shown, c))
            fprintf(out, " %s |", columns[c].title);
    fputs("\n|", out);
    for (size_t c = 0; c < n_columns; c++)
        if (is_shown(shown, c))
            fprintf(out, "%s|", columns[c].right ? number_rule : "---");
    fputc('\n', out);
}

void md_table_row(FILE *out, char *const *cells, const int *shown, size_t n_columns)
{
    fputc('|', out);
    for (size_t c = 0; c < n_columns; c++) {
        if (!is_shown(shown, c))
            continue;
        fputc(' ', out);
        md_text(out, cells[c]);
        fputs(" |", out);
    }
    fputc('\n', out);
}
