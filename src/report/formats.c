/* src/report/formats.c: the reporter of each output format (enum rb_format,
 * whose words are in base/names.c). */
#include <string.h>

#include "base/diag.h"
#include "base/names.h"
#include "report/html.h"
#include "report/reporters.h"

/* A history is a database, appended to by the run (src/history/, which the
 * run's output calls for this format), never a stream. */
static int report_sqlite_refused(FILE *out, const rb_results *res)
{
    (void)out;
    (void)res;
    diag_error("the sqlite format is a history database, not a report: a run appends to one "
               "with -o FILE.db, and `redbench history add DB RESULTS.json` adds saved results");
    return -1;
}

static const rb_reporter reporters[RB_FORMAT_COUNT_] = {
    [RB_FORMAT_TABLE] = report_table, [RB_FORMAT_CSV] = report_csv,
    [RB_FORMAT_JSON] = report_json,   [RB_FORMAT_MD] = report_md,
    [RB_FORMAT_HTML] = report_html,   [RB_FORMAT_SQLITE] = report_sqlite_refused,
};

rb_reporter report_for(const char *format)
{
    int f = format ? format_from_name(format) : -1;
    return f >= 0 ? reporters[f] : NULL;
}

const char *report_formats(void) { return format_choices(", "); }

int report_format_of_path(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot && !strchr(dot, '/') && strcmp(dot, ".txt") == 0)
        return RB_FORMAT_TABLE;
    return format_from_path(path);
}
