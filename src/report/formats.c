/* src/report/formats.c: the reporters by format name. */
#include "report/reporters.h"

#include <string.h>

#include "report/html.h"
#include "base/util.h"

static const struct {
    const char *name;
    rb_reporter write;
} reporters[] = {
    {"table", report_table},
    {"csv", report_csv},
    {"json", report_json},
    {"md", report_md},
    {"html", report_html},
};

rb_reporter report_for(const char *format)
{
    if (!format)
        return NULL;
    for (size_t k = 0; k < RB_ARRAY_LEN(reporters); k++)
        if (strcmp(reporters[k].name, format) == 0)
            return reporters[k].write;
    return NULL;
}

const char *report_formats(void) { return "table, csv, json, md, html"; }
