/* fuzz/fuzz_results.c: a fuzzing harness (libFuzzer's entry point) for the
 * results reader. Each input is a results file: it is parsed (json_parse),
 * checked (json_check_results), read into the typed result set that every
 * consumer reads (results/read.c), loaded as `redbench compare` loads it and
 * compared with itself, every compare report written, built into the
 * figures `redbench plot` draws, written as SVG and as the HTML report, and
 * written again in every format of a run.
 * Errors in the input are expected and reported through diag; a crash, a
 * hang, a leak or a sanitizer report is a bug. Built by fuzz/run.sh with
 * libFuzzer, and by `make check` with fuzz/replay.c to replay the seed
 * corpus and every input that once found a bug (fuzz/regressions/results/). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/json_reader.h"
#include "compare/comparison.h"
#include "plot/figures.h"
#include "report/html.h"
#include "report/reporters.h"
#include "results/read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    return null;
}

static void compare_with_itself(const rb_results *res)
{
    rb_comparison cmp = {0};
    compare_criteria_default(&cmp.criteria);
    cmp.criteria.resamples = 50; /* the statistics are not what is fuzzed */
    if (compare_file_from_results("old.json", res, &cmp.old_file) == 0 &&
        compare_file_from_results("new.json", res, &cmp.new_file) == 0) {
        comparison_run(&cmp);
        static const char *const formats[] = {"table", "csv", "json", "md"};
        for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
            compare_reporter_for(formats[k])(sink(), &cmp);
    }
    comparison_free(&cmp);
}

static void plot(const rb_results *res)
{
    plot_set set;
    if (plot_build(res, "fuzz.json", NULL, &set) != 0)
        return;
    for (size_t f = 0; f < set.n_figures; f++)
        plot_svg_write(sink(), &set.figures[f]);
    html_report_write(sink(), res, &set, "fuzz.json", NULL);
    plot_set_free(&set);
}

/* Every format a run writes; the HTML report draws the figures again. */
static void write_again(const rb_results *res)
{
    static const char *const formats[] = {"table", "csv", "json", "md"};
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
        report_for(formats[k])(sink(), res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error err;
    json_value *doc = json_parse((const char *)data, size, &err);
    rb_results_file file;
    if (doc && json_check_results(doc, "fuzz.json") == 0 &&
        results_from_doc("fuzz.json", doc, &file) == 0) {
        compare_with_itself(&file.res);
        plot(&file.res);
        write_again(&file.res);
        results_file_free(&file);
    }
    json_free(doc);
    return 0;
}
