/* tests/report/test_report_scaling.c: every reporter's cost grows as
 * rows log rows, not faster. A results set of N rows and one of 8N, built
 * in memory (the reader is not measured), with rows of every status, a
 * reason of its own on many of them (as a sweep whose workers crash), many
 * runs, plugins and sizes, is written by each reporter to /dev/null; the
 * work is counted in instructions where the kernel counts them
 * (perf_event_open), else in the process's CPU time, which the machine's
 * load changes far less than the wall time. Sixteen times the rows may
 * cost at most 32 times the work (rows log rows gives 16 to 20; rows
 * squared 256, and the grouping of rows by reason that was quadratic gave
 * 54 to 66). The least of three tries of each is taken. */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/names.h"
#include "base/util.h"
#include "report/reporters.h"
#include "results/rows.h"
#include "tap.h"

#define SMALL 1000
#define FACTOR 16
#define RUNS 40

static const rb_plugin plugin_descs[5] = {
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
     .name = "p0", .version = "1", .backend = "cpu"},
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
     .name = "p1", .version = "1", .backend = "cpu"},
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
     .name = "p2", .version = "1", .backend = "cpu"},
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
     .name = "p3", .version = "1", .backend = "cpu"},
    {.abi_major = REDBENCH_ABI_MAJOR, .abi_minor = REDBENCH_ABI_MINOR, .size = sizeof(rb_plugin),
     .name = "p4", .version = "1", .backend = "cpu"},
};
static rb_loaded_plugin plugins[5];
static rb_run_section runs[RUNS];
static char run_names[RUNS][16];
static rb_experiment experiment = {.path = "big.ini", .text = "[experiment]\nname = big\n",
                                   .name = "big", .max_reps = 3, .timeout = 60, .seed = 1};

typedef struct built {
    rb_results res;
    rb_configuration *configs;
} built;

static void build(built *b, size_t n_rows)
{
    memset(b, 0, sizeof *b);
    b->configs = xcalloc(n_rows, sizeof *b->configs);
    b->res.rows = xcalloc(n_rows, sizeof *b->res.rows);
    b->res.n_rows = n_rows;
    rb_run_info *info = &b->res.info;
    info->experiment = &experiment;
    info->tool_version = "0.1.0";
    info->command_line = "redbench -c big.ini";
    info->rounds = info->rounds_run = 1;
    info->n_devices = 1;
    snprintf(info->devices[0].backend, sizeof info->devices[0].backend, "cpu");
    snprintf(info->devices[0].info.name, sizeof info->devices[0].info.name, "Test CPU");
    info->devices[0].info.peak_gbs = 100;
    for (size_t k = 0; k < n_rows; k++) {
        rb_configuration *cfg = &b->configs[k];
        size_t run = k % RUNS, c = k / RUNS;
        *cfg = (rb_configuration){.index = k, .run = &runs[run], .plugin = &plugins[run % 5],
                                  .op = RB_OP_SUM, .dtype = RB_DTYPE_F32,
                                  .n = 1024 * (1 + c / 24), .distribution = RB_DIST_UNIFORM,
                                  .bins = 256};
        cfg->params_text = xasprintf("block=%zu lanes=%zu", (size_t)32 << (c % 6),
                                     (size_t)4 << (c / 6 % 4));
        rb_row *row = &b->res.rows[k];
        row->config = cfg;
        row->backend = "cpu";
        row->device_index = 0;
        row->timing = "launch";
        row->stopped_by = "noise";
        if (k % 4 == 1) {
            row->status = RB_ROW_SKIPPED;
            row_set_reason(row, "plugin p%zu not found", run % 5);
        } else if (k % 8 == 2) {
            row->status = RB_ROW_FAILED;
            row_set_reason(row, "worker %zu crashed (SIGSEGV)", k);
        } else if (k % 16 == 4) {
            row->status = RB_ROW_UNSUPPORTED;
            row_set_reason(row, "does not support n = %llu (row %zu)",
                           (unsigned long long)cfg->n, k);
        } else {
            row->status = k % 32 == 8 ? RB_ROW_WRONG : RB_ROW_OK;
            if (row->status == RB_ROW_WRONG)
                row_set_reason(row, "result %zu outside tolerance", k);
            double t = (double)cfg->n / 1000 + (double)(run % 7);
            row->samples_ns = xmalloc(3 * sizeof *row->samples_ns);
            row->samples_ns[0] = t;
            row->samples_ns[1] = t * 1.01;
            row->samples_ns[2] = t * 0.99;
            row->stats = (rb_stats){3, t, t * 0.99, t * 1.01, t, t * 0.01, 0.01, 0.01};
            row->bandwidth_gbs = 4.0 * (double)cfg->n / t;
            row->pct_peak = row->bandwidth_gbs;
        }
    }
}

static void unbuild(built *b)
{
    for (size_t k = 0; k < b->res.n_rows; k++) {
        free(b->configs[k].params_text);
        row_release(&b->res.rows[k]);
    }
    free(b->res.rows);
    free(b->configs);
}

static int counter = -2; /* -2: not tried, -1: none (CPU time instead) */

static int open_counter(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    return fd >= 0 ? (int)fd : -1;
}

/* The work from here: instructions, or CPU nanoseconds. */
static double work_now(void)
{
    if (counter >= 0) {
        long long count = 0;
        if (read(counter, &count, sizeof count) == (ssize_t)sizeof count)
            return (double)count;
    }
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The least work of three tries of the reporter on the results. */
static double work_of(rb_reporter reporter, const rb_results *res)
{
    double least = 0;
    for (int t = 0; t < 3; t++) {
        FILE *out = fopen("/dev/null", "w");
        double before = work_now();
        reporter(out, res);
        fclose(out);
        double used = work_now() - before;
        if (t == 0 || used < least)
            least = used;
    }
    return least;
}

int main(void)
{
    static const char *const formats[] = {"table", "csv", "md", "json", "html"};
    plan((int)RB_ARRAY_LEN(formats));
    for (size_t k = 0; k < RB_ARRAY_LEN(plugins); k++)
        plugins[k] = (rb_loaded_plugin){.path = "/plugins/cpu/p.so", .pack = "cpu",
                                        .desc = &plugin_descs[k], .sha256 = "00"};
    for (size_t k = 0; k < RUNS; k++) {
        snprintf(run_names[k], sizeof run_names[k], "r%zu", k);
        runs[k] = (rb_run_section){.name = run_names[k], .plugin = "p"};
    }
    counter = open_counter();
    if (counter >= 0) {
        ioctl(counter, PERF_EVENT_IOC_RESET, 0);
        ioctl(counter, PERF_EVENT_IOC_ENABLE, 0);
    }
    diag("work counted in %s", counter >= 0 ? "instructions" : "CPU time");
    built small, large;
    build(&small, SMALL);
    build(&large, SMALL * FACTOR);
    for (size_t f = 0; f < RB_ARRAY_LEN(formats); f++) {
        rb_reporter reporter = report_for(formats[f]);
        double a = work_of(reporter, &small.res), b = work_of(reporter, &large.res);
        double ratio = a > 0 ? b / a : 0;
        if (counter < 0)
            diag("%s: %.3f s and %.3f s of CPU time", formats[f], a / 1e9, b / 1e9);
        ok(ratio > 0 && ratio <= 32, "%s: %d times the rows cost %.1f times the work (at most 32)",
           formats[f], FACTOR, ratio);
    }
    unbuild(&small);
    unbuild(&large);
    return done();
}
